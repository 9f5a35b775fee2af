package index

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/plateau/plateau/index/internal/posrun"
)

// upgrade24 turns a layout-24 database into layout 25 in one transaction
// (a kill leaves it at 24): the stored filters of the position runs too
// large to get one now (posrun.DropLargeFilters) deleted. A layout-23
// program reads the database as well, but would take a large run
// without a filter for a fault (its check); the pages are given back
// after the commit, as upgrade18 does.
func (db *DB) upgrade24(ctx context.Context) error {
	if err := db.upgradeTx(ctx, 24, "no filters of the largest position runs", func(tx *sql.Tx) error {
		if _, err := posrun.DropLargeFilters(ctx, tx); err != nil {
			return fmt.Errorf("upgrade to layout 25: %w", err)
		}
		return nil
	}); err != nil {
		return err
	}
	return db.giveBack(ctx)
}
