package jetan

import (
	"math/rand/v2"
	"os"
	"reflect"
	"sort"
	"testing"

	"github.com/plateau/plateau/rules"
)

func mustParse(t testing.TB, fen string) *Position {
	t.Helper()
	p, err := Parse(fen)
	if err != nil {
		t.Fatalf("Parse(%q): %v", fen, err)
	}
	return p
}

func legalTexts(p *Position) []string {
	var out []string
	for _, m := range p.Legal(nil) {
		out = append(out, p.FormatMove(m))
	}
	sort.Strings(out)
	return out
}

// trickyFENs are positions for the perft cross-check: escapes, threats,
// jumping Fliers, blocked paths, edges, the equal-forces counter.
var trickyFENs = []string{
	// Princesses in the open with both escapes, Fliers among pieces.
	"4p5/2n1n5/3f2c3/2W7/10/4F5/1d2N5/10/3NPN4/4C5 b Ee 0",
	// Orange to move, Black escape spent, Thoats and Warriors on the edges.
	"t8c/p9/10/3D6/10/10/6a3/A8w/T2N6/C5P3 o e 0",
	// Equal forces (C+P+W vs C+P+A), eight plies already counted.
	"10/4c5/10/2a7/4p5/10/5W4/10/2P7/7C2 b - 8",
	// Crowded centre: Dwars and Chiefs with few open paths.
	"10/10/3nnn4/3ncd4/3nfn4/4NF4/3DCN4/3NNN4/10/4P4p b Ee 0",
}

func TestPerftStart(t *testing.T) {
	want := []uint64{1, 78, 6066, 446808}
	if os.Getenv("PLATEAU_DEEP") != "" {
		want = append(want, 32525589)
	}
	p := mustParse(t, "")
	for d, w := range want {
		if got := rules.Perft(p, d); got != w {
			t.Errorf("perft(%d) = %d, want %d", d, got, w)
		}
	}
}

// trickyPerft are the perft counts of trickyFENs at depths 1–3 (they
// agreed with the naive generator at depth 3 when written; PLATEAU_DEEP=1
// checks depth 3 again, plain runs check depth 2 to stay fast).
var trickyPerft = [][]uint64{
	{81, 9809, 806853},
	{90, 5206, 375219},
	{55, 3837, 87},
	{102, 8818, 776510},
}

func TestPerftTricky(t *testing.T) {
	naiveDepth := 2
	if os.Getenv("PLATEAU_DEEP") != "" {
		naiveDepth = 3
	}
	for i, fen := range trickyFENs {
		p := mustParse(t, fen)
		n := naiveFromFEN(fen)
		for d, want := range trickyPerft[i] {
			if got := rules.Perft(p, d+1); got != want {
				t.Errorf("%s: perft(%d) = %d, want %d", fen, d+1, got, want)
			}
			if d+1 <= naiveDepth {
				if got := n.perft(d + 1); got != want {
					t.Errorf("%s: naive perft(%d) = %d, want %d", fen, d+1, got, want)
				}
			}
		}
	}
}

// TestPerftNaiveStart3 checks the start's depth-3 count with the naive
// generator (a few seconds).
func TestPerftNaiveStart3(t *testing.T) {
	n := naiveFromFEN(StartFEN)
	if got := n.perft(3); got != 446808 {
		t.Errorf("naive perft(3) from the start = %d, want 446808", got)
	}
}

// TestMoveSetsNaive compares, at every node of random games biased toward
// captures, the legal moves and the position after each played move.
func TestMoveSetsNaive(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 10))
	starts := append([]string{StartFEN}, trickyFENs...)
	nodes := 0
	for game := range 100 {
		fen := starts[game%len(starts)]
		p := mustParse(t, fen)
		n := naiveFromFEN(fen)
		for ply := 0; ply < 300; ply++ {
			got, want := legalTexts(p), n.moves()
			nodes++
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("game %d ply %d %s:\n got %v\nwant %v", game, ply, p, got, want)
			}
			if len(got) == 0 {
				break
			}
			moves := p.Legal(nil)
			m := moves[rng.IntN(len(moves))]
			for _, c := range moves {
				if c&moveCapture != 0 && rng.IntN(4) == 0 {
					m = c
					break
				}
			}
			text := p.FormatMove(m)
			p.Play(m)
			n = n.play(text)
			if fen := p.String(); len(fen) > 0 && p.Outcome().Over != n.over {
				t.Fatalf("game %d ply %d after %s: over %v, naive %v", game, ply, text, p.Outcome().Over, n.over)
			}
			if p.end == endNone && p.String() != n.fen() {
				t.Fatalf("game %d ply %d after %s: %s, naive %s", game, ply, text, p, n.fen())
			}
			if p.Key() != p.computeKey() {
				t.Fatalf("game %d ply %d after %s: incremental key differs", game, ply, text)
			}
		}
	}
	t.Logf("%d nodes compared", nodes)
}
