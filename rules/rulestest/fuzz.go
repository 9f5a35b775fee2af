// Package rulestest holds the fuzz check that every rules package runs on
// its notations: reading a position or a move never panics, fails only with
// the rules package's error kinds, and whatever reads is written in a
// canonical form that reads back to the same thing.
package rulestest

import (
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/plateau/plateau/rules"
)

// Seed is a fuzz input: a position in the game's notation ("" for the
// start), a number of random plies to play from it first (chosen by Seed),
// and a move text to read in the position reached.
type Seed struct {
	Game  int
	FEN   string
	Plies uint8
	Seed  uint64
	Move  string
}

// FuzzNotation runs the notation check for the rulesets ids (which the
// fuzzed Game number picks from); nil means every registered ruleset (in a
// rules package's external test, those of that package).
func FuzzNotation(f *testing.F, ids []string, seeds []Seed) {
	if ids == nil {
		seen := map[string]bool{}
		for _, g := range rules.Games() {
			if !seen[g.ID()] {
				seen[g.ID()] = true
				ids = append(ids, g.ID())
			}
		}
	}
	var games []rules.Game
	for _, id := range ids {
		g, err := rules.Lookup(id)
		if err != nil {
			f.Fatal(err)
		}
		games = append(games, g)
	}
	for _, s := range seeds {
		f.Add(s.Game, s.FEN, s.Plies, s.Seed, s.Move)
	}
	f.Fuzz(func(t *testing.T, which int, fen string, plies uint8, seed uint64, text string) {
		g := games[uint(which)%uint(len(games))]
		p, err := g.NewPosition(fen)
		if err != nil {
			if !errors.Is(err, rules.ErrPosition) {
				t.Fatalf("%s: position %q: error %v does not wrap ErrPosition", g.ID(), fen, err)
			}
			return
		}
		checkPosition(t, g, p, fen)
		rng := rand.New(rand.NewPCG(seed, uint64(plies)))
		var buf []rules.Move
		for i := 0; i < int(plies%64); i++ {
			if p.Outcome().Over {
				break
			}
			buf = p.Legal(buf[:0])
			if len(buf) == 0 {
				break
			}
			m := buf[rng.IntN(len(buf))]
			checkMove(t, g, p, p.FormatMove(m), m)
			p.Play(m)
		}
		checkPosition(t, g, p, fen)
		m, err := p.ParseMove(text)
		if err != nil {
			var me *rules.MoveError
			if !errors.As(err, &me) || !errors.Is(err, rules.ErrMove) {
				t.Fatalf("%s: %s: move %q: error %v is not a *rules.MoveError", g.ID(), p, text, err)
			}
			return
		}
		canon := p.FormatMove(m)
		checkMove(t, g, p, canon, m)
		p.Describe(m)
		p.Play(m)
		checkPosition(t, g, p, fen)
	})
}

// checkMove: the canonical text of m reads back as m.
func checkMove(t *testing.T, g rules.Game, p rules.Position, canon string, m rules.Move) {
	t.Helper()
	back, err := p.ParseMove(canon)
	if err != nil || back != m {
		t.Fatalf("%s: %s: canonical move %q reads back as %v (want %v), %v", g.ID(), p, canon, back, m, err)
	}
	if again := p.FormatMove(back); again != canon {
		t.Fatalf("%s: %s: move written %q then %q", g.ID(), p, canon, again)
	}
}

// checkPosition: the position's notation reads back as the same position.
func checkPosition(t *testing.T, g rules.Game, p rules.Position, from string) {
	t.Helper()
	s := p.String()
	q, err := g.NewPosition(s)
	if err != nil {
		t.Fatalf("%s: position %q (from %q) does not read back: %v", g.ID(), s, from, err)
	}
	if q.String() != s || q.Key() != p.Key() || q.ToMove() != p.ToMove() {
		t.Fatalf("%s: position %q (from %q) reads back as %q (keys %x %x)", g.ID(), s, from, q.String(), p.Key(), q.Key())
	}
	p.Board()
	p.Diagram()
	p.Outcome()
}
