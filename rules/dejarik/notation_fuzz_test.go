package dejarik_test

import (
	"testing"

	_ "github.com/plateau/plateau/rules/dejarik"
	"github.com/plateau/plateau/rules/rulestest"
)

// FuzzNotation: Dejarik positions and moves read without panic, fail with
// the rules' errors, and their canonical forms read back the same.
func FuzzNotation(f *testing.F) {
	rulestest.FuzzNotation(f, []string{"dejarik"}, []rulestest.Seed{
		{Move: "o1-i1"},
		{FEN: "W:Wo1,o2,o3,o4:Bo7,o8,o9,o10", Move: "o4-c"},
		{Plies: 20, Seed: 1, Move: "c-o9"},
		{Plies: 40, Seed: 2, Move: "o2-i3"},
		{FEN: "B:Wc:Bi3", Move: "i3-o3"},
		{FEN: "W:W:B", Move: "c-c"},
	})
}
