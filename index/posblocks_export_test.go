package index

import (
	"context"

	"github.com/plateau/plateau/index/internal/posrun"
)

// downgradeBlocks writes the position runs' blocks of db in their legacy
// form (layout 14 and before), for the downgrades of the upgrades' tests.
func downgradeBlocks(ctx context.Context, db *DB) error {
	tx, err := db.sql.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := posrun.RepackLegacy(ctx, tx); err != nil {
		return err
	}
	return tx.Commit()
}

// DowngradeToLayout14 turns db into a layout-14 database: the position
// runs' blocks in their legacy form.
func DowngradeToLayout14(ctx context.Context, db *DB) error {
	if err := downgradeTree(ctx, db); err != nil {
		return err
	}
	if err := downgradeBlocks(ctx, db); err != nil {
		return err
	}
	return setMeta(ctx, db.sql, "schema", 14)
}

// BlockBytes is the bytes of the position runs' blocks.
func BlockBytes(ctx context.Context, db *DB) (int64, error) {
	var n int64
	err := db.sql.QueryRowContext(ctx, `SELECT TOTAL(length(data)) FROM pos_blocks`).Scan(&n)
	return n, err
}

// Occurrences is every stored occurrence of db's position runs, in order.
func Occurrences(ctx context.Context, db *DB) ([][2]int64, error) {
	var out [][2]int64
	err := db.pos.Scan(ctx, func(key, at int64) error {
		out = append(out, [2]int64{key, at})
		return nil
	})
	return out, err
}
