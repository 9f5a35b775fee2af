package store

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strings"
)

// A bulk import leaves the games table's player, date and event indexes
// (Deferred) out while it stores its games and builds them again, each in
// one sorted pass, after its last commit. Every commit of an import
// rewrites the pages it touched of each random-key B-tree, and those
// four indexes are random-key: a game's entries land on pages spread
// over the whole index, so that a transaction of 50,000 games rewrites
// all of them. Building them in one sorted pass, at the import's end,
// while the text index takes the last transaction's games, costs less
// than keeping them up to date (docs/import.md has the figures).
//
// While a bulk import runs, its readers see games without those indexes;
// a bulk import killed before it builds them leaves them out: the next
// import, or the next writable open while no import runs, builds them
// (Restore).

// Deferred are the indexes a bulk import builds after its games, by name,
// with their definitions (part of the schema).
var Deferred = []struct{ Name, Def string }{
	{"games_p0", `CREATE INDEX IF NOT EXISTS games_p0 ON games(p0)`},
	{"games_p1", `CREATE INDEX IF NOT EXISTS games_p1 ON games(p1)`},
	{"games_date", `CREATE INDEX IF NOT EXISTS games_date ON games(date)`},
	// An event's crosstable and count read games_event alone (index/events.go).
	{"games_event", `CREATE INDEX IF NOT EXISTS games_event ON games(event, valid, p0, p1, result, game)`},
}

// Queryer is what reads one row: a database, a connection or a
// transaction.
type Queryer interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// Missing returns the deferred indexes the database lacks, in Deferred
// order (one statement: readers ask it at every player search).
func Missing(ctx context.Context, q Queryer) ([]string, error) {
	var present string // the names found, space-separated
	err := q.QueryRowContext(ctx, `SELECT COALESCE(group_concat(name, ' '), '') FROM sqlite_schema WHERE type = 'index' AND name IN (?, ?, ?, ?)`,
		Deferred[0].Name, Deferred[1].Name, Deferred[2].Name, Deferred[3].Name).Scan(&present)
	if err != nil {
		return nil, err
	}
	found := strings.Fields(present)
	var missing []string
	for _, ix := range Deferred {
		if !slices.Contains(found, ix.Name) {
			missing = append(missing, ix.Name)
		}
	}
	return missing, nil
}

// DropDeferred drops the deferred indexes, in one transaction of conn.
func DropDeferred(ctx context.Context, conn *sql.Conn) error {
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	for _, ix := range Deferred {
		if _, err := tx.ExecContext(ctx, `DROP INDEX IF EXISTS `+ix.Name); err != nil {
			return fmt.Errorf("bulk import: %w", err)
		}
	}
	return tx.Commit()
}

// Restore builds the deferred indexes the database lacks, in one
// transaction of q (a connection or the database), and says which it
// built.
func Restore(ctx context.Context, q interface {
	Queryer
	BeginTx(ctx context.Context, opts *sql.TxOptions) (*sql.Tx, error)
}) ([]string, error) {
	missing, err := Missing(ctx, q)
	if err != nil || len(missing) == 0 {
		return nil, err
	}
	tx, err := q.BeginTx(ctx, nil)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	for _, ix := range Deferred {
		if _, err := tx.ExecContext(ctx, ix.Def); err != nil {
			return nil, fmt.Errorf("build index %s: %w", ix.Name, err)
		}
	}
	return missing, tx.Commit()
}
