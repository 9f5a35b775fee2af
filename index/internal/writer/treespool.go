package writer

import (
	"context"
	"database/sql"
	"fmt"
	"runtime/pprof"

	"github.com/plateau/plateau/index/internal/store"
	"github.com/plateau/plateau/index/internal/treeagg"
)

// An import of files weighing at least bulkMinBytes (bulk.go: into a
// small database it is bulk too, into a large one not) spools its games'
// opening-tree entries instead of adding them to the tree at each commit
// (treeagg's spool): each of its flushes writes one row of sorted entries
// in its transaction, and the import adds them to the tree a group at a
// time, in a transaction of its own, whenever a group is spooled and at
// its end (settleTree). The tree is then written once a group, in key
// order, instead of once a transaction.
//
// Readers meanwhile see the tree of the games settled: those stored
// before the import, then those of each group settled. An import killed
// before its end leaves its entries spooled: the next import settles
// them (a large one at its end), or the façade's next writable open
// (SettleTree). A removal of a game (Delete, a save, a superseded record)
// settles the spool first in its transaction, since it takes the game's
// moves out of the tree (txn.settleTree). Smaller imports and edits add
// their moves to the tree at each commit.

// beginner begins transactions: the database or the import's connection.
type beginner interface {
	BeginTx(ctx context.Context, opts *sql.TxOptions) (*sql.Tx, error)
}

// SettleTree adds every spooled opening-tree entry to the tree, a group a
// transaction (treeagg.Settle); it does nothing when none is spooled.
func (d *DB) SettleTree(ctx context.Context) error {
	return settleTree(ctx, d.SQL, nil, d.Tuning.SettleEntries)
}

// settleTree adds the spooled entries to the tree through b, a group of
// at most group entries (0: treeagg.SettleEntries) a transaction, the
// rows written through raw (b's RawStmts) if not nil. Its
// statements run without a cancellable context, as the writer's (see
// txn.writeChunk): ctx stops it between two groups.
func settleTree(ctx context.Context, b beginner, raw *store.RawStmts, group int) error {
	sctx := context.WithoutCancel(ctx)
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		tx, err := b.BeginTx(sctx, nil)
		if err != nil {
			return err
		}
		var more bool
		pprof.Do(sctx, pprof.Labels("write", "tree"), func(ctx context.Context) { more, err = treeagg.Settle(ctx, tx, raw, group, true) })
		if err == nil {
			err = tx.Commit()
		} else {
			tx.Rollback()
		}
		if err != nil {
			return fmt.Errorf("store opening tree: %w", err)
		}
		if !more {
			return nil
		}
	}
}

// settleTree adds the spooled entries to the tree in the writer's
// transaction, once a transaction, before a removal takes a game's moves
// out of the tree.
func (w *txn) settleTree(ctx context.Context) error {
	if w.treeSettled {
		return nil
	}
	if _, err := treeagg.Settle(ctx, w.tx, w.raw, w.d.Tuning.SettleEntries, false); err != nil {
		return fmt.Errorf("store opening tree: %w", err)
	}
	w.treeSettled = true
	return nil
}

// spoolStart makes an import of at least bulkMinBytes spool its tree
// entries, the spool's table made if need be; a smaller one settles the
// entries a killed import left spooled, first.
func (r *importRun) spoolStart(ctx context.Context) error {
	if r.st.TotalBytes < r.d.Tuning.bulkMinBytes() {
		return settleTree(ctx, r.w.conn, r.w.raw, r.d.Tuning.SettleEntries)
	}
	if _, err := r.w.conn.ExecContext(ctx, treeagg.SpoolTable); err != nil {
		return err
	}
	r.w.spool = true
	return nil
}

func (t *Tuning) settleEntries() int {
	if t.SettleEntries > 0 {
		return t.SettleEntries
	}
	return treeagg.SettleEntries
}

// settleSpooled adds a group of spooled entries to the tree, after a
// commit, when the import has spooled a group's worth since the last.
func (r *importRun) settleSpooled(ctx context.Context) error {
	if !r.w.spool || r.w.spooled < r.d.Tuning.settleEntries() {
		return nil
	}
	r.w.spooled = 0
	err := settleTree(ctx, r.w.conn, r.w.raw, r.d.Tuning.SettleEntries)
	r.ckpt.Committed()
	return err
}
