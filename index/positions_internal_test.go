package index

import (
	"context"
	"math"
	"runtime/metrics"
	"testing"

	"github.com/plateau/plateau/rules"
)

// TestTreeQuietContext: an opening tree reads the aggregate and the
// occurrences in one snapshot on a kept read connection: under a context
// that can end it starts no goroutine once its connection is kept.
func TestTreeQuietContext(t *testing.T) {
	db := openTemp(t)
	addGames(t, db, 10, func(int64) bool { return true }) // no run: no fence loader
	g, err := rules.Lookup("ogi")
	if err != nil {
		t.Fatal(err)
	}
	start, err := g.NewPosition("")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if _, err := db.Tree(ctx, "ogi", start); err != nil { // takes and keeps a connection
		t.Fatal(err)
	}
	// The counter is the process's: a collection's mark workers or a
	// goroutine of a test before may start during one pass. A tree that
	// starts a goroutine starts one in every pass, so the fewest of three
	// passes is the trees' own.
	least := uint64(math.MaxUint64)
	for range 3 {
		s := []metrics.Sample{{Name: "/sched/goroutines-created:goroutines"}}
		metrics.Read(s)
		g0 := s[0].Value.Uint64()
		for range 10 {
			if _, err := db.Tree(ctx, "ogi", start); err != nil {
				t.Fatal(err)
			}
		}
		metrics.Read(s)
		least = min(least, s[0].Value.Uint64()-g0)
	}
	if least != 0 {
		t.Errorf("%d goroutines started by 10 trees under a context that can end (the fewest of three passes)", least)
	}
}

// openTemp opens a new writable database in a temporary directory, closed
// when the test ends.
func openTemp(t *testing.T) *DB {
	t.Helper()
	db, err := Open(context.Background(), t.TempDir(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// addGames stores games 1..n (rows without moves or text), valid as valid
// says.
func addGames(t *testing.T, db *DB, n int64, valid func(id int64) bool) {
	t.Helper()
	for id := int64(1); id <= n; id++ {
		if _, err := db.sql.ExecContext(context.Background(), `INSERT INTO games(id, hash, game, valid, plies, tblock, toff, tlen) VALUES(?, ?, 'ogi', ?, 0, 0, 0, 0)`,
			id, []byte{byte(id), byte(id >> 8)}, valid(id)); err != nil {
			t.Fatal(err)
		}
	}
}

// firstDiff is the index of the first element where a and b differ.
func firstDiff[T comparable](a, b []T) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}
