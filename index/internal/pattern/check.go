package pattern

import (
	"slices"
	"strings"

	"github.com/plateau/plateau/rules"
)

// Check refuses a pattern that names a piece or a square that none of
// layouts (the boards the ruleset g can be played on) has, naming it and
// what the game has; square names are matched without regard to case and
// rewritten in p as the game writes them. A hand term in a game without
// hands stays a count (of zero). Without layouts (positions that do not
// expose their cells) nothing is checked. Its errors are *Error.
func Check(p *Pattern, g rules.Game, layouts []*rules.Layout) error {
	if len(layouts) == 0 {
		return nil
	}
	var kinds []byte
	squares := map[string]string{}
	var names []string
	for _, l := range layouts {
		for _, pc := range append(l.Codes[:], l.Hand...) {
			if pc.Kind != 0 && !slices.Contains(kinds, pc.Kind) {
				kinds = append(kinds, pc.Kind)
			}
		}
		for _, s := range l.Squares {
			if _, ok := squares[strings.ToLower(s)]; !ok {
				squares[strings.ToLower(s)] = s
				names = append(names, s)
			}
		}
	}
	slices.Sort(kinds)
	for i := range p.Terms {
		t := &p.Terms[i]
		if t.Piece != 0 && !slices.Contains(kinds, t.Piece) {
			return errorf("pattern: %s has no piece %q (its pieces: %s; * for any)", g.ID(), string(t.Piece), strings.Join(strings.Split(string(kinds), ""), " "))
		}
		for j, s := range t.Squares {
			name, ok := squares[strings.ToLower(s)]
			if !ok {
				return errorf("pattern: %s has no square %q (squares %s to %s)", g.ID(), s, names[0], names[len(names)-1])
			}
			t.Squares[j] = name
		}
	}
	return nil
}
