package jetan_test

import (
	"testing"

	_ "github.com/plateau/plateau/rules/jetan"
	"github.com/plateau/plateau/rules/rulestest"
)

// FuzzNotation: Jetan positions and moves read without panic, fail with the
// rules' errors, and their canonical forms read back the same.
func FuzzNotation(f *testing.F) {
	rulestest.FuzzNotation(f, []string{"jetan"}, []rulestest.Seed{
		{Move: "e2-e3"},
		{FEN: "wadfpcfdaw/tnnnnnnnnt/10/10/10/10/10/10/TNNNNNNNNT/WADFCPFDAW b Ee 0", Move: "e2xe5"},
		{Plies: 30, Seed: 1, Move: "f1-f4"},
		{Plies: 63, Seed: 2, Move: "a1-a2"},
		{FEN: "10/10/10/10/4p5/10/10/10/10/4P5 o - 9", Move: "e6-e9"},
		{FEN: "10/10/10/10/10/10/10/10/10/10 b - 0", Move: "j10-a1"},
	})
}
