package store

import (
	"context"
	"database/sql"
)

// GiveBack gives the file's free pages back to the file system at the
// end of an import (PRAGMA incremental_vacuum) when they are more than
// 1/giveBackShare of its pages, and returns how many it gave back. The
// merges of position runs free the pages of the runs they merged, and a
// settled tree spool its rows; the file used to keep up to a sixteenth
// for later imports, which grow it again as cheaply, but the size of the
// database is a goal of its own and giving the pages back costs an import
// little (docs/storage.md). A database made before auto_vacuum was
// INCREMENTAL (a VACUUM after PRAGMA auto_vacuum = INCREMENTAL turns it)
// keeps them.
func GiveBack(ctx context.Context, conn *sql.Conn) (int64, error) {
	var mode, free, pages int64
	err := conn.QueryRowContext(ctx, `SELECT a.auto_vacuum, f.freelist_count, p.page_count
		FROM pragma_auto_vacuum a, pragma_freelist_count f, pragma_page_count p`).Scan(&mode, &free, &pages)
	if err != nil || mode != autoVacuumIncremental || free*giveBackShare <= pages {
		return 0, err
	}
	// The statement gives back a page a step, a row each.
	rows, err := conn.QueryContext(ctx, `PRAGMA incremental_vacuum`)
	if err != nil {
		return 0, err
	}
	var given int64
	for rows.Next() {
		given++
	}
	rows.Close()
	return given, rows.Err()
}

const (
	autoVacuumIncremental = 2
	giveBackShare         = 64
)
