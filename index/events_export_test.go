package index

import "context"

// SetEventIndex makes db read an event's crosstable by the index games_event
// (on) or as a layout-19 handle does, scanning the games (off).
func SetEventIndex(db *DB, on bool) { db.eventIndex = on }

// DowngradeToLayout19 turns db into a layout-19 database: no games_event,
// and in event_names only the events of games with a player.
func DowngradeToLayout19(ctx context.Context, db *DB) error {
	for _, q := range []string{`DROP INDEX games_event`,
		`DELETE FROM event_names WHERE name NOT IN (SELECT event FROM games WHERE valid = 1 AND (p0 IS NOT NULL OR p1 IS NOT NULL) AND event IS NOT NULL)`} {
		if _, err := db.sql.ExecContext(ctx, q); err != nil {
			return err
		}
	}
	return setMeta(ctx, db.sql, "schema", 19)
}

// CrosstablePlan is SQLite's plan of the crosstable of q, one line a step.
func CrosstablePlan(ctx context.Context, db *DB, q Query) ([]string, error) {
	w, _, err := db.filters(ctx, &q)
	if err != nil {
		return nil, err
	}
	return queryPlan(ctx, db, crosstableSQL(&w), w.Args())
}

// SearchPlan is SQLite's plans of the page and of the count of Search(q)
// (the page's is nil when it is read player by player).
func SearchPlan(ctx context.Context, db *DB, q Query) (page, count []string, err error) {
	w, _, err := db.filters(ctx, &q)
	if err != nil {
		return nil, nil, err
	}
	if query, args := pageSQL(&w, q.PageLimit(), q.Offset); query != "" {
		if page, err = queryPlan(ctx, db, query, args); err != nil {
			return nil, nil, err
		}
	}
	count, err = queryPlan(ctx, db, `SELECT COUNT(*) FROM games g WHERE `+w.String(), w.Args())
	return page, count, err
}

// queryPlan is SQLite's plan of query, one line a step.
func queryPlan(ctx context.Context, db *DB, query string, args []any) ([]string, error) {
	rows, err := db.sql.QueryContext(ctx, `EXPLAIN QUERY PLAN `+query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var plan []string
	for rows.Next() {
		var id, parent, unused int
		var detail string
		if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
			return nil, err
		}
		plan = append(plan, detail)
	}
	return plan, rows.Err()
}

// Fold is the folded form of s, as the criteria compare text (fold).
func Fold(s string) string { return fold(s) }

// DowngradeToLayout23 turns db into a layout-23 database: games_event on
// the event alone.
func DowngradeToLayout23(ctx context.Context, db *DB) error {
	for _, q := range []string{`DROP INDEX games_event`, `CREATE INDEX games_event ON games(event)`} {
		if _, err := db.sql.ExecContext(ctx, q); err != nil {
			return err
		}
	}
	return setMeta(ctx, db.sql, "schema", 23)
}
