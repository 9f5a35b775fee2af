package index

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strings"
)

// A bulk import leaves the games table's player and date indexes
// (deferredIndexes) out while it stores its games and builds them again,
// each in one sorted pass, after its last commit. Every commit of an
// import rewrites the pages it touched of each random-key B-tree, and
// those three indexes are random-key: a game's entries land on pages
// spread over the whole index, so that a transaction of 50,000 games
// rewrites all of them. Building them in one sorted pass, at the import's
// end, while the text index takes the last transaction's games, costs
// less than keeping them up to date (docs/import.md has the figures).
//
// An import is bulk when its files weigh at least bulkMinBytes and at least
// bulkBytesPerGame for each game already stored (about as many games as
// the database holds, at a KiB a game; a compressed file counts as stored,
// so that it is rather under-counted): rebuilding the indexes costs the
// games of the whole database, leaving them out saves the games imported.
// An import whose size is not given (ImportOptions.Bytes 0: records made
// by the caller) is never bulk.
//
// While a bulk import runs, its readers see games without those indexes: a
// player page is read by name word (names.go) or, for invalid games, by a
// scan of the games table; a date or opponent filter scans. A bulk import
// killed before it builds them leaves them out: the next import, or the
// next writable open while no import runs, builds them (restoreIndexes).
var (
	bulkMinBytes     int64 = 32 << 20
	bulkBytesPerGame int64 = 1 << 10
)

// testBulkDropped, set by a test, is called when a bulk import has dropped
// the deferred indexes.
var testBulkDropped func()

// deferredIndexes are the indexes a bulk import builds after its games,
// by name.
var deferredIndexes = []struct{ name, def string }{
	{"games_p0", `CREATE INDEX IF NOT EXISTS games_p0 ON games(p0)`},
	{"games_p1", `CREATE INDEX IF NOT EXISTS games_p1 ON games(p1)`},
	{"games_date", `CREATE INDEX IF NOT EXISTS games_date ON games(date)`},
}

// isBulk tells whether an import of files weighing bytes into a database
// of games games is bulk.
func isBulk(bytes, games int64) bool {
	return bytes >= bulkMinBytes && bytes >= games*bulkBytesPerGame
}

// missingIndexes returns the deferred indexes the database lacks, in
// deferredIndexes order (one statement: readers ask it at every player
// search, through playerIndexes).
func missingIndexes(ctx context.Context, q queryer) ([]string, error) {
	var present string // the names found, space-separated
	err := q.QueryRowContext(ctx, `SELECT COALESCE(group_concat(name, ' '), '') FROM sqlite_schema WHERE type = 'index' AND name IN (?, ?, ?)`,
		deferredIndexes[0].name, deferredIndexes[1].name, deferredIndexes[2].name).Scan(&present)
	if err != nil {
		return nil, err
	}
	found := strings.Fields(present)
	var missing []string
	for _, ix := range deferredIndexes {
		if !slices.Contains(found, ix.name) {
			missing = append(missing, ix.name)
		}
	}
	return missing, nil
}

// dropDeferred drops the deferred indexes, in one transaction of conn.
func dropDeferred(ctx context.Context, conn *sql.Conn) error {
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	for _, ix := range deferredIndexes {
		if _, err := tx.ExecContext(ctx, `DROP INDEX IF EXISTS `+ix.name); err != nil {
			return fmt.Errorf("bulk import: %w", err)
		}
	}
	return tx.Commit()
}

// restoreIndexes builds the deferred indexes the database lacks, in one
// transaction of q (a connection or the database), and says which it built.
func restoreIndexes(ctx context.Context, q interface {
	queryer
	BeginTx(ctx context.Context, opts *sql.TxOptions) (*sql.Tx, error)
}) ([]string, error) {
	missing, err := missingIndexes(ctx, q)
	if err != nil || len(missing) == 0 {
		return nil, err
	}
	tx, err := q.BeginTx(ctx, nil)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	for _, ix := range deferredIndexes {
		if _, err := tx.ExecContext(ctx, ix.def); err != nil {
			return nil, fmt.Errorf("build index %s: %w", ix.name, err)
		}
	}
	return missing, tx.Commit()
}

// restoreAtOpen builds, at a writable open, the deferred indexes that a
// killed bulk import left out, unless an import holds the import lock (it
// builds them at its end).
func (db *DB) restoreAtOpen(ctx context.Context) error {
	missing, err := missingIndexes(ctx, db.sql)
	if err != nil || len(missing) == 0 {
		return err
	}
	lock, err := db.tryLock(importLockName)
	if err != nil || lock == nil {
		return err
	}
	defer lock.release()
	if db.notice != nil {
		db.notice(fmt.Sprintf("%s: building the indexes %s that an interrupted import left out", db.dir, strings.Join(missing, ", ")))
	}
	_, err = restoreIndexes(ctx, db.sql)
	return err
}

// playerIndexes tells whether the games' player indexes are there (a bulk
// import leaves them out while it runs).
func (db *DB) playerIndexes(ctx context.Context) (bool, error) {
	missing, err := missingIndexes(ctx, db.sql)
	if err != nil {
		return false, err
	}
	return !slices.Contains(missing, "games_p0") && !slices.Contains(missing, "games_p1"), nil
}
