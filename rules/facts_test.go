package rules_test

import (
	"testing"

	"github.com/plateau/plateau/rules"
)

func TestCoordOf(t *testing.T) {
	for _, c := range []struct {
		sq   string
		want rules.Coord
	}{
		{"a1", rules.Coord{File: 1, Rank: 1}},
		{"e4", rules.Coord{File: 5, Rank: 4}},
		{"G6", rules.Coord{File: 7, Rank: 6}},
		{"j10", rules.Coord{File: 10, Rank: 10}},
		{"10j", rules.Coord{File: 10, Rank: 10}},
		{"", rules.Coord{}},
		{"32", rules.Coord{}},   // a dames square number
		{"iK", rules.Coord{}},   // letters only
		{"e4e", rules.Coord{}},  // three runs
		{"e0", rules.Coord{}},   // rank 0
		{"e-4", rules.Coord{}},  // not a square name
		{"a999", rules.Coord{}}, // too far
	} {
		if got := rules.CoordOf(c.sq); got != c.want {
			t.Errorf("CoordOf(%q) = %v, want %v", c.sq, got, c.want)
		}
	}
}

func TestDist(t *testing.T) {
	a, b := rules.Coord{File: 1, Rank: 1}, rules.Coord{File: 4, Rank: 2}
	if d := rules.Dist(a, b); d != 3 {
		t.Errorf("Dist = %d, want 3", d)
	}
	if d := rules.Dist(a, rules.Coord{}); d != 0 {
		t.Errorf("Dist to no place = %d, want 0", d)
	}
}
