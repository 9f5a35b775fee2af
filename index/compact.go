package index

import (
	"context"
	"fmt"
)

// Compaction of the position index.
//
// Imports keep the position index as runs merged by size level, eight a
// level at most (posruns.go), so that a large collection ends with one or
// two dozen runs: at ten million Ōgi games, 13 runs (six of them of some
// 145 million occurrences). A lookup reads the one block of each run that
// may hold its key; from a cold page cache each is a random read of the
// disk (0.8 ms each on the machine of issue #17, with no gain from reading
// them side by side), so that a lookup in a database larger than memory
// took several milliseconds. CompactPositions merges every run into one,
// as a database's "compact" command does: a lookup then reads one block.
//
// It waits for any import, reindex or other compaction to end (the import
// lock, mergelock.go; imports started meanwhile wait for it), then for a
// merge in flight. It is a merge like those beside an import's writer
// (posmerge.go): it holds the merge lock, reserves the merged run's id
// (meta pos_merging), reads the runs a page at a time, stores the merged
// blocks in transactions of compactTx blocks as blocks of an unlisted run
// that readers ignore, and in the last one lists the run and deletes the
// ones it merged. Readers see the old runs or the new one, never both nor
// neither; a kill leaves an orphan the next merge deletes; a cancel
// deletes it at once. Runs stored meanwhile by a server's edits are left
// as they are. The occurrences of deleted games are dropped. The merged
// runs' pages become free pages of the file, which later writes reuse: the
// file does not shrink, and the disk must hold the position index twice
// while it runs.

// compactTx is the number of merged blocks stored per transaction (about
// 12 MiB of blocks).
var compactTx = 4096

// CompactStats says what CompactPositions did.
type CompactStats struct {
	Runs        int   // runs merged (0: nothing to do)
	Occurrences int64 // occurrences in the merged run
}

// CompactPositions merges every position run into one, calling progress
// (when not nil) with the blocks written so far and the number of blocks
// of the runs merged (the merged run has as many or fewer).
func (db *DB) CompactPositions(ctx context.Context, progress func(done, total int64)) (CompactStats, error) {
	var st CompactStats
	if db.readOnly {
		return st, fmt.Errorf("compact: %w", ErrReadOnly)
	}
	// After any import in progress, then after a merge in flight (a
	// server's edit merges in its transaction).
	ilock, err := db.waitImportLock(ctx)
	if err != nil {
		return st, err
	}
	defer ilock.release()
	lock, err := db.waitLock(ctx, mergeLockName, "another writer of %s is merging position runs: waiting for it to end")
	if err != nil {
		return st, err
	}
	defer lock.release()

	// Reserve the merged run.
	var m *posMerge
	var total int64 // blocks of the runs merged
	err = db.inTx(ctx, func(tx txer) error {
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
		deleted, err := db.metaInt(ctx, tx, posDeletedKey)
		if err != nil {
			return err
		}
		if len(runs) == 0 || len(runs) == 1 && deleted == 0 {
			return nil // one run and no occurrence to drop: nothing to do
		}
		m, err = reserveMerge(ctx, tx, runs, deleted)
		return err
	})
	if err != nil || m == nil {
		return st, err
	}

	m.start(ctx, db)
	defer m.stop()
	fail := func(err error) (CompactStats, error) {
		m.stop()
		for range m.blocks {
		}
		<-m.done
		// The blocks stored so far are an orphan: delete them now rather
		// than at the next merge (a failure here leaves them to it).
		bg := context.WithoutCancel(ctx)
		db.inTx(bg, func(tx txer) error { return dropOrphanMerge(bg, tx) })
		return st, fmt.Errorf("compact position runs: %w", err)
	}
	var written int64
	for open := true; open; {
		err := db.inTx(ctx, func(tx txer) error {
			ins, err := tx.PrepareContext(ctx, `INSERT INTO pos_blocks(run, last, data) VALUES(?, ?, ?)`)
			if err != nil {
				return err
			}
			defer ins.Close()
			for n := 0; n < compactTx; n++ {
				var b encodedBlock
				select {
				case b, open = <-m.blocks:
				case <-ctx.Done():
					return ctx.Err()
				}
				if !open {
					break
				}
				if _, err := ins.ExecContext(ctx, m.run, b.last, b.data); err != nil {
					return err
				}
				written++
			}
			if open {
				return nil
			}
			<-m.done
			if m.err != nil {
				return m.err
			}
			if err := swapMerged(ctx, db, tx, m); err != nil {
				return err
			}
			_, err = tx.ExecContext(ctx, `DELETE FROM meta WHERE k = ?`, posMergingKey)
			return err
		})
		if err != nil {
			return fail(err)
		}
		if progress != nil {
			progress(min(written, total), total)
		}
	}
	st.Runs, st.Occurrences = len(m.srcs), m.n
	if progress != nil {
		progress(total, total)
	}
	return st, nil
}

// inTx runs fn in a transaction of its own, committed when fn succeeds.
func (db *DB) inTx(ctx context.Context, fn func(tx txer) error) error {
	tx, err := db.sql.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	if err := fn(tx); err != nil {
		tx.Rollback()
		return err
	}
	return tx.Commit()
}
