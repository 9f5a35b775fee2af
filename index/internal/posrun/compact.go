package posrun

import (
	"context"
	"fmt"

	"github.com/plateau/plateau/index/internal/dirlock"
)

// Compaction merges every run into one, as a database's "compact" command
// does, so that a lookup reads one block instead of one per run: from a
// cold page cache each is a random read of the disk.
//
// It waits for a merge in flight (the merge lock), then merges like a
// merge beside a writer (beside.go): it reserves the merged run's id (meta
// pos_merging), reads the runs a page at a time, stores the merged blocks
// in transactions of Tuning.CompactTx blocks as blocks of an unlisted run
// that readers ignore, and in the last one lists the run and deletes the
// ones it merged. Readers see the old runs or the new one, never both nor
// neither; a kill leaves an orphan the next merge deletes; a cancel
// deletes it at once. Runs stored meanwhile (a server's edits) are left
// as they are. The occurrences of deleted games and the gone ones are
// dropped. The merged
// runs' pages become free pages of the file, which later writes reuse:
// the file does not shrink, and the disk must hold the position index
// twice while it runs.

// CompactStats says what Compact did.
type CompactStats struct {
	Runs        int   // runs merged (0: nothing to do)
	Occurrences int64 // occurrences in the merged run
}

// Compact merges every run into one, calling progress (when not nil) with
// the blocks written so far and the number of blocks of the runs merged
// (the merged run has as many or fewer). The caller keeps other imports
// and compactions out; Compact waits for a merge in flight.
func (s *Store) Compact(ctx context.Context, progress func(done, total int64)) (CompactStats, error) {
	var st CompactStats
	lock, err := dirlock.Wait(ctx, s.cfg.Dir, dirlock.Merge, func() {
		if s.cfg.Notice != nil {
			s.cfg.Notice(fmt.Sprintf("another writer of %s is merging position runs: waiting for it to end", s.cfg.Dir))
		}
	})
	if err != nil {
		return st, err
	}
	defer lock.Release()
	m, total, err := s.reserveCompaction(ctx)
	if err != nil || m == nil {
		return st, err
	}
	m.start(ctx, s)
	defer m.stop()
	if err := s.storeCompaction(ctx, m, total, progress); err != nil {
		m.stop()
		for range m.blocks {
		}
		<-m.done
		// The blocks stored so far are an orphan: delete them now rather
		// than at the next merge (a failure here leaves them to it).
		bg := context.WithoutCancel(ctx)
		s.inTx(bg, func(tx Tx) error { return dropOrphanMerge(bg, tx) })
		return st, fmt.Errorf("compact position runs: %w", err)
	}
	st.Runs, st.Occurrences = len(m.srcs), m.n
	if progress != nil {
		progress(total, total)
	}
	return st, nil
}

// reserveCompaction reserves, in a transaction, the merge of every run;
// nil when there is nothing to do (no run, or one and no occurrence to
// drop: of a deleted game or gone). total is the blocks of the runs.
func (s *Store) reserveCompaction(ctx context.Context) (m *posMerge, total int64, err error) {
	err = s.inTx(ctx, func(tx Tx) error {
		if err := dropOrphanMerge(ctx, tx); err != nil {
			return err
		}
		rows, err := tx.QueryContext(ctx, `SELECT run, (SELECT COUNT(*) FROM pos_blocks b WHERE b.run = r.run) FROM pos_runs r ORDER BY run`)
		if err != nil {
			return err
		}
		defer rows.Close()
		var runs []int64
		for rows.Next() {
			var run, n int64 // n: its blocks
			if err := rows.Scan(&run, &n); err != nil {
				return err
			}
			runs = append(runs, run)
			total += n
		}
		if err := rows.Err(); err != nil {
			return err
		}
		deleted, err := metaInt(ctx, tx, deletedKey)
		if err != nil {
			return err
		}
		if len(runs) == 0 {
			return nil
		}
		if len(runs) == 1 && deleted == 0 {
			if gone, err := s.loadGone(ctx, tx); err != nil || len(gone) == 0 {
				return err
			}
		}
		m, err = reserveMerge(ctx, tx, runs, deleted)
		return err
	})
	return m, total, err
}

// storeCompaction stores the blocks of the merge m in transactions of
// Tuning.CompactTx blocks, the last of which swaps the merged run in.
func (s *Store) storeCompaction(ctx context.Context, m *posMerge, total int64, progress func(done, total int64)) error {
	var written int64
	for open := true; open; {
		err := s.inTx(ctx, func(tx Tx) error {
			n, more, err := s.storeMerged(ctx, tx, m)
			written += n
			if err != nil || more {
				open = more
				return err
			}
			open = false
			<-m.done
			if m.err != nil {
				return m.err
			}
			if err := swapMerged(ctx, tx, m); err != nil {
				return err
			}
			_, err = tx.ExecContext(ctx, `DELETE FROM meta WHERE k = ?`, MergingKey)
			return err
		})
		if err != nil {
			return err
		}
		if progress != nil {
			progress(min(written, total), total)
		}
	}
	return nil
}

// storeMerged stores up to Tuning.CompactTx blocks of m in tx; more is
// false once m has handed over its last block.
func (s *Store) storeMerged(ctx context.Context, tx Tx, m *posMerge) (n int64, more bool, err error) {
	ins, err := tx.PrepareContext(ctx, `INSERT INTO pos_blocks(run, last, data) VALUES(?, ?, ?)`)
	if err != nil {
		return 0, true, err
	}
	defer ins.Close()
	for range s.Tuning.compactTx() {
		var b encodedBlock
		var open bool
		select {
		case b, open = <-m.blocks:
		case <-ctx.Done():
			return n, true, ctx.Err()
		}
		if !open {
			return n, false, nil
		}
		if _, err := ins.ExecContext(ctx, m.run, b.last, b.data); err != nil {
			return n, true, err
		}
		n++
	}
	return n, true, nil
}
