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

// Positions with flying kings, where a king must land on a square from
// which its capture goes on: counts agreed by the naive generator of
// naive_test.go (nCrossPositions), kept as regression figures.
func TestPerftKings(t *testing.T) {
	tests := []struct {
		game, fen string
		want      []uint64
	}{
		{"russian", "W:WK29:B22,23", []uint64{1, 2, 0}},
		{"pool", "W:WK29:B22,23", []uint64{1, 2, 0}},
		{"czech", "W:WK29:B22,23", []uint64{1, 2, 0}},
		{"russian", "W:W9:B6,7,19", []uint64{1, 3, 0}},
		{"russian", "B:WK14,17,K20,29,K32:BK2,12,15,16,18,23,24,K25,26,27", []uint64{1, 1, 3, 48, 176}},
		{"pool", "B:WK14,17,K20,29,K32:BK2,12,15,16,18,23,24,K25,26,27", []uint64{1, 1, 3, 48, 176}},
		{"czech", "B:WK14,17,K20,29,K32:BK2,12,15,16,18,23,24,K25,26,27", []uint64{1, 15, 29, 150, 754}},
		{"pool", "W:WK14,22,23,K30:B6,7,10,K17,18,K26", []uint64{1, 4, 19, 55, 262}},
		{"czech", "W:WK14,22,23,K30:B6,7,10,K17,18,K26", []uint64{1, 1, 5, 7, 11}},
		{"russian", "W:W9,14,22,K30:B2,3,6,7,10,18,K26", []uint64{1, 7, 24, 97, 251}},
		{"dames", "W:WK6,8,9,10,K21,K24,30,K34,45,K50:B2,4,17,27,29,38,41,42", []uint64{1, 12, 59, 450, 1182}},
		{"dames", "W:WK46,K3:B7,8,9,12,13,18,19,23,24,28,29,33,34,39,40", []uint64{1, 3, 12, 64, 363}},
		{"dames", "B:W17,18,19,22,27,28,32,33,37,38:BK5,K46,12", []uint64{1, 3, 12, 37, 230}},
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
