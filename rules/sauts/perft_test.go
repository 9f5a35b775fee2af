package sauts_test

import (
	"os"
	"sort"
	"testing"

	"github.com/plateau/plateau/internal/longtest"
	"github.com/plateau/plateau/rules"
	"github.com/plateau/plateau/rules/sauts"
)

func mustPos(t testing.TB, fen string) *sauts.Position {
	t.Helper()
	p, err := sauts.NewPosition(fen)
	if err != nil {
		t.Fatalf("NewPosition(%q): %v", fen, err)
	}
	return p
}

// moveTexts formats Legal as sorted "from-to" texts (Describe's squares).
func moveTexts(p rules.Position) []string {
	var out []string
	for _, m := range p.Legal(nil) {
		d := p.Describe(m)
		out = append(out, d.From+"-"+d.To)
	}
	sort.Strings(out)
	return out
}

func TestPerftStart(t *testing.T) {
	// Depths 1–4 are cross-checked by the naive generator (TestPerftAgainstNaive);
	// depth 5 (PLATEAU_DEEP=1, about 25 s) also by TestPerftDeepNaive.
	want := []uint64{1, 46, 2116, 103360, 5044272, 251493972}
	depth := 4
	if os.Getenv("PLATEAU_DEEP") != "" {
		depth = len(want) - 1
	}
	p := mustPos(t, "")
	for d := 0; d <= depth; d++ {
		if got := rules.Perft(p, d); got != want[d] {
			t.Errorf("perft(%d) = %d, want %d", d, got, want[d])
		}
	}
}

var trickyFENs = []string{
	"", // start
	// Figure 3: G6-E4-C4-A2-A4 wins.
	"2w5/2w4b/8/3w4/8/4w3/5w2/8 w",
	// A crowd of pawns in the middle: long chains crossing the middle line.
	"8/1b1b1b2/2b1b3/1w1w1w2/2w1w1w1/1w1w4/8/8 w",
	// Black to move with pawns next to White's goals.
	"w7/8/8/8/2b1b3/1b1b1b2/2b1b1b1/8 b",
	// Pawns around the goals, both sides.
	"8/2wbw3/3w4/8/8/3b4/2bwb3/8 w",
	"1bb5/1bb5/8/8/8/8/1ww5/1ww5 w",
}

// TestPerftDeepNaive (PLATEAU_DEEP=1, a few minutes) checks depth 5 from the
// start with the naive generator too.
func TestPerftDeepNaive(t *testing.T) {
	if os.Getenv("PLATEAU_DEEP") == "" {
		t.Skip("set PLATEAU_DEEP=1 to run")
	}
	if got := naiveFromFEN(t, sauts.StartFEN).perft(5); got != 251493972 {
		t.Errorf("naive perft(5) = %d, want 251493972", got)
	}
}

func TestPerftAgainstNaive(t *testing.T) {
	longtest.Skip(t)
	depths := []int{4, 3, 3, 3, 4, 4}
	for i, fen := range trickyFENs {
		p := mustPos(t, fen)
		n := naiveFromFEN(t, p.String())
		for d := 1; d <= depths[i]; d++ {
			got, want := rules.Perft(p, d), n.perft(d)
			if got != want {
				t.Errorf("%q perft(%d) = %d, naive %d", fen, d, got, want)
			}
		}
	}
}

// TestMovesAgainstNaive compares move lists node by node along seeded random
// games, so a disagreement names the position.
func TestMovesAgainstNaive(t *testing.T) {
	for seed := uint64(1); seed <= 40; seed++ {
		for _, fen := range trickyFENs {
			p := mustPos(t, fen)
			rng := seed
			for ply := 0; ply < 120; ply++ {
				got := moveTexts(p)
				want := naiveFromFEN(t, p.String()).moves()
				if !equal(got, want) {
					t.Fatalf("%s: Legal %v\nnaive %v", p, got, want)
				}
				ms := p.Legal(nil)
				if (len(ms) == 0) != p.Outcome().Over {
					t.Fatalf("%s: %d moves, outcome %+v", p, len(ms), p.Outcome())
				}
				if len(ms) == 0 {
					break
				}
				rng = rng*6364136223846793005 + 1442695040888963407
				p.Play(ms[int(rng>>33)%len(ms)])
			}
		}
	}
}

func equal(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
