package dames_test

import (
	"testing"

	"github.com/plateau/plateau/rules"
	_ "github.com/plateau/plateau/rules/dames"
)

// TestLayoutKings: a ruleset's layout names kings exactly when its men can
// crown: loup-moutons's (8×8 and 10×10) has none, so the pieces a page
// offers for it hold no king.
func TestLayoutKings(t *testing.T) {
	for _, tc := range []struct {
		game, fen string
		kings     bool
	}{
		{"loup-moutons", "", false},
		{"loup-moutons", "B:W46-50:B5", false},
		{"dames", "", true},
		{"dames-brigand", "", true},
		{"checkers", "", true},
		{"draughts", "", true},
	} {
		g, err := rules.Lookup(tc.game)
		if err != nil {
			t.Fatal(err)
		}
		pos, err := g.NewPosition(tc.fen)
		if err != nil {
			t.Fatalf("%s %q: %v", tc.game, tc.fen, err)
		}
		kings := false
		for _, pc := range pos.(rules.Cells).Layout().Codes {
			kings = kings || pc.Promoted
		}
		if kings != tc.kings {
			t.Errorf("%s %q: the layout has kings: %v, want %v", tc.game, tc.fen, kings, tc.kings)
		}
	}
}
