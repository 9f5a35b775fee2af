package pattern

import (
	"bytes"
	"context"
	"errors"
	"io"
	"syscall"
	"testing"
	"time"

	"github.com/plateau/plateau/index/internal/movelist"
	"github.com/plateau/plateau/record"
	"github.com/plateau/plateau/replay"
	"github.com/plateau/plateau/replay/generate"
	"github.com/plateau/plateau/rules"
	_ "github.com/plateau/plateau/rules/all"
)

// boardOnly hides a position's rules.Cells: pattern search must then test
// its Board.
type boardOnly struct{ rules.Position }

func (p boardOnly) Clone() rules.Position { return boardOnly{p.Position.Clone()} }

type boardOnlyGame struct{ rules.Game }

func (g boardOnlyGame) NewPosition(s string) (rules.Position, error) {
	p, err := g.Game.NewPosition(s)
	if err != nil {
		return nil, err
	}
	return boardOnly{p}, nil
}

// TestCellsAndBoardPathsAgree plays generated games through matchGame with
// and without rules.Cells and expects the same first match of each game.
func TestCellsAndBoardPathsAgree(t *testing.T) {
	patterns := map[string][]string{
		"ogi": {"Sente:+*>=3", "Gote:P@hand>=4", "1:-S@hand=1 0:*<16", "empty@e3,e6 Gote:+R@a1,b1,c1,d1,e1,f1,g1,h1",
			"Sente:R@g2 Gote:B@g7", "*<=24", "se:K@e2,d1,f1 go:*@hand>3", "-P!=14 +*>2",
			"P>=1 P>=2 P>=3 P>=4 P>=5 P>=6 P>=7 P>=8 *<40 -P>=10 Sente:P<7 Gote:*>=2"},
		"jetan":   {"Black:C@e1 Orange:P@e10", "empty@e2,f2,g2", "o:N<=6", "*@e5,f5,e6,f6", "1:*<=12 0:*>=14"},
		"dames":   {"+K>=1", "White:M@28 Black:M@23", "empty@1,2,3,4", "b:*<=12 w:M>=13"},
		"sauts":   {"White:P@A4,A5", "Black:P<8", "empty@D4,E4,D5,E5"},
		"dejarik": {"White:P@c", "Black:P<4", "empty@i1,i2,i3"},
	}
	for game, pats := range patterns {
		g, err := rules.Lookup(game)
		if err != nil {
			t.Fatal(err)
		}
		gen, err := generate.New(g, 9)
		if err != nil {
			t.Fatal(err)
		}
		var text bytes.Buffer
		if _, err := gen.Write(context.Background(), &text, 40, generate.Options{}); err != nil {
			t.Fatal(err)
		}
		var cands []Cand
		r := record.NewReader(&text, game)
		for {
			rec, err := r.Next()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			rg := replay.Replay(rec, replay.Options{})
			if rg.Err != nil {
				t.Fatal(rg.Err)
			}
			pos := rg.Start.Clone()
			for _, s := range rg.Main {
				pos.Play(s.Move)
			}
			cands = append(cands, Cand{ID: int64(len(cands) + 1), Final: int64(pos.Key()), Moves: movelist.Encode(rg.Main)})
		}
		for _, ptext := range pats {
			p, err := Parse(ptext)
			if err != nil {
				t.Fatal(err)
			}
			m, err := Compile(p, g)
			if err != nil {
				t.Fatal(err)
			}
			fast, slow := NewWorker(g, m), NewWorker(boardOnlyGame{g}, m)
			n := 0
			for i := range cands {
				a, b := cands[i], cands[i]
				fast.MatchGame(&a)
				slow.MatchGame(&b)
				if fast.cells == nil || slow.cells != nil {
					t.Fatalf("%s: the fast worker does not use cells, or the slow one does", game)
				}
				if a.Err != nil || b.Err != nil || a.Stale || b.Stale {
					t.Fatalf("%s game %d: %v %v stale %v %v", game, a.ID, a.Err, b.Err, a.Stale, b.Stale)
				}
				if a.OK != b.OK || a.Ply != b.Ply || a.Var != b.Var {
					t.Fatalf("%s %q game %d: cells %v ply %d var %v; Board %v ply %d var %v", game, ptext, a.ID, a.OK, a.Ply, a.Var, b.OK, b.Ply, b.Var)
				}
				if a.OK {
					n++
				}
			}
			t.Logf("%s %q: %d of %d games", game, ptext, n, len(cands))
		}
	}
}

// BenchmarkMatchGame times one worker testing every position of generated
// Ōgi games (main lines and variations) against a pattern no position
// matches, without the database: the scan's own CPU cost per game.
func BenchmarkMatchGame(b *testing.B) {
	g, cands := generatedOgi(b, 2000)
	p, err := Parse("*>999")
	if err != nil {
		b.Fatal(err)
	}
	m, err := Compile(p, g)
	if err != nil {
		b.Fatal(err)
	}
	w := NewWorker(g, m)
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := processCPU()
	for i := 0; i < b.N; i++ {
		c := &cands[i%len(cands)]
		w.MatchGame(c)
		if c.OK || c.Stale || c.Err != nil {
			b.Fatalf("game %d: %+v", c.ID, c)
		}
	}
	// CPU time tells the cost when other processes share the machine.
	b.ReportMetric(float64((processCPU()-cpu0).Nanoseconds())/float64(b.N), "cpu-ns/op")
}

// generatedOgi is n generated Ōgi games (seed 3) as a scan's candidates:
// ids from 1, each with its stored move list and final key.
func generatedOgi(tb testing.TB, n int) (rules.Game, []Cand) {
	tb.Helper()
	g, err := rules.Lookup("ogi")
	if err != nil {
		tb.Fatal(err)
	}
	gen, err := generate.New(g, 3)
	if err != nil {
		tb.Fatal(err)
	}
	var text bytes.Buffer
	if _, err := gen.Write(context.Background(), &text, n, generate.Options{}); err != nil {
		tb.Fatal(err)
	}
	var cands []Cand
	r := record.NewReader(&text, "ogi")
	for {
		rec, err := r.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			tb.Fatal(err)
		}
		rg := replay.Replay(rec, replay.Options{})
		if rg.Err != nil {
			tb.Fatal(rg.Err)
		}
		cands = append(cands, Cand{ID: int64(len(cands) + 1), Final: int64(rg.Final.Key()), Moves: movelist.Encode(rg.Main)})
	}
	return g, cands
}

// processCPU is the user and system CPU time of the process so far.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
