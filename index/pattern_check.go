package index

import (
	"context"
	"slices"

	"github.com/plateau/plateau/index/internal/criteria"
	"github.com/plateau/plateau/index/internal/pattern"
	"github.com/plateau/plateau/rules"
)

// checkPattern refuses a pattern that names a piece or a square the
// ruleset does not have (pattern.Check): the squares and pieces are those
// of the game's layouts (rules.Cells), the start position's and those of
// the start positions (FEN) of its stored games, since a FEN may choose
// another board (a 10×10 loup-moutons). A game whose positions do not
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
	return criteria.PatternError(pattern.Check(p, g, layouts))
}
