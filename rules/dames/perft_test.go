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

// Published perft figures from the start: English checkers (Aart Bik,
// talkchess "perft for 8x8 checkers", depths 1–8) and Brazilian (Rein
// Halbersma, "Perft for all recognized draughts variants", depths 1–7).
// The other 8×8 families are checked against the naive generator of
// naive_test.go (depth 6) and kept here as regression figures to depth 7.
func TestPerftFamilies(t *testing.T) {
	tests := []struct {
		game string
		want []uint64
	}{
		{"checkers", []uint64{1, 7, 49, 302, 1469, 7361, 36768, 179740}},
		{"brazilian", []uint64{1, 7, 49, 302, 1469, 7473, 37628, 187302}},
		{"italian", []uint64{1, 7, 49, 302, 1469, 7361, 36473, 177532}},
		{"pool", []uint64{1, 7, 49, 302, 1469, 7482, 37986, 190146}},
		{"russian", []uint64{1, 7, 49, 302, 1469, 7482, 37986, 190146}},
		{"czech", []uint64{1, 7, 49, 302, 1469, 7361, 36768, 179740}},
	}
	for _, tc := range tests {
		p := mustPos(t, tc.game, "")
		for d := 1; d < len(tc.want); d++ {
			if got := rules.Perft(p, d); got != tc.want[d] {
				t.Errorf("%s perft(%d) = %d, want %d", tc.game, d, got, tc.want[d])
			}
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
