package ogi_test

import (
	"testing"

	_ "github.com/plateau/plateau/rules/ogi"
	"github.com/plateau/plateau/rules/rulestest"
)

// FuzzNotation: Ōgi positions and moves read without panic, fail with the
// rules' errors, and their canonical forms read back the same.
func FuzzNotation(f *testing.F) {
	start := "lnsiksnl/1r4b1/pppppppp/8/8/PPPPPPPP/1B4R1/LNSIKSNL b - 1"
	rulestest.FuzzNotation(f, []string{"ogi"}, []rulestest.Seed{
		{FEN: "", Move: "P-e4"},
		{FEN: start, Move: "Pe3-e4"},
		{FEN: "", Plies: 30, Seed: 1, Move: "Bxg7+"},
		{FEN: "", Plies: 40, Seed: 2, Move: "S*d4"},
		{FEN: "4k3/8/8/8/8/8/8/4K3 b S2Pb+r 1", Move: "+P*c5"},
		{FEN: "4k3/8/8/8/8/8/8/4K3 b S2Pb+r 1", Move: "S*d4"},
		{FEN: "", Plies: 60, Seed: 3, Move: "Kxd5+"},
		{FEN: "", Move: "Bb2xg7="},
		{FEN: "8/8/8/8/8/8/8/8 b - 1", Move: "K-e1"},
		{FEN: "lnsiksnl/1r4b1/pppppppp/8/8/PPPPPPPP/1B4R1/LNSIKSNL w 99P 1", Move: "P*e5"},
	})
}
