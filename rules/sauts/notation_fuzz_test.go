package sauts_test

import (
	"testing"

	"github.com/plateau/plateau/rules/rulestest"
)

// FuzzNotation: the check every rules package runs (rulestest), here with
// random plies from the start or a given position before the move read.
func FuzzNotation(f *testing.F) {
	rulestest.FuzzNotation(f, []string{"sauts"}, []rulestest.Seed{
		{Move: "G2-E2"},
		{FEN: "8/b1b1b1b1/1b1b1b1b/8/8/w1w1w1w1/1w1w1w1w/8 w", Move: "G6-E4-C4-A2-A4"},
		{Plies: 30, Seed: 1, Move: "G6-A4"},
		{Plies: 63, Seed: 5, Move: "F1-E1"},
	})
}
