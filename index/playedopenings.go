package index

import (
	"context"
	"database/sql"

	"github.com/plateau/plateau/index/internal/players"
)

// NamedTally is how often games reached a named opening, and how they
// went for a side (players.NamedTally).
type NamedTally = players.NamedTally

// PlayedOpenings lists the named openings of the valid games q selects
// (an event's, typically): by ruleset, the players.MaxOpenings most
// played names, most played first, each with its games and how its first
// side (Side 0: Sente, White…) scored. Games without a name are not
// counted; a layout without names (a read-only handle on layout 10 or
// older) has none.
func (db *DB) PlayedOpenings(ctx context.Context, q Query) ([]NamedTally, error) {
	q.Invalid = false
	q.Limit, q.Offset, q.Count = 0, 0, false
	w, empty, err := db.filters(ctx, &q)
	if err != nil || empty || !db.openings {
		return []NamedTally{}, err
	}
	// The named games first, in game order (game_openings' key), then
	// their rows: a selection's named games are read without scanning its
	// other games, and never more rows than a scan of the games table
	// would read, in the same order.
	rows, err := db.sql.QueryContext(ctx, `SELECT g.game, g.result, op.name FROM game_openings gop
		CROSS JOIN games g ON g.id = gop.game CROSS JOIN openings op ON op.id = gop.opening
		WHERE `+w.String(), w.Args()...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var c players.NamedCounter
	for rows.Next() {
		var g players.ProfileGame
		var res sql.NullString
		if err := rows.Scan(&g.Game, &res, &g.Named); err != nil {
			return nil, err
		}
		g.Result = res.String
		c.Add(g)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	return c.Top(), nil
}
