package index

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"testing"
)

// compactFixture imports 600 Ōgi games in transactions of 20 (several
// runs) and deletes some, so that the runs hold occurrences of deleted
// games; it returns the database and the occurrences readers see.
func compactFixture(t *testing.T) (*DB, [][4]int64) {
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
	if _, err := db.Import(ctx, []string{file}, ImportOptions{TxGames: 20, Workers: 2}); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Delete(ctx, []int64{3, 50, 51, 400}, nil); err != nil {
		t.Fatal(err)
	}
	var runs, deleted int64
	db.sql.QueryRowContext(ctx, `SELECT COUNT(*) FROM pos_runs`).Scan(&runs)
	deleted, _ = db.metaInt(ctx, db.sql, posDeletedKey)
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
	defer func(n, b int) { compactTx, pagerBatch = n, b }(compactTx, pagerBatch)
	compactTx, pagerBatch = 5, 3
	db, before := compactFixture(t)
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
	if deleted, _ := db.metaInt(ctx, db.sql, posDeletedKey); deleted != 0 || stored != int64(len(before)) {
		t.Fatalf("after compaction: pos_deleted %d, %d occurrences stored, %d seen before", deleted, stored, len(before))
	}
	if after := scanAll(t, db); !slices.Equal(after, before) {
		t.Fatalf("after compaction: %d occurrences, %d before", len(after), len(before))
	}
	checkGamesFound(t, db, "after compaction")
	if st, err := db.CompactPositions(ctx, nil); err != nil || st.Runs != 0 {
		t.Fatalf("second compaction: %+v, %v", st, err)
	}
}

// TestCompactPositionsCancelled: a compaction cancelled after some of its
// transactions leaves the runs as they were and deletes the blocks it
// stored at once.
func TestCompactPositionsCancelled(t *testing.T) {
	defer func(n, b int) { compactTx, pagerBatch = n, b }(compactTx, pagerBatch)
	compactTx, pagerBatch = 5, 3
	db, before := compactFixture(t)
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

// TestCompactPositionsBusy: while another writer holds the merge lock,
// compaction refuses at once.
func TestCompactPositionsBusy(t *testing.T) {
	db, _ := compactFixture(t)
	lock, err := db.tryMergeLock()
	if err != nil || lock == nil {
		t.Fatalf("merge lock: %v, %v", lock, err)
	}
	defer lock.release()
	if _, err := db.CompactPositions(context.Background(), nil); !errors.Is(err, ErrMergeBusy) {
		t.Fatalf("compaction while the merge lock is held: %v", err)
	}
}
