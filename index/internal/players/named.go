package players

import (
	"cmp"
	"slices"
	"strings"
)

// NamedTally is how often a player's games of a ruleset on a side reached
// a named opening (internal/openings: the game's deepest named position),
// and how they went.
type NamedTally struct {
	Game string `json:"game"`
	Side int    `json:"side"`
	Name string `json:"name"`
	Tally
}

// namedOpenings counts the games with an opening name by ruleset, side
// and name, and keeps the MaxOpenings most played of each ruleset and
// side: by ruleset and side, then most played first (then by score and
// name, so that the page is stable).
func namedOpenings(games []ProfileGame) []NamedTally {
	m := map[[3]string]*NamedTally{}
	for _, g := range games {
		if g.Named == "" {
			continue
		}
		k := [3]string{g.Game, string(rune('0' + g.Side)), g.Named}
		if m[k] == nil {
			m[k] = &NamedTally{Game: g.Game, Side: g.Side, Name: g.Named}
		}
		m[k].add(g)
	}
	out := []NamedTally{}
	for _, t := range m {
		out = append(out, *t)
	}
	slices.SortFunc(out, func(a, b NamedTally) int {
		return cmp.Or(strings.Compare(a.Game, b.Game), a.Side-b.Side, b.Games-a.Games,
			cmp.Compare(b.Score, a.Score), strings.Compare(a.Name, b.Name))
	})
	return keepTop(out, func(t NamedTally) (string, int) { return t.Game, t.Side })
}
