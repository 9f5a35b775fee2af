package index

import (
	"context"

	"github.com/plateau/plateau/index/internal/posrun"
	"github.com/plateau/plateau/index/internal/store"
)

// downgradeBlocks writes the position runs' blocks of db in their legacy
// form (layout 14 and before) and its texts without a dictionary (layout
// 18 and before), for the downgrades of the upgrades' tests.
func downgradeBlocks(ctx context.Context, db *DB) error {
	if err := downgradeTexts(ctx, db); err != nil {
		return err
	}
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

// downgradeTexts compresses db's texts again without a dictionary and
// drops text_dicts (layout 18 and before).
func downgradeTexts(ctx context.Context, db *DB) error {
	tx, err := db.sql.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := store.Recompress(ctx, tx, nil); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `DROP TABLE text_dicts`); err != nil {
		return err
	}
	return tx.Commit()
}

// DowngradeToLayout18 turns db into a layout-18 database: no text
// dictionary.
func DowngradeToLayout18(ctx context.Context, db *DB) error {
	if err := downgradeTexts(ctx, db); err != nil {
		return err
	}
	return setMeta(ctx, db.sql, "schema", 18)
}

// TextBlocks counts db's text blocks that name a dictionary and those
// that do not, and their bytes.
func TextBlocks(ctx context.Context, db *DB) (with, without, size int64, err error) {
	rows, err := db.sql.QueryContext(ctx, `SELECT data FROM texts`)
	if err != nil {
		return 0, 0, 0, err
	}
	defer rows.Close()
	for rows.Next() {
		var b []byte
		if err := rows.Scan(&b); err != nil {
			return 0, 0, 0, err
		}
		if store.BlockDict(b) != 0 {
			with++
		} else {
			without++
		}
		size += int64(len(b))
	}
	return with, without, size, rows.Err()
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
