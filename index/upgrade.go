package index

import (
	"context"
	"fmt"
)

// upgradableVersion is the one older layout that Open upgrades in place
// (a writable open): layout 5 differs from 6 only in how the opening
// tree's players are kept (treetop.go), which its tree_players rows give
// in full. Older layouts must be imported again.
const upgradableVersion = 5

// upgrade5 turns a layout-5 database into layout 6 in one transaction (a
// kill leaves it at 5, and the next writable open starts again): it reads
// the per-player rows of tree_players in key order, writes each move's
// number of players and top into its tree row, and the counts of a move
// of more than topLen players into chunks of the new tree_players.
func (db *DB) upgrade5(ctx context.Context) error {
	if db.notice != nil {
		db.notice(fmt.Sprintf("upgrading the database in %s from layout 5 to 6 (the opening tree's players)…", db.dir))
	}
	tx, err := db.sql.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	for _, q := range []string{
		`ALTER TABLE tree ADD COLUMN np INTEGER NOT NULL DEFAULT 0`,
		`CREATE TABLE tree_players6(
		key INTEGER NOT NULL, move TEXT NOT NULL, chunk INTEGER NOT NULL, data BLOB NOT NULL,
		PRIMARY KEY(key, move, chunk)) WITHOUT ROWID`,
	} {
		if _, err := tx.ExecContext(ctx, q); err != nil {
			return fmt.Errorf("upgrade to layout 6: %w", err)
		}
	}
	setTree, err := tx.PrepareContext(ctx, `UPDATE tree SET np = ?, top = ? WHERE key = ? AND move = ?`)
	if err != nil {
		return err
	}
	defer setTree.Close()
	addChunk, err := tx.PrepareContext(ctx, `INSERT INTO tree_players6(key, move, chunk, data) VALUES(?, ?, ?, ?)`)
	if err != nil {
		return err
	}
	defer addChunk.Close()
	var cur treeKey
	var es, top []topEntry
	flush := func() error {
		if len(es) == 0 {
			return nil
		}
		top = bestOf(top, es)
		if _, err := setTree.ExecContext(ctx, len(es), encodeTop(nil, top), cur.key, cur.move); err != nil {
			return err
		}
		if len(es) > topLen {
			for c, part := range chunksOf(es) {
				if _, err := addChunk.ExecContext(ctx, cur.key, cur.move, c, encodeChunk(nil, c, part)); err != nil {
					return err
				}
			}
		}
		es = es[:0]
		return nil
	}
	rows, err := tx.QueryContext(ctx, `SELECT key, move, player, n FROM tree_players WHERE n > 0 ORDER BY key, move, player`)
	if err != nil {
		return fmt.Errorf("upgrade to layout 6: %w", err)
	}
	for rows.Next() {
		var k treeKey
		var e topEntry
		if err := rows.Scan(&k.key, &k.move, &e.player, &e.n); err != nil {
			rows.Close()
			return fmt.Errorf("upgrade to layout 6: %w", err)
		}
		if k != cur {
			if err := flush(); err != nil {
				rows.Close()
				return fmt.Errorf("upgrade to layout 6: %w", err)
			}
			cur = k
		}
		es = append(es, e)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return fmt.Errorf("upgrade to layout 6: %w", err)
	}
	if err := flush(); err != nil {
		return fmt.Errorf("upgrade to layout 6: %w", err)
	}
	for _, q := range []string{
		`DROP TABLE tree_players`,
		`ALTER TABLE tree_players6 RENAME TO tree_players`,
	} {
		if _, err := tx.ExecContext(ctx, q); err != nil {
			return fmt.Errorf("upgrade to layout 6: %w", err)
		}
	}
	if err := setMeta(ctx, tx, "schema", 6); err != nil {
		return err
	}
	return tx.Commit()
}
