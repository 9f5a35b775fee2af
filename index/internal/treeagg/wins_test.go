package treeagg

import "testing"

// TestWins: the side with more points won; as many points is a draw,
// whatever the points (a 0-0 Dejarik series is a draw, as 1-1).
func TestWins(t *testing.T) {
	for _, c := range []struct {
		result string
		s0, s1 float64
		want   [2]int
	}{
		{"1-0", 1, 0, [2]int{1, 0}},
		{"0-1", 0, 1, [2]int{0, 1}},
		{"1/2-1/2", 0.5, 0.5, [2]int{}},
		{"2-0 (draughts)", 2, 0, [2]int{1, 0}},
		{"1-1 (draughts, Dejarik repetition)", 1, 1, [2]int{}},
		{"0-2", 0, 2, [2]int{0, 1}},
		{"3-0 (Dejarik)", 3, 0, [2]int{1, 0}},
		{"1-0 (Dejarik, a pawn down)", 1, 0, [2]int{1, 0}},
		{"0-0 (Dejarik, blocked)", 0, 0, [2]int{}},
	} {
		if got := Wins(c.s0, c.s1); got != c.want {
			t.Errorf("%s: wins %v, want %v", c.result, got, c.want)
		}
	}
}
