package posrun

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestRunFilter: a filter holds every key added to it (keys that are
// hashes, pairs k and k^1 as a position's two stored keys, the ends of the
// key space) and rules out all but about 1 in 100 others.
func TestRunFilter(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, n := range []int{1, 7, 1000, 200000} {
		f := newRunFilter(int64(n))
		if got, want := f.bytes(), int(newRunFilterBytes(int64(n))); got != want || got*8 < n*filterBitsPerEntry {
			t.Fatalf("%d entries: %d bytes, want %d (at least %d bits)", n, got, want, n*filterBitsPerEntry)
		}
		keys := []int64{-1 << 63, 1<<63 - 1, 0}
		for len(keys) < n {
			k := int64(r.Uint64())
			keys = append(keys, k, k^adjacentDeepSalt)
		}
		keys = keys[:max(n, 3)]
		slices.Sort(keys)
		for _, k := range keys {
			f.add(k)
		}
		for _, k := range keys {
			if !f.has(k) {
				t.Fatalf("%d entries: key %d added, not held", n, k)
			}
		}
		if n < 1000 {
			continue
		}
		fp, tries := 0, 100000
		for range tries {
			k := int64(r.Uint64())
			if _, found := slices.BinarySearch(keys, k); !found && f.has(k) {
				fp++
			}
		}
		if rate := float64(fp) / float64(tries); rate > 0.02 {
			t.Errorf("%d entries: %.2f%% of absent keys held, want at most 2%%", n, 100*rate)
		}
	}
}

// TestRunFilterSkipsRuns: with its runs' filters loaded, a lookup reads a
// block of the run that holds its key and of about 1 run in 100 that does
// not; with none, a block of every run. It finds the same occurrences.
func TestRunFilterSkipsRuns(t *testing.T) {
	ctx := context.Background()
	db := openTemp(t)
	addGames(t, db, 100, func(int64) bool { return true })
	r := rand.New(rand.NewPCG(7, 8))
	const runs = 8
	var inRun [runs][]int64
	for run := range runs {
		var ps []Pos
		for i := range 2000 {
			k := int64(r.Uint64())
			inRun[run] = append(inRun[run], k)
			ps = append(ps, Pos{k, PackAt(1+int64(i%100), i/100, 0)})
		}
		sortPositions(ps, nil)
		commitRun(t, db, ps)
	}
	var absent []int64
	for range 500 {
		absent = append(absent, int64(r.Uint64()))
	}
	lookup := func(keys ...int64) (ats, blocks int) {
		pr, err := db.Snapshot(ctx)
		if err != nil {
			t.Fatal(err)
		}
		defer pr.Close()
		it := pr.Occurrences(ctx, keys...)
		for it.Next() {
			ats++
		}
		if it.Err() != nil {
			t.Fatal(it.Err())
		}
		return ats, pr.blocks
	}
	for _, filters := range []bool{false, true} {
		db.fences.wait()
		db.fences = fenceCache{}
		if !filters {
			defer func(n int64) { maxFilterEntries = n }(maxFilterEntries)
			maxFilterEntries = 0
		}
		lookup(0, 1)
		db.fences.wait()
		maxFilterEntries = 32 << 20
		present, other, deep := 0, 0, 0
		for run := range runs {
			for _, k := range inRun[run][:50] {
				ats, blocks := lookup(k, k^db.deepSalt)
				if ats != 1 {
					t.Fatalf("filters %v: key %d of run %d: %d occurrences, want 1", filters, k, run, ats)
				}
				present += blocks
				// As an opening tree reads the other stored key alone.
				ats, blocks = lookup(k ^ db.deepSalt)
				if ats != 0 {
					t.Fatalf("filters %v: key %d of run %d: %d occurrences of its neighbour, want 0", filters, k, run, ats)
				}
				deep += blocks
			}
		}
		for _, k := range absent {
			ats, blocks := lookup(k, k^db.deepSalt)
			if ats != 0 {
				t.Fatalf("filters %v: absent key %d: %d occurrences", filters, k, ats)
			}
			other += blocks
		}
		t.Logf("filters %v: %d blocks for %d present keys, %d for their neighbours alone, %d for %d absent keys", filters, present, runs*50, deep, other, len(absent))
		if !filters {
			if present != runs*50*runs || other != len(absent)*runs || deep != runs*50*runs {
				t.Errorf("no filters: %d, %d and %d blocks read, want a block a run and key: %d, %d and %d", present, deep, other, runs*50*runs, runs*50*runs, len(absent)*runs)
			}
			continue
		}
		// The neighbour shares its key's cache line, not its bits.
		if limit := runs * 50 * runs * 2 / 100; deep > limit {
			t.Errorf("filters: %d blocks for %d keys held by no run, each the neighbour of a held key, want at most %d", deep, runs*50, limit)
		}
		// At most 3% of the runs that do not hold the key (a test for
		// each of its two stored keys).
		if limit := runs*50 + runs*50*(runs-1)*3/100; present < runs*50 || present > limit {
			t.Errorf("filters: %d blocks for %d keys held by one run, want %d to %d", present, runs*50, runs*50, limit)
		}
		if limit := len(absent) * runs * 3 / 100; other > limit {
			t.Errorf("filters: %d blocks for %d absent keys, want at most %d", other, len(absent), limit)
		}
	}
}

// TestRunIDsNotReused: a run id merged away is not given again, even when
// the merge leaves no run (every game deleted): a handle's fence and
// filter of a run id hold for as long as it is listed.
func TestRunIDsNotReused(t *testing.T) {
	ctx := context.Background()
	db := openTemp(t)
	addGames(t, db, 10, func(int64) bool { return false })
	if err := setMeta(ctx, db.sql, deletedKey, 10); err != nil {
		t.Fatal(err)
	}
	ps := []Pos{{5, PackAt(1, 0, 0)}, {9, PackAt(2, 3, 0)}}
	commitRun(t, db, ps)
	commitRun(t, db, ps)
	if _, err := db.Compact(ctx, nil); err != nil {
		t.Fatal(err)
	}
	var listed, high int64
	db.sql.QueryRowContext(ctx, `SELECT COUNT(*) FROM pos_runs`).Scan(&listed)
	if listed != 0 {
		t.Fatalf("%d runs after merging runs of deleted games only, want 0", listed)
	}
	high, err := metaInt(ctx, db.sql, posRunHighKey)
	if err != nil || high != 3 {
		t.Fatalf("highest run id given: %d (%v), want 3 (two runs and their merge)", high, err)
	}
	commitRun(t, db, ps)
	var run int64
	if err := db.sql.QueryRowContext(ctx, `SELECT run FROM pos_runs`).Scan(&run); err != nil || run != 4 {
		t.Errorf("next run: %d (%v), want 4", run, err)
	}
}

// TestFencesPruned: once runs are merged away, the loader forgets their
// fences and filters (they held memory, and room under maxFilterBytes,
// for as long as the handle lived), and the bounds' accounts match what
// is kept.
func TestFencesPruned(t *testing.T) {
	ctx := context.Background()
	db := openTemp(t)
	addGames(t, db, 100, func(int64) bool { return true })
	r := rand.New(rand.NewPCG(9, 10))
	for range MaxRunsPerLevel {
		var ps []Pos
		for i := range 1000 {
			ps = append(ps, Pos{int64(r.Uint64()), PackAt(1+int64(i%100), i/100, 0)})
		}
		sortPositions(ps, nil)
		commitRun(t, db, ps)
	}
	lookup := func() {
		pr, err := db.Snapshot(ctx)
		if err != nil {
			t.Fatal(err)
		}
		defer pr.Close()
		it := pr.Occurrences(ctx, 5, 4)
		for it.Next() {
		}
		if it.Err() != nil {
			t.Fatal(it.Err())
		}
	}
	check := func(stage string, want int) {
		t.Helper()
		lookup()
		db.fences.wait()
		c := &db.fences
		c.mu.Lock()
		defer c.mu.Unlock()
		blocks, filters := 0, 0
		for _, f := range c.runs {
			if !f.ok || f.filter == nil {
				t.Errorf("%s: a fence not kept, or without its filter", stage)
				continue
			}
			blocks += len(f.lasts)
			filters += f.filter.bytes()
		}
		if len(c.runs) != want || c.blocks != blocks || c.filters != filters {
			t.Errorf("%s: %d fences (want %d), accounts %d blocks and %d filter bytes, for %d and %d kept",
				stage, len(c.runs), want, c.blocks, c.filters, blocks, filters)
		}
	}
	check("before merging", MaxRunsPerLevel)
	checkFilters(t, db, "before merging")
	if err := db.MergeLevels(ctx, 0); err != nil {
		t.Fatal(err)
	}
	check("after merging", 1)
	checkFilters(t, db, "after merging")
}

// BenchmarkLookupRuns: the occurrences of a key held by one run of
// sixteen (as a middle-game position during an import), through the
// fences with the runs' filters and without.
func BenchmarkLookupRuns(b *testing.B) {
	ctx := context.Background()
	db := openTemp(b)
	const runs, perRun = 16, 200000
	addGames(b, db, 1000, func(int64) bool { return true })
	r := rand.New(rand.NewPCG(11, 12))
	var held []int64
	for range runs {
		ps := make([]Pos, 0, perRun)
		for i := range perRun {
			k := int64(r.Uint64())
			ps = append(ps, Pos{k, PackAt(1+int64(i%1000), i/1000, 0)})
			if i%1000 == 0 {
				held = append(held, k)
			}
		}
		sortPositions(ps, nil)
		tx, err := db.sql.BeginTx(ctx, nil)
		if err != nil {
			b.Fatal(err)
		}
		if err := Write(ctx, tx, ps); err != nil {
			b.Fatal(err)
		}
		if err := tx.Commit(); err != nil {
			b.Fatal(err)
		}
	}
	lookup := func(k int64) {
		pr, err := db.Snapshot(ctx)
		if err != nil {
			b.Fatal(err)
		}
		defer pr.Close()
		it := pr.Occurrences(ctx, k, k^db.deepSalt)
		n := 0
		for it.Next() {
			n++
		}
		if it.Err() != nil || n != 1 {
			b.Fatalf("key %d: %d occurrences (%v), want 1", k, n, it.Err())
		}
	}
	for _, filters := range []bool{true, false} {
		b.Run(map[bool]string{true: "filters", false: "no-filters"}[filters], func(b *testing.B) {
			db.fences.wait()
			db.fences = fenceCache{}
			if !filters {
				defer func(n int64) { maxFilterEntries = n }(maxFilterEntries)
				maxFilterEntries = 0
			}
			lookup(held[0])
			db.fences.wait()
			b.ResetTimer()
			for i := range b.N {
				lookup(held[i%len(held)])
			}
		})
	}
}

// TestFiltersTableAdded: a database of layout 7 made before filters (no
// pos_filters) is read by a read-only handle without filters, and a
// writable open adds the table; its runs then get filters as they are
// written.
func TestFiltersTableAdded(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	db := openTestDB(t, dir, false)
	addGames(t, db, 10, func(int64) bool { return true })
	ps := []Pos{{5, PackAt(1, 0, 0)}, {9, PackAt(2, 3, 0)}}
	commitRun(t, db, ps)
	if _, err := db.sql.ExecContext(ctx, `DROP TABLE pos_filters`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	lookup := func(db *testDB, key int64) int {
		pr, err := db.Snapshot(ctx)
		if err != nil {
			t.Fatal(err)
		}
		defer pr.Close()
		it := pr.Occurrences(ctx, key)
		n := 0
		for it.Next() {
			n++
		}
		if it.Err() != nil {
			t.Fatal(it.Err())
		}
		return n
	}
	ro := openTestDB(t, dir, true)
	for range 2 { // through the index, then through the fence
		if n := lookup(ro, 9); n != 1 {
			t.Errorf("read-only, no pos_filters: %d occurrences, want 1", n)
		}
		ro.fences.wait()
	}
	for _, f := range ro.fences.runs {
		if !f.ok || f.filter != nil {
			t.Errorf("read-only, no pos_filters: fence kept %v, filter %v", f.ok, f.filter != nil)
		}
	}
	ro.Close()
	db = openTestDB(t, dir, false)
	defer db.Close()
	commitRun(t, db, []Pos{{11, PackAt(3, 0, 0)}})
	var filters int
	if err := db.sql.QueryRowContext(ctx, `SELECT COUNT(*) FROM pos_filters`).Scan(&filters); err != nil || filters != 1 {
		t.Errorf("after a writable open and a run: %d filters (%v), want 1", filters, err)
	}
}

// FuzzDecodeRunFilter: any stored bytes decode to no filter or to one that
// answers for every key and encodes back to the same bytes.
func FuzzDecodeRunFilter(f *testing.F) {
	g := newRunFilter(100)
	g.add(5)
	g.add(-1 << 63)
	f.Add(g.encode(), int64(5))
	f.Add([]byte{1, 2, 3}, int64(0))
	f.Add(make([]byte, 64), int64(1<<63-1))
	f.Fuzz(func(t *testing.T, b []byte, key int64) {
		r := decodeRunFilter(b)
		if r == nil {
			return
		}
		r.has(key)
		r.has(key ^ 1)
		if !slices.Equal(r.encode(), b) {
			t.Fatalf("%d bytes decode and encode to others", len(b))
		}
		r.add(key)
		if !r.has(key) {
			t.Fatalf("key %d added, not held", key)
		}
	})
}
