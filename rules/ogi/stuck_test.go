package ogi

import (
	"math/rand"
	"testing"

	"github.com/plateau/plateau/rules"
)

// TestOverWhenStuck: ParseMove accepts a move exactly in positions that are
// not over (rules.OverWhenStuck), along random games that end with a King
// captured, and in a position without moves.
func TestOverWhenStuck(t *testing.T) {
	// check parses the text of every pseudo-legal move of p (and of a drop
	// and a board move that may not exist): one must be accepted when p is
	// not over, none when it is.
	check := func(p *Position) {
		t.Helper()
		over := p.Outcome().Over
		texts := []string{"N*e5", "Ka1-b2", "P-a3"}
		for _, m := range p.pseudo(nil) {
			texts = append(texts, p.FormatMove(m))
		}
		accepted := 0
		for _, s := range texts {
			if _, err := p.ParseMove(s); err == nil {
				accepted++
				if over {
					t.Fatalf("%s is over (%+v) but ParseMove accepts %q", p, p.Outcome(), s)
				}
			}
		}
		if !over && accepted == 0 {
			t.Fatalf("%s is not over but ParseMove accepts no move", p)
		}
	}
	r := rand.New(rand.NewSource(5))
	kings := 0
	for g := 0; g < 30; g++ {
		p := mustParse(t, "")
		randomPlayout(p, r, 300, func(rules.Move) { check(p) })
		check(p)
		if p.kingCaptured() {
			kings++
		}
	}
	if kings == 0 {
		t.Fatal("no random game ended with a King captured")
	}
	stuck := setup(t, "Kh8 ka1 +pb1 +pc1 +pd1 +pe1 +pf1 +pg1 +ph1 pa2 pb2 pc2 pd2 pe2 pf2 pg2 ph2", "w", "P")
	if !stuck.Outcome().Over {
		t.Fatal("walled-in Gote: not over")
	}
	check(stuck)
}
