package players

import (
	"cmp"
	"slices"
	"strings"

	"github.com/plateau/plateau/index/internal/openings"
)

// NamedTally is how often a player's games of a ruleset on a side reached
// a named opening (internal/openings: the game's deepest named position),
// and how they went.
type NamedTally struct {
	Game string `json:"game"`
	Side int    `json:"side"`
	Name string `json:"name"`
	// ECO is the ECO-style code Name begins with (openings.SplitCode), ""
	// when it has none; Name keeps it.
	ECO string `json:"eco,omitempty"`
	Tally
}

// namedOpenings counts the games with an opening name by ruleset, side
// and name, and keeps the MaxOpenings most played of each ruleset and
// side: by ruleset and side, then most played first (then by score and
// name, so that the page is stable).
func namedOpenings(games []ProfileGame) []NamedTally {
	var c NamedCounter
	for _, g := range games {
		c.Add(g)
	}
	return c.Top()
}

// NamedCounter counts games by ruleset, side and opening name (their
// Game, Side and Named; a game without a name is not counted), each
// game's result seen from its Side.
type NamedCounter struct{ m map[[3]string]*NamedTally }

// Add counts g.
func (c *NamedCounter) Add(g ProfileGame) {
	if g.Named == "" {
		return
	}
	if c.m == nil {
		c.m = map[[3]string]*NamedTally{}
	}
	k := [3]string{g.Game, string(rune('0' + g.Side)), g.Named}
	if c.m[k] == nil {
		code, _ := openings.SplitCode(g.Named)
		c.m[k] = &NamedTally{Game: g.Game, Side: g.Side, Name: g.Named, ECO: code}
	}
	c.m[k].add(g)
}

// Top is the MaxOpenings most played names of each ruleset and side, by
// ruleset and side, then most played first (then by score and name).
func (c *NamedCounter) Top() []NamedTally {
	out := []NamedTally{}
	for _, t := range c.m {
		out = append(out, *t)
	}
	slices.SortFunc(out, func(a, b NamedTally) int {
		return cmp.Or(strings.Compare(a.Game, b.Game), a.Side-b.Side, b.Games-a.Games,
			cmp.Compare(b.Score, a.Score), strings.Compare(a.Name, b.Name))
	})
	return keepTop(out, func(t NamedTally) (string, int) { return t.Game, t.Side })
}
