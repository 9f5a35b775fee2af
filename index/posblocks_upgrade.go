package index

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/plateau/plateau/index/internal/posrun"
	"github.com/plateau/plateau/index/internal/store"
)

// upgrade14 turns a layout-14 database into layout 15 in one transaction
// (a kill leaves it at 14, and the next writable open starts again): the
// position runs' blocks are written again in their bit-packed form
// (posrun.Repack), which a layout-14 program cannot read. The old blocks'
// pages are given back after the commit when the file allows it
// (store.GiveBack; a file made before auto_vacuum was INCREMENTAL keeps
// them free for later writes).
func (db *DB) upgrade14(ctx context.Context) error {
	if err := db.upgradeTx(ctx, 14, "the position runs' blocks packed", func(tx *sql.Tx) error {
		if _, err := posrun.Repack(ctx, tx); err != nil {
			return fmt.Errorf("upgrade to layout 15: %w", err)
		}
		return nil
	}); err != nil {
		return err
	}
	return db.giveBack(ctx)
}

// upgrade18 turns a layout-18 database into layout 19 in one transaction:
// the table of the text dictionary (store.DictTable), made from the first
// texts stored when they hold enough (store.MakeDict), and every text
// block compressed again against it (store.Recompress), which a layout-18
// program cannot read. The old blocks' pages are given back after the
// commit, as upgrade14 does.
func (db *DB) upgrade18(ctx context.Context) error {
	if err := db.upgradeTx(ctx, 18, "a dictionary for the record texts", func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, store.DictTable); err != nil {
			return fmt.Errorf("upgrade to layout 19: %w", err)
		}
		d, err := store.MakeDict(ctx, tx)
		if err != nil {
			return fmt.Errorf("upgrade to layout 19: %w", err)
		}
		if d != nil {
			if _, err := store.Recompress(ctx, tx, d); err != nil {
				return fmt.Errorf("upgrade to layout 19: %w", err)
			}
		}
		return nil
	}); err != nil {
		return err
	}
	return db.giveBack(ctx)
}

// giveBack gives the free pages back (store.GiveBack) on a connection of
// its own.
func (db *DB) giveBack(ctx context.Context) error {
	conn, err := db.sql.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	_, err = store.GiveBack(ctx, conn)
	return err
}
