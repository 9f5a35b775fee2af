package pattern

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/plateau/plateau/index/internal/movelist"
	"github.com/plateau/plateau/record"
	"github.com/plateau/plateau/replay"
	"github.com/plateau/plateau/replay/generate"
	"github.com/plateau/plateau/rules"
)

// signedGame is a game to test, with its signature.
type signedGame struct {
	c   Cand
	sig []byte
}

// gamesOf are generated games of g and the valid records of its sample
// files (handicaps, variations), as a scan reads them, signed.
func gamesOf(t *testing.T, g rules.Game, n int) []signedGame {
	t.Helper()
	var texts []io.Reader
	gen, err := generate.New(g, 11)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if _, err := gen.Write(context.Background(), &buf, n, generate.Options{}); err != nil {
		t.Fatal(err)
	}
	texts = append(texts, &buf)
	files, _ := filepath.Glob(filepath.Join("..", "..", "..", "samples", g.ID(), "*.pdn"))
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		texts = append(texts, bytes.NewReader(b))
	}
	var s Signer
	var out []signedGame
	for _, text := range texts {
		r := record.NewReader(text, g.ID())
		for {
			rec, err := r.Next()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				continue
			}
			rg := replay.Replay(rec, replay.Options{DefaultGame: g.ID()})
			if rg.Err != nil || rg.Rules.ID() != g.ID() {
				continue
			}
			c := Cand{ID: int64(len(out) + 1), Final: int64(rg.Final.Key()), Moves: movelist.Encode(rg.Main)}
			if rg.Canonical().Tag("FEN") != "" {
				c.FEN = rg.Start.String()
			}
			sig := s.Sign(nil, g, c.FEN, c.Moves, uint64(c.Final))
			if len(sig) == 0 {
				t.Fatalf("%s game %d: no signature", g.ID(), c.ID)
			}
			out = append(out, signedGame{c, sig})
		}
	}
	return out
}

// randomPattern is a pattern of 1 to 3 random terms on the pieces, squares
// and hand slots of layout l.
func randomPattern(rnd *rand.Rand, g rules.Game, l *rules.Layout) string {
	var kinds []byte
	for _, pc := range l.Codes {
		if pc.Kind != 0 && !bytes.ContainsRune(kinds, rune(pc.Kind)) {
			kinds = append(kinds, pc.Kind)
		}
	}
	ops := []string{"=", "!=", "<", "<=", ">", ">="}
	piece := func() string {
		s := ""
		switch rnd.IntN(3) {
		case 0:
			s = g.Sides()[0] + ":"
		case 1:
			s = g.Sides()[1] + ":"
		}
		switch rnd.IntN(4) {
		case 0:
			s += "+"
		case 1:
			s += "-"
		}
		if rnd.IntN(4) == 0 {
			return s + "*"
		}
		return s + string(kinds[rnd.IntN(len(kinds))])
	}
	squares := func() string {
		var sq []string
		for range 1 + rnd.IntN(4) {
			sq = append(sq, l.Squares[rnd.IntN(len(l.Squares))])
		}
		return strings.Join(sq, ",")
	}
	var terms []string
	for range 1 + rnd.IntN(3) {
		switch k := rnd.IntN(8); {
		case k < 3:
			terms = append(terms, piece()+"@"+squares())
		case k < 4:
			terms = append(terms, "empty@"+squares())
		case k < 6 && len(l.Hand) > 0:
			terms = append(terms, fmt.Sprintf("%s@hand%s%d", piece(), ops[rnd.IntN(len(ops))], rnd.IntN(5)))
		default:
			terms = append(terms, fmt.Sprintf("%s%s%d", piece(), ops[rnd.IntN(len(ops))], rnd.IntN(24)))
		}
	}
	return strings.Join(terms, " ")
}

// TestPrefilterNeverSkipsAMatch tests random patterns on the games of every
// ruleset, with and without the prefilter: every game the matcher finds
// must pass its signature, and the prefilter must skip games.
func TestPrefilterNeverSkipsAMatch(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 2))
	pats := 60
	if testing.Short() {
		pats = 15
	}
	for _, g := range rules.Games() {
		games := gamesOf(t, g, 25)
		start, err := g.NewPosition("")
		if err != nil {
			t.Fatal(err)
		}
		l := start.(rules.Cells).Layout()
		layouts := []*rules.Layout{l}
		for _, sg := range games {
			if p, err := g.NewPosition(sg.c.FEN); err == nil {
				if pl := p.(rules.Cells).Layout(); pl != l {
					layouts = append(layouts, pl)
				}
			}
		}
		matched, skipped := 0, 0
		for range pats {
			text := randomPattern(rnd, g, layouts[rnd.IntN(len(layouts))])
			p, err := Parse(text)
			if err != nil {
				t.Fatalf("%s %q: %v", g.ID(), text, err)
			}
			if Check(p, g, layouts) != nil {
				continue // a square or piece of another layout only
			}
			m, err := Compile(p, g)
			if err != nil {
				t.Fatalf("%s %q: %v", g.ID(), text, err)
			}
			f := m.Prefilter(layouts)
			w := NewWorker(g, m)
			for _, sg := range games {
				c := sg.c
				w.MatchGame(&c)
				if c.Err != nil || c.Stale {
					t.Fatalf("%s game %d: %v stale %v", g.ID(), c.ID, c.Err, c.Stale)
				}
				may := f == nil || f.May(sg.sig)
				if c.OK && !may {
					t.Fatalf("%s %q: game %d matches at ply %d, its signature %x skips it", g.ID(), text, c.ID, c.Ply, sg.sig)
				}
				if c.OK {
					matched++
				}
				if !may {
					skipped++
				}
			}
		}
		t.Logf("%s: %d games, %d matches, %d skipped", g.ID(), len(games), matched, skipped)
		if skipped == 0 {
			t.Errorf("%s: the prefilter skipped no game of %d patterns", g.ID(), pats)
		}
	}
}

// BenchmarkPrefilter times the test of one game's signature (Ogi,
// generated games) against a pattern that every signature rules out: the
// prefilter's cost per game of a scan, without the database.
func BenchmarkPrefilter(b *testing.B) {
	g, cands := generatedOgi(b, 500)
	var sigs [][]byte
	var s Signer
	for _, c := range cands {
		sigs = append(sigs, s.Sign(nil, g, "", c.Moves, uint64(c.Final)))
	}
	for _, text := range []string{"*>999", "Sente:+R@a1,b1"} {
		b.Run(text, func(b *testing.B) {
			p, err := Parse(text)
			if err != nil {
				b.Fatal(err)
			}
			m, err := Compile(p, g)
			if err != nil {
				b.Fatal(err)
			}
			start, _ := g.NewPosition("")
			f := m.Prefilter([]*rules.Layout{start.(rules.Cells).Layout()})
			b.ReportAllocs()
			n := 0
			cpu0 := processCPU()
			for i := 0; b.Loop(); i++ {
				if f.May(sigs[i%len(sigs)]) {
					n++
				}
			}
			b.ReportMetric(float64((processCPU()-cpu0).Nanoseconds())/float64(b.N), "cpu-ns/op")
			b.ReportMetric(float64(n)/float64(b.N), "passed/op")
		})
	}
}

// BenchmarkSign times the signature of one generated Ogi game from its
// stored move list, as an import writes it.
func BenchmarkSign(b *testing.B) {
	g, cands := generatedOgi(b, 300)
	var s Signer
	var buf []byte
	b.ReportAllocs()
	cpu0 := processCPU()
	for i := 0; b.Loop(); i++ {
		c := &cands[i%len(cands)]
		if buf = s.Sign(buf[:0], g, "", c.Moves, uint64(c.Final)); len(buf) == 0 {
			b.Fatal("no signature")
		}
	}
	// CPU time tells the cost when other processes share the machine.
	b.ReportMetric(float64((processCPU()-cpu0).Nanoseconds())/float64(b.N), "cpu-ns/op")
	b.ReportMetric(float64(len(buf)), "bytes/sig")
}
