package dames_test

import (
	"testing"

	"github.com/plateau/plateau/rules"
	_ "github.com/plateau/plateau/rules/dames"
)

func mustPos(t testing.TB, game, fen string) rules.Position {
	t.Helper()
	g, err := rules.Lookup(game)
	if err != nil {
		t.Fatal(err)
	}
	p, err := g.NewPosition(fen)
	if err != nil {
		t.Fatalf("%s %q: %v", game, fen, err)
	}
	return p
}

// Published FMJD perft figures for international draughts from the start.
func TestPerftDraughts(t *testing.T) {
	want := []uint64{1, 9, 81, 658, 4265, 27117, 167140, 1049442}
	max := 7
	p := mustPos(t, "draughts", "")
	for d := 1; d <= max; d++ {
		if got := rules.Perft(p, d); got != want[d] {
			t.Errorf("perft(%d) = %d, want %d", d, got, want[d])
		}
	}
}

// Counts of the other rulesets, agreed by the naive generator of
// naive_test.go up to the depths it checks (dames and dames-brigand depth 5,
// loup-moutons depth 9), kept here as regression figures.
func TestPerftOthers(t *testing.T) {
	tests := []struct {
		game, fen string
		want      []uint64
	}{
		{"dames", "", []uint64{1, 9, 81, 658, 4265, 27132, 168316}},
		{"dames-brigand", "", []uint64{1, 9, 81, 658, 4265, 27132, 168316}},
		{"loup-moutons", "", []uint64{1, 2, 14, 42, 258, 774, 4698, 15591, 94262, 305322}},
		{"loup-moutons", "B:W46,47,48,49:B3", []uint64{1, 2, 14, 56, 352, 1056, 6672, 26688}},
	}
	for _, tc := range tests {
		p := mustPos(t, tc.game, tc.fen)
		for d := 1; d < len(tc.want); d++ {
			if got := rules.Perft(p, d); got != tc.want[d] {
				t.Errorf("%s %q perft(%d) = %d, want %d", tc.game, tc.fen, d, got, tc.want[d])
			}
		}
	}
}
