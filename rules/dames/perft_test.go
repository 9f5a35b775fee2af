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
