package index

import (
	"context"
	"encoding/hex"
	"fmt"
	"path/filepath"
	"slices"
	"sync/atomic"
	"testing"
	"time"
)

// byHash lists a database's occurrences with each game id replaced by its
// game's hash, sorted: two databases holding the same games in another id
// order list the same.
func byHash(t *testing.T, db *DB) []string {
	t.Helper()
	hashes := map[int64]string{}
	rows, err := db.sql.QueryContext(context.Background(), `SELECT id, hash FROM games`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var id int64
		var h []byte
		if err := rows.Scan(&id, &h); err != nil {
			t.Fatal(err)
		}
		hashes[id] = hex.EncodeToString(h)
	}
	rows.Close()
	var out []string
	for _, o := range scanAll(t, db) {
		out = append(out, fmt.Sprintf("%016x %s %d %d", uint64(o[0]), hashes[o[1]], o[2], o[3]))
	}
	slices.Sort(out)
	return out
}

// TestMergeLock: while one writer's merge is in flight, a second writer
// of the same database (another handle, as another process has) neither
// deletes the blocks the merge has committed, taking them for those of a
// merge cut short, nor merges the same runs; both imports end with the
// occurrences of the same imports one after the other.
func TestMergeLock(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	files := []string{filepath.Join(dir, "a.pdn"), filepath.Join(dir, "b.pdn")}
	// a's import outlasts b's: a's last commit, which waits for the
	// merge in its transaction, would keep b from writing.
	writeGames(t, files[0], "ogi", 1200, 5)
	writeGames(t, files[1], "ogi", 60, 6)
	defer func(n int) { pagerBatch = n }(pagerBatch)
	pagerBatch = 3
	open := func(sub string) *DB {
		db, err := Open(ctx, filepath.Join(dir, sub), Options{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		return db
	}
	// The first merge stops at its 6th block until released (or, should
	// a's import reach its last commit first, for 10 s).
	var blocks atomic.Int64
	paused, release := make(chan struct{}), make(chan struct{})
	testMergeBlock = func(context.Context) error {
		if blocks.Add(1) == 6 {
			close(paused)
			select {
			case <-release:
			case <-time.After(10 * time.Second):
			}
		}
		return nil
	}
	defer func() { testMergeBlock = nil }()
	a, b := open("db"), open("db")
	aDone := make(chan error, 1)
	go func() {
		_, err := a.Import(ctx, []string{files[0]}, ImportOptions{TxGames: 10, Workers: 1})
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
		b.sql.QueryRowContext(ctx, `SELECT COALESCE((SELECT v FROM meta WHERE k = ?), 0)`, posMergingKey).Scan(&run)
		b.sql.QueryRowContext(ctx, `SELECT COUNT(*) FROM pos_blocks WHERE run = ?`, run).Scan(&stored)
		time.Sleep(5 * time.Millisecond)
	}
	_, err := b.Import(ctx, []string{files[1]}, ImportOptions{TxGames: 10, Workers: 1})
	var after, named int64
	b.sql.QueryRowContext(ctx, `SELECT COUNT(*) FROM pos_blocks WHERE run = ?`, run).Scan(&after)
	b.sql.QueryRowContext(ctx, `SELECT COALESCE((SELECT v FROM meta WHERE k = ?), 0)`, posMergingKey).Scan(&named)
	close(release)
	if aerr := <-aDone; err != nil || aerr != nil {
		t.Fatalf("imports: %v, %v", aerr, err)
	}
	if after < stored || named != run {
		t.Fatalf("the second writer took the merge in flight for an orphan: run %d had %d blocks, %d after the second import; pos_merging names %d", run, stored, after, named)
	}
	checkRuns(t, a, "after both imports")
	ref := open("ref")
	for _, f := range files {
		if _, err := ref.Import(ctx, []string{f}, ImportOptions{TxGames: 10, Workers: 1}); err != nil {
			t.Fatal(err)
		}
	}
	if got, want := byHash(t, a), byHash(t, ref); !slices.Equal(got, want) {
		t.Fatalf("%d occurrences, the same imports one after the other: %d", len(got), len(want))
	}
}
