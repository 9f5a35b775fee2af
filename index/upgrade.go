package index

import (
	"context"
	"fmt"

	"github.com/plateau/plateau/index/internal/posrun"
	"github.com/plateau/plateau/index/internal/revisions"
	"github.com/plateau/plateau/index/internal/treeagg"
)

// upgradableVersion is the one older layout that Open upgrades in place
// (a writable open): layout 5 differs from 6 only in how the opening
// tree's players are kept (internal/treeagg), which its tree_players rows
// give in full. Older layouts must be imported again.
const upgradableVersion = 5

// upgrade5 turns a layout-5 database into layout 6 in one transaction (a
// kill leaves it at 5, and the next writable open starts again): the
// opening tree's players are converted (treeagg.Upgrade5).
func (db *DB) upgrade5(ctx context.Context) error {
	if db.notice != nil {
		db.notice(fmt.Sprintf("upgrading the database in %s from layout 5 to 6 (the opening tree's players)…", db.dir))
	}
	tx, err := db.sql.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := treeagg.Upgrade5(ctx, tx); err != nil {
		return err
	}
	if err := setMeta(ctx, tx, "schema", 6); err != nil {
		return err
	}
	return tx.Commit()
}

// upgrade7 turns a layout-7 database into layout 8 in one transaction: the
// tables of the games' revisions (internal/revisions) and of the position
// occurrences an edit made untrue (posrun.GoneTable), both empty. A
// layout-7 program would read an edited game's old positions as its own:
// the layout version keeps it out.
func (db *DB) upgrade7(ctx context.Context) error {
	if db.notice != nil {
		db.notice(fmt.Sprintf("upgrading the database in %s from layout 7 to 8 (revisions of edited games)…", db.dir))
	}
	tx, err := db.sql.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	for _, q := range []string{revisions.Table, posrun.GoneTable} {
		if _, err := tx.ExecContext(ctx, q); err != nil {
			return fmt.Errorf("upgrade to layout 8: %w", err)
		}
	}
	if err := setMeta(ctx, tx, "schema", 8); err != nil {
		return err
	}
	return tx.Commit()
}
