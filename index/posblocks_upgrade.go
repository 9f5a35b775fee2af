package index

import (
	"context"
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
	if db.notice != nil {
		db.notice(fmt.Sprintf("upgrading the database in %s from layout 14 to 15 (the position runs' blocks packed)…", db.dir))
	}
	tx, err := db.sql.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := posrun.Repack(ctx, tx); err != nil {
		return fmt.Errorf("upgrade to layout 15: %w", err)
	}
	if err := setMeta(ctx, tx, "schema", 15); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	conn, err := db.sql.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	_, err = store.GiveBack(ctx, conn)
	return err
}
