package dejarik_test

import (
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/plateau/plateau/rules"
	"github.com/plateau/plateau/rules/dejarik"
)

func mustPos(t testing.TB, fen string) rules.Position {
	t.Helper()
	p, err := dejarik.Game.NewPosition(fen)
	if err != nil {
		t.Fatalf("NewPosition(%q): %v", fen, err)
	}
	return p
}

// perftPositions: the start and a few positions full of diagonal exits,
// augmentations and captures.
var perftPositions = []struct {
	name, fen string
	counts    []uint64 // depth 1, 2, …
}{
	{"start", "", []uint64{8, 48, 640, 7936, 86040, 847436}},
	{"open middle game", "W:Wc,o1,o3,o5:Bi8,i6,o9,o10:F-", []uint64{18, 144, 2086, 13869, 161279}},
	{"augmentations", "W:Wo2,o3,o5,o7:Bi10,o11,o12,c:F-", []uint64{18, 205, 2804, 27844, 276775}},
	{"captures", "W:Wo2,o4,o6,o12:Bi1,i5,i7,o8:F-", []uint64{14, 91, 971, 6393, 62047}},
	{"Black first turn, centre taken", "B:Wi2,o3,o5,o6:Bo11,o9,c,o1:FB", []uint64{8, 108, 1759, 16855, 201785}},
}

func TestPerft(t *testing.T) {
	for _, tc := range perftPositions {
		t.Run(tc.name, func(t *testing.T) {
			p := mustPos(t, tc.fen)
			for d, want := range tc.counts {
				if got := rules.Perft(p, d+1); got != want {
					t.Errorf("perft(%d) = %d, want %d", d+1, got, want)
				}
			}
		})
	}
}

// TestPerftNaive cross-checks the package against the naive generator of
// naive_test.go, to depth 5 (PLATEAU_DEEP=1: depth 6).
func TestPerftNaive(t *testing.T) {
	depth := 5
	if os.Getenv("PLATEAU_DEEP") != "" {
		depth = 6
	}
	for _, tc := range perftPositions {
		t.Run(tc.name, func(t *testing.T) {
			fen := tc.fen
			if fen == "" {
				fen = dejarik.StartFEN
			}
			p := mustPos(t, fen)
			n := naiveFromFEN(p.String())
			for d := 1; d <= depth; d++ {
				if d > 4 && tc.name != "start" && depth == 5 {
					break // depth 4 for the others keeps the test quick
				}
				got, want := rules.Perft(p, d), n.perft(d)
				if got != want {
					t.Errorf("perft(%d) = %d, naive %d", d, got, want)
				}
			}
		})
	}
}

// TestMovesNaive compares, node by node to depth 3, each move's text, final
// cell, captures and the position after it with the naive generator.
func TestMovesNaive(t *testing.T) {
	for _, tc := range perftPositions {
		t.Run(tc.name, func(t *testing.T) {
			fen := tc.fen
			if fen == "" {
				fen = dejarik.StartFEN
			}
			p := mustPos(t, fen)
			compareTree(t, p, naiveFromFEN(p.String()), 3)
		})
	}
}

func compareTree(t *testing.T, p rules.Position, n *naive, depth int) {
	t.Helper()
	o := p.Outcome()
	if got, want := o.Result, n.result(); got != want {
		t.Fatalf("%s: outcome %q, naive %q", p.String(), got, want)
	}
	if p.String() != n.String() {
		t.Fatalf("position %s, naive %s", p.String(), n.String())
	}
	if depth == 0 || o.Over {
		return
	}
	var got, want []string
	children := map[string]rules.Move{}
	for _, m := range p.Legal(nil) {
		info := p.Describe(m)
		c := p.Clone()
		c.Play(m)
		got = append(got, fmt.Sprintf("%s>%s x%d %s", p.FormatMove(m), info.To, info.Captures, c.String()))
		children[p.FormatMove(m)] = m
	}
	nm := n.moves()
	for _, m := range nm {
		after := n.play(m)
		want = append(want, fmt.Sprintf("%s>%s x%d %s", m.text, m.final, len(m.taken), after.String()))
	}
	sort.Strings(got)
	sort.Strings(want)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("%s:\nmoves\n%s\nnaive\n%s", p.String(), strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	for _, m := range nm {
		c := p.Clone()
		c.Play(children[m.text])
		compareTree(t, c, n.play(m), depth-1)
	}
}

// TestKeys: over a perft tree, equal keys exactly for equal positions, the
// incremental key equals the key of the re-read position, and String
// round-trips.
func TestKeys(t *testing.T) {
	seen := map[uint64]string{}
	var walk func(p rules.Position, d int)
	walk = func(p rules.Position, d int) {
		s := p.String()
		if old, ok := seen[p.Key()]; ok && old != s {
			t.Fatalf("key collision: %s and %s", old, s)
		}
		seen[p.Key()] = s
		q := mustPos(t, s)
		if q.Key() != p.Key() || q.String() != s {
			t.Fatalf("%s: re-read as %s, key %x vs %x", s, q.String(), q.Key(), p.Key())
		}
		if d == 0 {
			return
		}
		for _, m := range p.Legal(nil) {
			c := p.Clone()
			c.Play(m)
			walk(c, d-1)
		}
	}
	for _, tc := range perftPositions {
		walk(mustPos(t, tc.fen), 4)
	}
	if len(seen) < 1000 {
		t.Fatalf("only %d positions seen", len(seen))
	}
}
