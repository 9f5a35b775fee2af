package index

import (
	"context"
	"database/sql"

	"github.com/plateau/plateau/index/internal/stats"
)

// GameCount is the number of games of one ruleset.
type GameCount = stats.GameCount

// Info describes a database.
type Info = stats.Info

// Info counts what the database holds (the games per ruleset from the
// counts the last import stored and the games added since:
// internal/stats).
func (db *DB) Info(ctx context.Context) (Info, error) {
	in, err := stats.Describe(ctx, db.sql, stats.Files{Dir: db.dir, SQLite: sqliteName, Text: db.textPath()}, editsKey)
	if err != nil {
		return in, err
	}
	if in.PositionRuns, err = db.PositionRuns(ctx); err != nil {
		return Info{Dir: db.dir}, err
	}
	return in, nil
}

// storeCounts brings the stored counts of games up to date (an import
// calls it when it ends).
func (db *DB) storeCounts(ctx context.Context) error {
	return stats.StoreCounts(ctx, db.sql, editsKey)
}

// PositionRuns is the number of runs of the position index: a lookup
// reads a block of each.
func (db *DB) PositionRuns(ctx context.Context) (int, error) {
	var n int
	err := db.sql.QueryRowContext(ctx, `SELECT COUNT(*) FROM pos_runs`).Scan(&n)
	return n, err
}

// LastID is the id of the last game stored (0 for none): a cache of
// query results is right while it does not change.
func (db *DB) LastID(ctx context.Context) (int64, error) {
	var last sql.NullInt64
	err := db.sql.QueryRowContext(ctx, `SELECT MAX(id) FROM games`).Scan(&last)
	return last.Int64, err
}

// Overview is the statistics page of a database (internal/stats).
type Overview = stats.Overview

// Overview reads the database's statistics: games by ruleset, year and
// outcome, the longest games and the most active players. It reads the
// games table: seconds on a large database (callers keep the answer).
func (db *DB) Overview(ctx context.Context) (Overview, error) {
	return stats.NewOverview(ctx, db.sql, editsKey)
}

// Version is a number that changes whenever anything was committed to
// the database since the last call, by any process (an import's commit, a
// save, an add, a delete, a tag edit, the text index's progress), and
// stays put otherwise: a cache of query results is right while it does
// not change. It counts the changes this handle has seen (changes.go), so
// that versions of two handles are not comparable.
func (db *DB) Version(ctx context.Context) (int64, error) {
	return db.changes.seen(ctx)
}
