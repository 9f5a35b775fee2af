package index

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/plateau/plateau/index/internal/posrun"
	"github.com/plateau/plateau/internal/longtest"
)

// TestMergeLock: while an import's merge is in flight, an edit by another
// handle of the same database (a server's, another process's) neither
// merges the runs the import's merge is reading nor deletes the blocks it
// has committed; the database ends with the occurrences of the same import
// and deletions one after the other.
func TestMergeLock(t *testing.T) {
	longtest.Skip(t)
	ctx := context.Background()
	dir := t.TempDir()
	file := filepath.Join(dir, "a.pdn")
	// Enough games that the import is still going when the edit runs (its
	// last commit waits for the merge in its transaction, and would keep
	// the edit from writing).
	writeGames(t, file, "ogi", 1200, 5)
	var tuning posrun.Tuning
	open := func(sub string) *DB {
		db, err := Open(ctx, filepath.Join(dir, sub), Options{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		db.pos.Tuning = tuning
		return db
	}
	// The first merge stops at its 6th block until released (or, should
	// the import reach its last commit first, for 10 s).
	var blocks atomic.Int64
	paused, release := make(chan struct{}), make(chan struct{})
	tuning = posrun.Tuning{PagerBatch: 3}
	tuning.BeforeMergeBlock = func(context.Context) error {
		if blocks.Add(1) == 6 {
			close(paused)
			select {
			case <-release:
			case <-time.After(10 * time.Second):
			}
		}
		return nil
	}
	a, b := open("db"), open("db")
	tuning = posrun.Tuning{PagerBatch: 3}
	aDone := make(chan error, 1)
	go func() {
		_, err := importFiles(ctx, a, []string{file}, ImportOptions{TxGames: 10, Workers: 1})
		aDone <- err
	}()
	<-paused
	// Wait for a commit of a's to store the merge's first blocks.
	var run, stored int64
	deadline := time.Now().Add(30 * time.Second)
	for stored == 0 {
		if time.Now().After(deadline) {
			close(release)
			t.Fatal("the merge's first blocks were never committed")
		}
		b.sql.QueryRowContext(ctx, `SELECT COALESCE((SELECT v FROM meta WHERE k = ?), 0)`, posrun.MergingKey).Scan(&run)
		b.sql.QueryRowContext(ctx, `SELECT COUNT(*) FROM pos_blocks WHERE run = ?`, run).Scan(&stored)
		time.Sleep(5 * time.Millisecond)
	}
	srcs := func() (n int) {
		b.sql.QueryRowContext(ctx, `SELECT COUNT(*) FROM pos_runs WHERE run < ? AND level = 0`, run).Scan(&n)
		return n
	}
	before := srcs()
	deleted := []int64{1, 2, 3}
	_, err := b.Delete(ctx, deleted, nil)
	var after, named int64
	b.sql.QueryRowContext(ctx, `SELECT COUNT(*) FROM pos_blocks WHERE run = ?`, run).Scan(&after)
	b.sql.QueryRowContext(ctx, `SELECT COALESCE((SELECT v FROM meta WHERE k = ?), 0)`, posrun.MergingKey).Scan(&named)
	left := srcs()
	close(release)
	if aerr := <-aDone; err != nil || aerr != nil {
		t.Fatalf("import: %v; delete: %v", aerr, err)
	}
	if before < posrun.MaxRunsPerLevel || left != before || after < stored || named != run {
		t.Fatalf("the edit merged beside the merge in flight: %d runs of its level before the edit, %d after; the merge's run %d had %d blocks, %d after; pos_merging names %d",
			before, left, run, stored, after, named)
	}
	checkRuns(t, a, "after the import and the edit")
	ref := open("ref")
	if _, err := importFiles(ctx, ref, []string{file}, ImportOptions{TxGames: 10, Workers: 1}); err != nil {
		t.Fatal(err)
	}
	if _, err := ref.Delete(ctx, deleted, nil); err != nil {
		t.Fatal(err)
	}
	if got, want := scanAll(t, a), scanAll(t, ref); !slices.Equal(got, want) {
		t.Fatalf("%d occurrences, the same import and deletion one after the other: %d", len(got), len(want))
	}
}

// TestImportLock: an import into a database that another import (or a
// reindex) is writing waits for it, saying so, and stores nothing until
// then; cancelled while it waits, it returns the context's error.
func TestImportLock(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	file := filepath.Join(dir, "a.pdn")
	writeGames(t, file, "ogi", 30, 5)
	notices := make(chan string, 4)
	db, err := Open(ctx, filepath.Join(dir, "db"), Options{Notice: func(m string) { notices <- m }})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	held, err := db.tryLock(importLockName) // as another import holds it
	if err != nil || held == nil {
		t.Fatalf("import lock: %v, %v", held, err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := importFiles(ctx, db, []string{file}, ImportOptions{})
		done <- err
	}()
	select {
	case m := <-notices:
		if !strings.Contains(m, "waiting for it to end") {
			t.Fatalf("notice: %q", m)
		}
	case err := <-done:
		t.Fatalf("the import did not wait for the lock: %v", err)
	}
	time.Sleep(3 * importLockPoll)
	var n int
	db.sql.QueryRowContext(ctx, `SELECT COUNT(*) FROM games`).Scan(&n)
	select {
	case err := <-done:
		t.Fatalf("the import ended while the lock was held (%v), %d games stored", err, n)
	default:
	}
	held.release()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	db.sql.QueryRowContext(ctx, `SELECT COUNT(*) FROM games`).Scan(&n)
	if n != 30 {
		t.Fatalf("%d games after the wait", n)
	}

	// Cancelled while waiting; a reindex waits as an import does.
	if held, err = db.tryLock(importLockName); err != nil || held == nil {
		t.Fatalf("import lock: %v, %v", held, err)
	}
	defer held.release()
	cctx, cancel := context.WithCancel(ctx)
	go func() { <-notices; cancel() }()
	if _, err := reimportFiles(cctx, db, []string{file}, ImportOptions{}); !errors.Is(err, context.Canceled) {
		t.Fatalf("import cancelled while waiting: %v", err)
	}
	cctx, cancel = context.WithCancel(ctx)
	go func() { <-notices; cancel() }()
	if _, err := db.Reindex(cctx); !errors.Is(err, context.Canceled) {
		t.Fatalf("reindex cancelled while waiting: %v", err)
	}
}
