package index

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/plateau/plateau/index/internal/posrun"
)

// compactFixture imports 600 Ōgi games in transactions of 20 (several
// runs) into a database whose position engine has tuning, and deletes
// some, so that the runs hold occurrences of deleted games; it returns the
// database and the occurrences readers see.
func compactFixture(t *testing.T, tuning posrun.Tuning) (*DB, [][4]int64) {
	t.Helper()
	ctx := context.Background()
	dir := t.TempDir()
	file := filepath.Join(dir, "g.pdn")
	writeGames(t, file, "ogi", 600, 7)
	db, err := Open(ctx, filepath.Join(dir, "db"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	db.pos.Tuning = tuning
	// The runs of the import's commits, as they are before its end's tail
	// merge (mergeTail), which would leave two.
	writeTuning.TailFactor = -1 // no tail merge
	defer func() { writeTuning.TailFactor = 0 }()
	if _, err := importFiles(ctx, db, []string{file}, ImportOptions{TxGames: 20, Workers: 2}); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Delete(ctx, []int64{3, 50, 51, 400}, nil); err != nil {
		t.Fatal(err)
	}
	var runs, deleted int64
	db.sql.QueryRowContext(ctx, `SELECT COUNT(*) FROM pos_runs`).Scan(&runs)
	deleted, _ = posrun.Deleted(ctx, db.sql)
	if runs < 3 || deleted == 0 {
		t.Fatalf("fixture: %d runs, pos_deleted %d: want several runs and deleted games", runs, deleted)
	}
	return db, scanAll(t, db)
}

// TestCompactPositions: compaction merges every run into one, in several
// transactions, keeps every occurrence readers saw (those of deleted games
// are dropped: readers skipped them), leaves no orphan block nor merge
// named, and has nothing to do the second time.
func TestCompactPositions(t *testing.T) {
	ctx := context.Background()
	db, before := compactFixture(t, posrun.Tuning{CompactTx: 5, PagerBatch: 3})
	var runsBefore int
	db.sql.QueryRowContext(ctx, `SELECT COUNT(*) FROM pos_runs`).Scan(&runsBefore)
	var calls int
	st, err := db.CompactPositions(ctx, func(done, total int64) { calls++ })
	if err != nil {
		t.Fatal(err)
	}
	if st.Runs != runsBefore || st.Occurrences != int64(len(before)) || calls < 3 {
		t.Fatalf("compact: %+v after %d runs of %d occurrences, %d progress calls", st, runsBefore, len(before), calls)
	}
	if runs := checkRuns(t, db, "after compaction"); runs != 1 {
		t.Fatalf("%d runs after compaction", runs)
	}
	var stored int64
	db.sql.QueryRowContext(ctx, `SELECT SUM(entries) FROM pos_runs`).Scan(&stored)
	if deleted, _ := posrun.Deleted(ctx, db.sql); deleted != 0 || stored != int64(len(before)) {
		t.Fatalf("after compaction: pos_deleted %d, %d occurrences stored, %d seen before", deleted, stored, len(before))
	}
	if after := scanAll(t, db); !slices.Equal(after, before) {
		t.Fatalf("after compaction: %d occurrences, %d before", len(after), len(before))
	}
	checkGamesFound(t, db, "after compaction")
	checkFilters(t, db, "after compaction")
	if st, err := db.CompactPositions(ctx, nil); err != nil || st.Runs != 0 {
		t.Fatalf("second compaction: %+v, %v", st, err)
	}
}

// TestCompactPositionsCancelled: a compaction cancelled after some of its
// transactions leaves the runs as they were and deletes the blocks it
// stored at once.
func TestCompactPositionsCancelled(t *testing.T) {
	db, before := compactFixture(t, posrun.Tuning{CompactTx: 5, PagerBatch: 3})
	ctx, cancel := context.WithCancel(context.Background())
	var runs int
	db.sql.QueryRowContext(ctx, `SELECT COUNT(*) FROM pos_runs`).Scan(&runs)
	calls := 0
	_, err := db.CompactPositions(ctx, func(done, total int64) {
		if calls++; calls == 2 {
			cancel()
		}
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled compaction: %v", err)
	}
	if n := checkRuns(t, db, "after a cancelled compaction"); n != runs {
		t.Fatalf("%d runs after a cancelled compaction, %d before", n, runs)
	}
	if after := scanAll(t, db); !slices.Equal(after, before) {
		t.Fatalf("after a cancelled compaction: %d occurrences, %d before", len(after), len(before))
	}
}

// TestCompactPositionsWaits: compaction waits while an import (the import
// lock) or a merge (the merge lock) is in progress, saying so, and
// compacts once they end; cancelled while it waits, it returns the
// context's error and changes nothing.
func TestCompactPositionsWaits(t *testing.T) {
	db, before := compactFixture(t, posrun.Tuning{})
	notices := make(chan string, 8)
	db.notice = func(m string) { notices <- m }
	for _, name := range []string{importLockName, mergeLockName} {
		held, err := db.tryLock(name)
		if err != nil || held == nil {
			t.Fatalf("%s: %v, %v", name, held, err)
		}
		done := make(chan error, 1)
		go func() {
			_, err := db.CompactPositions(context.Background(), nil)
			done <- err
		}()
		select {
		case m := <-notices:
			if !strings.Contains(m, "waiting for it to end") {
				t.Fatalf("%s: notice %q", name, m)
			}
		case err := <-done:
			t.Fatalf("%s held: the compaction did not wait (%v)", name, err)
		}
		held.release()
		if err := <-done; err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if runs := checkRuns(t, db, "after the wait"); runs != 1 {
			t.Fatalf("%s: %d runs after the wait", name, runs)
		}
		if after := scanAll(t, db); !slices.Equal(after, before) {
			t.Fatalf("%s: %d occurrences, %d before", name, len(after), len(before))
		}
	}
	held, err := db.tryLock(importLockName)
	if err != nil || held == nil {
		t.Fatalf("import lock: %v, %v", held, err)
	}
	defer held.release()
	ctx, cancel := context.WithCancel(context.Background())
	go func() { <-notices; cancel() }()
	if _, err := db.CompactPositions(ctx, nil); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled while waiting: %v", err)
	}
}
