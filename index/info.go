package index

import (
	"context"
	"database/sql"
	"strings"
)

// GameCount is the number of games of one ruleset.
type GameCount struct {
	Game           string
	Valid, Invalid int
	Plies          int64
}

// Info describes a database.
type Info struct {
	Dir         string
	Games       []GameCount
	Players     int
	Sources     int
	SourceBytes int64 // size of the imported files
	SQLiteBytes int64
	TextBytes   int64
	TextIndexed int64 // high-water mark of the text index (game id)
	// PositionRuns is the number of runs of the position index (a lookup
	// reads a block of each: CompactPositions makes them one), and
	// FreeBytes the file's free pages (freed by merges, reused by later
	// writes).
	PositionRuns int
	FreeBytes    int64
}

// Info counts what the database holds (the games per ruleset from the
// counts the last import stored and the games added since: gameCounts).
func (db *DB) Info(ctx context.Context) (Info, error) {
	in := Info{Dir: db.dir}
	c, err := db.gameCounts(ctx)
	if err != nil {
		return Info{Dir: db.dir}, err
	}
	in.Games = c.Games
	if err := db.sql.QueryRowContext(ctx, `SELECT COUNT(*) FROM players`).Scan(&in.Players); err != nil {
		return Info{Dir: db.dir}, err
	}
	var sb sql.NullInt64
	if err := db.sql.QueryRowContext(ctx, `SELECT COUNT(*), SUM(size) FROM sources`).Scan(&in.Sources, &sb); err != nil {
		return Info{Dir: db.dir}, err
	}
	in.SourceBytes = sb.Int64
	if in.TextIndexed, err = db.metaInt(ctx, db.sql, "text_hw"); err != nil {
		return Info{Dir: db.dir}, err
	}
	if in.PositionRuns, err = db.PositionRuns(ctx); err != nil {
		return Info{Dir: db.dir}, err
	}
	if err := db.sql.QueryRowContext(ctx, `SELECT f.freelist_count * s.page_size FROM pragma_freelist_count f, pragma_page_size s`).Scan(&in.FreeBytes); err != nil {
		return Info{Dir: db.dir}, err
	}
	in.SQLiteBytes = dirSize(db.dir, func(name string) bool { return strings.HasPrefix(name, sqliteName) })
	in.TextBytes = dirSize(db.textPath(), nil)
	return in, nil
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
