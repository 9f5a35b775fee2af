package dames_test

import (
	"errors"
	"math/rand"
	"slices"
	"strings"
	"testing"

	"github.com/plateau/plateau/rules"
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

// FuzzShortNotation: in the algebraic rulesets, any text read as a move in
// a position reached by random plies is a legal move, and a text in short
// notation (a file, then squares) names the move's origin file and its
// destination; a legal move written short reads back as itself or as an
// Ambiguous error that lists it.
func FuzzShortNotation(f *testing.F) {
	for _, s := range []struct {
		game  uint8
		plies uint8
		seed  uint64
		text  string
	}{
		{0, 0, 1, "cd4"}, {0, 9, 2, "b:d4"}, {0, 30, 3, "e:c5:a3"}, {1, 12, 4, "gf4"},
		{2, 20, 5, "cxe5"}, {0, 0, 6, "c3-d4"}, {0, 0, 7, "cd"}, {0, 40, 8, "h:e1:a5"},
	} {
		f.Add(s.game, s.plies, s.seed, s.text)
	}
	games := []string{"russian", "brazilian", "czech"}
	f.Fuzz(func(t *testing.T, which, plies uint8, seed uint64, text string) {
		game := games[int(which)%len(games)]
		p := mustPos(t, game, "")
		rng := rand.New(rand.NewSource(int64(seed)))
		for i := 0; i < int(plies%80) && !p.Outcome().Over; i++ {
			moves := p.Legal(nil)
			p.Play(moves[rng.Intn(len(moves))])
		}
		if p.Outcome().Over {
			return
		}
		moves := p.Legal(nil)
		checkShort(t, game, p, moves[rng.Intn(len(moves))])
		m, err := p.ParseMove(text)
		if err != nil {
			var me *rules.MoveError
			if !errors.As(err, &me) {
				t.Fatalf("%s %s %q: %v is not a move error", game, p, text, err)
			}
			return
		}
		if !slices.Contains(moves, m) {
			t.Fatalf("%s %s %q: read as %s, not a legal move", game, p, text, p.FormatMove(m))
		}
		t2 := strings.TrimSpace(text)
		if len(t2) < 3 || t2[0] < 'a' || t2[0] > 'h' || (t2[1] >= '0' && t2[1] <= '9') {
			return
		}
		long := p.FormatMove(m)
		if long[0] != t2[0] || long[len(long)-2:] != t2[len(t2)-2:] {
			t.Fatalf("%s %s: short %q read as %s", game, p, text, long)
		}
	})
}
