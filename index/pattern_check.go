package index

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/plateau/plateau/rules"
)

// checkPattern refuses a pattern that names a piece or a square the
// ruleset does not have (a search for it would find nothing, silently),
// naming it and what the game has; square names are matched without regard
// to case and rewritten as the game writes them. The squares and pieces are
// those of the game's layouts (rules.Cells): the start position's, and
// those of the start positions (FEN) of its stored games, since a FEN may
// choose another board (a 10×10 loup-moutons). A hand term in a game
// without hands stays a count (of zero). A game whose positions do not
// expose their cells is not checked.
func (db *DB) checkPattern(ctx context.Context, p *Pattern, g rules.Game) error {
	var layouts []*rules.Layout
	add := func(fen string) {
		pos, err := g.NewPosition(fen)
		if err != nil {
			return
		}
		if c, ok := pos.(rules.Cells); ok && !slices.Contains(layouts, c.Layout()) {
			layouts = append(layouts, c.Layout())
		}
	}
	add("")
	if len(layouts) == 0 {
		return nil
	}
	rows, err := db.sql.QueryContext(ctx, `SELECT DISTINCT fen FROM games WHERE game = ? AND valid = 1 AND fen IS NOT NULL LIMIT 1000`, g.ID())
	if err != nil {
		return err
	}
	for rows.Next() {
		var fen string
		if rows.Scan(&fen) == nil {
			add(fen)
		}
	}
	rows.Close()
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
			return fmt.Errorf("%w: pattern: %s has no piece %q (its pieces: %s; * for any)", ErrQuery, g.ID(), string(t.Piece), strings.Join(strings.Split(string(kinds), ""), " "))
		}
		for j, s := range t.Squares {
			name, ok := squares[strings.ToLower(s)]
			if !ok {
				return fmt.Errorf("%w: pattern: %s has no square %q (squares %s to %s)", ErrQuery, g.ID(), s, names[0], names[len(names)-1])
			}
			t.Squares[j] = name
		}
	}
	return nil
}
