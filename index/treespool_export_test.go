package index

import "context"

// SetTreeSpool sets the tree entries a bulk import spools before it adds
// them to the tree (internal/writer's Tuning.SettleEntries), a function
// run at its end before it adds the last ones (BeforeTreeSettle) and one
// run after each commit (AfterCommit); it returns a function restoring
// them.
func SetTreeSpool(entries int, beforeSettle, afterCommit func()) (restore func()) {
	old := writeTuning
	writeTuning.SettleEntries, writeTuning.BeforeTreeSettle, writeTuning.AfterCommit = entries, beforeSettle, afterCommit
	return func() {
		writeTuning.SettleEntries, writeTuning.BeforeTreeSettle, writeTuning.AfterCommit = old.SettleEntries, old.BeforeTreeSettle, old.AfterCommit
	}
}

// SpooledRows is the number of rows of the opening-tree spool (0 without
// the table).
func SpooledRows(ctx context.Context, db *DB) (int, error) {
	var n int
	err := db.sql.QueryRowContext(ctx, `SELECT COUNT(*) FROM sqlite_schema WHERE type = 'table' AND name = 'tree_spool'`).Scan(&n)
	if err != nil || n == 0 {
		return 0, err
	}
	err = db.sql.QueryRowContext(ctx, `SELECT COUNT(*) FROM tree_spool`).Scan(&n)
	return n, err
}
