package posrun

import (
	"context"
	"math/rand/v2"
	"testing"
)

// TestDropLargeFilters: runs written while the bound was higher keep
// filters above the new bound until DropLargeFilters deletes them, and
// only them; the check then finds nothing to report, and lookups find
// the same occurrences.
func TestDropLargeFilters(t *testing.T) {
	ctx := context.Background()
	db := openTemp(t)
	addGames(t, db, 100, func(int64) bool { return true })
	r := rand.New(rand.NewPCG(9, 10))
	var keys []int64
	for run, n := range []int{300, 3000, 500, 2000} { // runs 1 and 3 over the new bound
		var ps []Pos
		for i := range n {
			k := int64(r.Uint64())
			keys = append(keys, k)
			ps = append(ps, Pos{k, PackAt(1+int64(i%100), i/100, run%2)})
		}
		sortPositions(ps, nil)
		commitRun(t, db, ps)
	}
	count := func() (n int) {
		if err := db.sql.QueryRowContext(ctx, `SELECT COUNT(*) FROM pos_filters`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	if n := count(); n != 4 {
		t.Fatalf("%d filters, want one a run", n)
	}
	defer func(n int64) { maxFilterEntries = n }(maxFilterEntries)
	maxFilterEntries = 1000
	tx, err := db.sql.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	dropped, err := DropLargeFilters(ctx, tx)
	if err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	if dropped != 2 || count() != 2 {
		t.Errorf("%d filters dropped, %d left; want 2 and 2", dropped, count())
	}
	var small int
	if err := db.sql.QueryRowContext(ctx, `SELECT COUNT(*) FROM pos_filters f JOIN pos_runs r ON r.run = f.run WHERE r.entries <= 1000`).Scan(&small); err != nil || small != 2 {
		t.Errorf("%d filters of runs under the bound left, %v; want 2", small, err)
	}
	if problems, err := db.CheckFilters(ctx); err != nil || len(problems) != 0 {
		t.Errorf("check: %q, %v", problems, err)
	}
	pr, err := db.Snapshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer pr.Close()
	for i := 0; i < len(keys); i += 97 {
		k := keys[i]
		it := pr.Occurrences(ctx, k)
		n := 0
		for it.Next() {
			n++
		}
		if it.Err() != nil || n != 1 {
			t.Fatalf("key %d: %d occurrences, %v; want 1", k, n, it.Err())
		}
	}
}
