package gamerows

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"unsafe"

	"github.com/plateau/plateau/replay"
	"github.com/plateau/plateau/rules"
)

// treeMove returns a copy equal to its text, which does not change when
// the memory of the text it was given is written again (a reader's block),
// whether the text was cached or not, over more texts than the cache holds.
func TestTreeMove(t *testing.T) {
	p := NewPreparer(Options{Replay: replay.Options{}})
	buf := make([]byte, 16)
	for round := 0; round < 2; round++ {
		for i := 0; i < 3000; i++ {
			want := fmt.Sprintf("P%d", i)
			if i%500 == 0 {
				want = fmt.Sprintf("+Rb7xb2=%d", i) // 8 bytes and more
			}
			n := copy(buf, want)
			got := p.treeMove(unsafe.String(&buf[0], n))
			for j := range buf {
				buf[j] = 'z'
			}
			if got != want {
				t.Fatalf("round %d: treeMove(%q) = %q", round, want, got)
			}
		}
	}
}

// TestTreeRowsAsPlayed checks that the opening-tree rows taken from the
// replay's steps (their keys and movers) are those of the main line
// played again from the start, as they were made before: on the samples
// of every ruleset (huffs, FEN starts, variations), the PDN corpus and
// generated games of every ruleset.
func TestTreeRowsAsPlayed(t *testing.T) {
	p := NewPreparer(Options{})
	games, huffs := 0, 0
	eachValid(t, func(file string, i int, g *replay.Game) {
		rows, line := p.treeRows(g)
		wantRows, wantLine := playedTreeRows(p, g)
		if !slices.Equal(rows, wantRows) || !slices.Equal(line, wantLine) {
			t.Errorf("%s record %d: tree rows %v, line %v; played again: %v, %v", file, i, rows, line, wantRows, wantLine)
		}
		games++
		for _, st := range g.Main {
			if st.Ply < TreeAggDepth && st.Info.KeepsTurn {
				huffs++
			}
		}
	})
	if games < 1000 || huffs == 0 {
		t.Errorf("%d valid games, %d with huffs among their tree moves: want many, some", games, huffs)
	}
}

// eachValid calls f with every valid game of every source and of
// earlyHuffs, replayed, and the source's file and the record's index.
func eachValid(t *testing.T, f func(file string, i int, g *replay.Game)) {
	for _, s := range append(everySource(t), earlyHuffs(t)) {
		for i, rec := range s.recs {
			if rec == nil {
				continue
			}
			if g := replay.Replay(rec, replay.Options{DefaultGame: "draughts"}); g.Err == nil {
				f(s.file, i, g)
			}
		}
	}
}

// playedTreeRows is treeRows as it was: the main line played again from a
// copy of the start.
func playedTreeRows(p *Preparer, g *replay.Game) ([]TreeMove, []rules.Move) {
	pos := g.Start.Clone()
	var rows []TreeMove
	var line []rules.Move
	for _, st := range g.Main {
		if st.Ply >= TreeAggDepth {
			break
		}
		if !st.Info.KeepsTurn {
			rows = append(rows, TreeMove{Key: pos.Key(), Move: p.treeMove(st.Text), Mover: int(pos.ToMove())})
		}
		if st.Ply < TreeDepth {
			line = append(line, st.Move)
		}
		pos.Play(st.Move)
	}
	return rows, line
}

// earlyHuffs are the games of the dames sample started from a FEN two
// plies before their first huff, so that the huff is among the tree's
// moves (no sample has one in its first plies).
func earlyHuffs(t *testing.T) readRecords {
	const file = "../../../samples/dames/dames.pdn"
	text, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, rec := range readAll(t, file, text).recs {
		g := replay.Replay(rec, replay.Options{})
		k := slices.IndexFunc(g.Main, func(st *replay.Step) bool { return st.Info.KeepsTurn })
		if g.Err != nil || k < 2 {
			continue
		}
		pos := g.Start.Clone()
		for _, st := range g.Main[:k-2] {
			pos.Play(st.Move)
		}
		fmt.Fprintf(&b, "[Game %q]\n[FEN %q]\n\n", g.Rules.ID(), pos.String())
		for _, st := range g.Main[k-2:] {
			b.WriteString(st.Text + " ")
		}
		b.WriteString("*\n\n")
	}
	return readAll(t, "early-huffs.pdn", []byte(b.String()))
}
