package index

import (
	"context"
	"fmt"
	"runtime/pprof"
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
	m := &posMerge{}
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
		for rows.Next() {
			var run, n int64 // n: its blocks
			if err := rows.Scan(&run, &n); err != nil {
				return err
			}
			m.srcs = append(m.srcs, run)
			total += n
		}
		if err := rows.Err(); err != nil {
			return err
		}
		if m.deleted, err = db.metaInt(ctx, tx, posDeletedKey); err != nil {
			return err
		}
		if len(m.srcs) == 0 || len(m.srcs) == 1 && m.deleted == 0 {
			m.srcs = nil // one run and no occurrence to drop: nothing to do
			return nil
		}
		if m.run, err = nextRunID(ctx, tx); err != nil {
			return err
		}
		return setMeta(ctx, tx, posMergingKey, m.run)
	})
	if err != nil || m.srcs == nil {
		return st, err
	}

	mctx, stop := context.WithCancel(ctx)
	defer stop()
	blocks := make(chan encodedBlock, mergeQueue)
	done := make(chan struct{})
	go pprof.Do(mctx, pprof.Labels("stage", "merge"), func(context.Context) {
		defer close(done)
		m.n, m.err = mergeBeside(mctx, db.sql, m.srcs, blocks)
		close(blocks)
	})
	fail := func(err error) (CompactStats, error) {
		stop()
		for range blocks {
		}
		<-done
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
				case b, open = <-blocks:
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
			<-done
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
