package dames_test

import (
	"testing"

	_ "github.com/plateau/plateau/rules/dames"
	"github.com/plateau/plateau/rules/rulestest"
)

// FuzzNotation: positions and moves of every draughts ruleset read without
// panic, fail with the rules' errors, and their canonical forms read back
// the same. Game picks the ruleset in the order of their ids.
func FuzzNotation(f *testing.F) {
	var seeds []rulestest.Seed
	for g := 0; g < 12; g++ {
		seeds = append(seeds,
			rulestest.Seed{Game: g, Move: "32-28"},
			rulestest.Seed{Game: g, Plies: 20, Seed: uint64(g), Move: "19x28"},
			rulestest.Seed{Game: g, Plies: 40, Seed: uint64(g) + 100, Move: "19x28x37"},
			rulestest.Seed{Game: g, Plies: 30, Seed: uint64(g) + 7, Move: "H27 32-28"},
		)
	}
	seeds = append(seeds,
		rulestest.Seed{FEN: "B:W31-50:B1-20", Move: "1- 6"},
		rulestest.Seed{FEN: "W:WK46,28:B19,17", Move: "46x21"},
		rulestest.Seed{FEN: "W:W:B", Move: "1-6"},
		rulestest.Seed{Game: 5, FEN: "B:W21-32:B1-12", Move: "9-13"},
	)
	rulestest.FuzzNotation(f, nil, seeds)
}
