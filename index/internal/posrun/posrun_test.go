package posrun

import (
	"bytes"
	"context"
	"errors"
	"maps"
	"math/rand/v2"
	"runtime/metrics"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestBlockRoundTrip: the block coding gives back every occurrence in
// order, drops exact repeats, and cuts blocks at its size, also inside one
// key's list; keys cover the whole int64 range.
func TestBlockRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var in []Pos
	for _, k := range []int64{-1 << 63, -1, 0, 1, 1<<63 - 1} {
		in = append(in, Pos{k, 7}, Pos{k, 7}, Pos{k, 1 << 40})
	}
	for i := 0; i < 5000; i++ { // one key far beyond a block
		in = append(in, Pos{42, int64(i) * 3})
	}
	for i := 0; i < 20000; i++ {
		in = append(in, Pos{int64(r.Uint64()), r.Int64N(1 << 45)})
	}
	sortPositions(in, nil)
	want := slices.Compact(slices.Clone(in))
	type block struct {
		last int64
		data []byte
	}
	var blocks []block
	e := newBlockEncoder(func(last int64, data []byte) error {
		blocks = append(blocks, block{last, slices.Clone(data)})
		return nil
	})
	for _, p := range in {
		if err := e.add(p.Key, p.At); err != nil {
			t.Fatal(err)
		}
	}
	if err := e.flush(); err != nil {
		t.Fatal(err)
	}
	if e.n != int64(len(want)) {
		t.Errorf("encoder counted %d occurrences, want %d", e.n, len(want))
	}
	var got []Pos
	for _, b := range blocks {
		if len(b.data) > blockBytes+2*10 {
			t.Errorf("block of %d bytes", len(b.data))
		}
		var d blockDecoder
		d.reset(b.data)
		var last int64
		for d.next() {
			got = append(got, Pos{d.key, d.at})
			last = d.key
		}
		if d.err != nil {
			t.Fatal(d.err)
		}
		if last != b.last {
			t.Errorf("block's last key %d, indexed %d", last, b.last)
		}
	}
	if !slices.Equal(got, want) {
		t.Fatalf("decoded %d occurrences, want %d (first difference at %d)", len(got), len(want), firstDiff(got, want))
	}
	var d blockDecoder
	d.reset([]byte{0x80}) // a truncated varint
	if d.next() || d.err == nil {
		t.Error("a damaged block decoded without error")
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

// TestRunsLookupAndMerge writes occurrences as several runs (keys shared
// between runs, a key spanning many blocks and runs, repeats across runs),
// checks that a lookup of each key gives its ats in order, once, then
// merges the runs and checks that the lookups are unchanged but for the
// games no longer stored, which the merge drops.
func TestRunsLookupAndMerge(t *testing.T) {
	f := newRunsFixture(t)
	f.check("before merging", func(int64) bool { return true })
	f.mergeRuns()
	f.check("after merging", validGame)
	// The same through a read-only handle (its statements prepared once).
	dir := f.db.dir
	f.db.Close()
	f.db = openTestDB(t, dir, true)
	defer f.db.Close()
	f.check("read-only", validGame)
	f.check("read-only, again", validGame)
	f.concurrentLookups()
	f.checkReadConns()
}

// runsFixture is TestRunsLookupAndMerge's store: the keys it looks up and
// the ats each key should give (sorted, once; before the merge drops any).
type runsFixture struct {
	t    *testing.T
	ctx  context.Context
	db   *testDB
	keys []int64
	want map[int64][]int64
}

// runsGames is the number of games; 1..runsValid are valid, the rest
// invalid (a merge drops their occurrences).
const runsGames, runsValid = 300, 250

// validGame reports whether at is in a game a merge keeps.
func validGame(at int64) bool { g, _, _ := UnpackAt(at); return g <= runsValid }

// newRunsFixture writes MaxRunsPerLevel runs of random occurrences.
func newRunsFixture(t *testing.T) *runsFixture {
	ctx := context.Background()
	db := openTemp(t)
	r := rand.New(rand.NewPCG(3, 4))
	keys := []int64{-1 << 63, -5, 0, 9, 1<<63 - 1}
	for range 40 {
		keys = append(keys, int64(r.Uint64()))
	}
	want := map[int64][]int64{}
	const games = runsGames
	// Runs hold occurrences of valid games only, unless games were
	// deleted: pos_deleted counts them, as NoteDeleted does (with it at 0
	// a merge keeps every occurrence).
	addGames(t, db, games, func(id int64) bool { return id <= runsValid })
	if err := setMeta(ctx, db.sql, deletedKey, games-runsValid); err != nil {
		t.Fatal(err)
	}
	var runs [][]Pos
	for run := range MaxRunsPerLevel {
		var ps []Pos
		for i := range 3000 {
			k := keys[r.IntN(len(keys))]
			if i%3 == 0 {
				k = 42 // one key in every run, over many blocks
			}
			at := PackAt(1+r.Int64N(games), r.IntN(100), r.IntN(2))
			ps = append(ps, Pos{k, at})
			want[k] = append(want[k], at)
			if run > 0 && i%50 == 0 { // a repeat from an earlier run
				p := runs[0][i]
				ps = append(ps, p)
			}
		}
		sortPositions(ps, nil)
		runs = append(runs, ps)
		commitRun(t, db, ps)
	}
	keys = append(keys, 42, 77) // 77: in no run
	for k, ats := range want {
		slices.Sort(ats)
		want[k] = slices.Compact(ats)
	}
	return &runsFixture{t: t, ctx: ctx, db: db, keys: keys, want: want}
}

// lookup is every at of k, read through a snapshot.
func (f *runsFixture) lookup(k int64) []int64 {
	t := f.t
	pr, err := f.db.Snapshot(f.ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer pr.Close()
	var got []int64
	it := pr.Occurrences(f.ctx, k)
	for it.Next() {
		got = append(got, it.At())
	}
	if it.Err() != nil {
		t.Fatal(it.Err())
	}
	return got
}

// wantAts is the ats of k that keep keeps.
func (f *runsFixture) wantAts(k int64, keep func(at int64) bool) []int64 {
	var w []int64
	for _, at := range f.want[k] {
		if keep(at) {
			w = append(w, at)
		}
	}
	return w
}

// check looks each key up while the fences (fence.go) load (the lookups
// read the index: the loader is held until the end); through the fences,
// loaded then kept, with the runs' filters (filter.go) and without; through
// the index alone (no room for fences); through fences that do not match
// the blocks (as after a run id is used again): they are dropped and the
// index read; and with some runs fenced and some not.
func (f *runsFixture) check(stage string, keep func(at int64) bool) {
	f.t.Helper()
	for _, how := range []string{"fences loading", "fences kept", "fences without filters", "no fences", "wrong fences", "some fences"} {
		f.checkHow(stage, how, keep)
	}
}

// checkHow is one of check's ways: the fences set up as how says, every
// key looked up, then the fences left.
func (f *runsFixture) checkHow(stage, how string, keep func(at int64) bool) {
	t, db := f.t, f.db
	t.Helper()
	defer func(fb int, fe int64) { maxFenceBlocks, maxFilterEntries = fb, fe }(maxFenceBlocks, maxFilterEntries)
	db.fences.wait()
	db.fences = fenceCache{}
	f.setFences(stage, how)
	for _, k := range f.keys {
		w := f.wantAts(k, keep)
		if got := f.lookup(k); !slices.Equal(got, w) {
			t.Errorf("%s, %s: key %d: %d ats, want %d (first: %v / %v)", stage, how, k, len(got), len(w), got[:min(3, len(got))], w[:min(3, len(w))])
		}
	}
	held := len(db.fences.queue)
	db.fences.hold(db.Store, false)
	db.fences.wait()
	maxFenceBlocks = 64 << 20
	maxFilterEntries = 32 << 20
	n := 0
	for _, fc := range db.fences.runs {
		if fc.ok {
			n++
		}
	}
	if (how == "no fences") != (n == 0) {
		t.Errorf("%s, %s: %d fences kept", stage, how, n)
	}
	// While held, every run without a fence was queued once.
	if want, ok := map[string]int{"fences loading": len(db.fences.runs), "some fences": len(db.fences.runs) - 1}[how]; ok && held != want {
		t.Errorf("%s, %s: %d fences queued while held, want %d", stage, how, held, want)
	}
}

// setFences puts the empty fence cache in the state how names; checkHow
// restores the bounds it lowers.
func (f *runsFixture) setFences(stage, how string) {
	t, db := f.t, f.db
	t.Helper()
	switch how {
	case "fences loading":
		db.fences.hold(db.Store, true)
	case "fences kept", "fences without filters":
		if how == "fences without filters" {
			maxFilterEntries = 0
		}
		f.lookup(f.keys[0])
		db.fences.wait()
		for run, fc := range db.fences.runs {
			if (fc.filter != nil) != (how == "fences kept") {
				t.Fatalf("%s, %s: run %d: filter %v", stage, how, run, fc.filter != nil)
			}
		}
	case "no fences":
		maxFenceBlocks = 0
	case "some fences":
		f.lookup(f.keys[0])
		db.fences.wait()
		first := true
		for run := range db.fences.runs {
			if !first {
				delete(db.fences.runs, run)
			}
			first = false
		}
		db.fences.hold(db.Store, true)
	case "wrong fences":
		f.lookup(f.keys[0])
		db.fences.wait()
		if len(db.fences.runs) == 0 || !db.fences.runs[slices.Collect(maps.Keys(db.fences.runs))[0]].ok {
			t.Fatalf("%s: no fence kept", stage)
		}
		for _, fc := range db.fences.runs {
			for i := range fc.lasts {
				fc.lasts[i] += 3
			}
		}
	}
}

// mergeRuns merges the level-0 runs into one, and checks that the merged
// runs and their blocks are gone.
func (f *runsFixture) mergeRuns() {
	t, db, ctx := f.t, f.db, f.ctx
	var nruns int
	db.sql.QueryRowContext(ctx, `SELECT COUNT(*) FROM pos_runs`).Scan(&nruns)
	if nruns != MaxRunsPerLevel {
		t.Fatalf("%d runs, want %d", nruns, MaxRunsPerLevel)
	}
	if err := db.MergeLevels(ctx, 0); err != nil {
		t.Fatal(err)
	}
	var blocksLeft int
	db.sql.QueryRowContext(ctx, `SELECT COUNT(*) FROM pos_runs`).Scan(&nruns)
	db.sql.QueryRowContext(ctx, `SELECT COUNT(*) FROM pos_blocks WHERE run NOT IN (SELECT run FROM pos_runs)`).Scan(&blocksLeft)
	if nruns != 1 || blocksLeft != 0 {
		t.Fatalf("after merging: %d runs, %d blocks of merged runs left", nruns, blocksLeft)
	}
}

// concurrentLookups: lookups at once on a handle that has no fence yet read
// the index and queue each fence once, which the loader loads while they
// run (run with the race detector in CI).
func (f *runsFixture) concurrentLookups() {
	db := f.db
	db.fences.wait()
	db.fences = fenceCache{}
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			k := f.keys[i%len(f.keys)]
			w := f.wantAts(k, validGame)
			if got := f.lookup(k); !slices.Equal(got, w) {
				f.t.Errorf("concurrent lookup of key %d: %d ats, want %d", k, len(got), len(w))
			}
		}()
	}
	wg.Wait()
	db.fences.wait()
	if len(db.fences.runs) != 1 || !db.fences.runs[slices.Collect(maps.Keys(db.fences.runs))[0]].ok {
		f.t.Errorf("after concurrent lookups: %d fences", len(db.fences.runs))
	}
}

// checkReadConns: the lookups' connections are kept, with their statements.
func (f *runsFixture) checkReadConns() {
	db := f.db
	db.reads.mu.Lock()
	kept, stmts := len(db.reads.free), 0
	for _, rc := range db.reads.free {
		stmts += len(rc.stmts)
	}
	db.reads.mu.Unlock()
	if kept == 0 || kept > maxReadConns || stmts < kept {
		f.t.Errorf("a read-only handle keeps %d read connections with %d statements", kept, stmts)
	}
}

// TestBlocksQueriesUseIndex: reading a run's blocks seeks in
// pos_blocks_run, never scans.
func TestBlocksQueriesUseIndex(t *testing.T) {
	ctx := context.Background()
	db := openTemp(t)
	for q, want := range map[string]string{
		seekQuery:   "SEARCH pos_blocks USING INDEX pos_blocks_run (run=? AND last>?)\n",
		contQuery:   "SEARCH pos_blocks USING INDEX pos_blocks_run (run=? AND last=? AND rowid>?)\n",
		scanQuery:   "SEARCH pos_blocks USING INDEX pos_blocks_run (run=?)\n",
		fenceQuery:  "SEARCH pos_blocks USING COVERING INDEX pos_blocks_run (run=?)\n",
		blocksQuery: "SEARCH pos_blocks USING INTEGER PRIMARY KEY (rowid=?)\nLIST SUBQUERY 1\nSCAN json_each VIRTUAL TABLE INDEX 1:\n",
		firstBlocks: "",
	} {
		args := []any{1, 2, 3}
		if q == blocksQuery {
			args = []any{"[1,2]"}
		}
		rows, err := db.sql.QueryContext(ctx, `EXPLAIN QUERY PLAN `+q, args[:strings.Count(q, "?")]...)
		if err != nil {
			t.Fatal(err)
		}
		plan := ""
		for rows.Next() {
			var id, parent, notused int
			var detail string
			if err := rows.Scan(&id, &parent, &notused, &detail); err != nil {
				t.Fatal(err)
			}
			plan += detail + "\n"
		}
		rows.Close()
		if want == "" { // only seeks in pos_blocks
			if strings.Contains(plan, "SCAN pos_blocks") || strings.Contains(plan, "SCAN b") || !strings.Contains(plan, "INDEX pos_blocks_run") {
				t.Errorf("first blocks: plan:\n%s", plan)
			}
			continue
		}
		if plan != want {
			t.Errorf("%s\nplan:\n%swant:\n%s", q, plan, want)
		}
	}
}

// TestSortPositions: the radix sort orders as (key, at) comparison does,
// on keys of every sign, ats sorted or not, and a key shared by many.
func TestSortPositions(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, n := range []int{0, 1, 255, 256, 1000, 70000} {
		for _, atSorted := range []bool{false, true} {
			ps := make([]Pos, n)
			for i := range ps {
				ps[i] = Pos{int64(r.Uint64()), r.Int64N(1 << 50)}
				if i%7 == 0 {
					ps[i].Key = -3
				}
				if atSorted {
					ps[i].At = int64(i)
				}
			}
			want := slices.Clone(ps)
			slices.SortFunc(want, func(a, b Pos) int {
				if a.Key != b.Key {
					if a.Key < b.Key {
						return -1
					}
					return 1
				}
				return int(a.At - b.At)
			})
			sortPositions(ps, nil)
			if !slices.Equal(ps, want) {
				t.Errorf("n %d, ats sorted %v: order differs at %d", n, atSorted, firstDiff(ps, want))
			}
		}
	}
}

// TestSortPositionsCases: the radix sort orders as a (key, at) comparison
// sort does, with scratch memory used again from one sort to the next, on
// sizes about its thresholds, keys that are hashes, pairs k and k^1, few
// distinct keys, keys alike in their top bits, in a narrow range or in
// two clusters, and ats in order, reversed, random or all equal.
func TestSortPositionsCases(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	keyGens := map[string]func(i int) int64{
		"hashes":   func(int) int64 { return int64(r.Uint64()) },
		"pairs":    func(i int) int64 { return int64(r.Uint64())&^1 | int64(i&1) },
		"few":      func(int) int64 { return int64(r.IntN(5)) - 2 },
		"one":      func(int) int64 { return -7 },
		"9 bits":   func(int) int64 { return r.Int64N(1 << 9) },
		"14 bits":  func(int) int64 { return r.Int64N(1 << 14) },
		"20 bits":  func(int) int64 { return r.Int64N(1 << 20) },
		"top bits": func(int) int64 { return -1<<40 | r.Int64N(1<<30) },
		"clusters": func(i int) int64 {
			if i%2 == 0 {
				return int64(r.Uint64())
			}
			return 1<<62 + r.Int64N(1<<12)
		},
		"shared": func(i int) int64 { // a few keys in many games, the rest hashes
			if i%3 == 0 {
				return int64(i % 17)
			}
			return int64(r.Uint64())
		},
	}
	atGens := map[string]func(i, n int) int64{
		"in order": func(i, n int) int64 { return int64(i / 3) },
		"reversed": func(i, n int) int64 { return int64(n - i) },
		"random":   func(i, n int) int64 { return r.Int64N(1 << 40) },
		"equal":    func(i, n int) int64 { return 5 },
		"few":      func(i, n int) int64 { return int64(r.IntN(3)) },
	}
	var s Scratch
	for _, n := range []int{0, 1, 2, 23, 24, 25, 255, 256, 257, 2047, 2048, 2049, 4097, 70001, 300000} {
		for kname, kg := range keyGens {
			for aname, ag := range atGens {
				if n > 5000 && aname != "in order" && aname != "random" {
					continue
				}
				ps := make([]Pos, n)
				for i := range ps {
					ps[i] = Pos{kg(i), ag(i, n)}
				}
				want := slices.Clone(ps)
				slices.SortFunc(want, func(a, b Pos) int {
					switch {
					case a.Key < b.Key || a.Key == b.Key && a.At < b.At:
						return -1
					case a == b:
						return 0
					}
					return 1
				})
				sortPositions(ps, &s)
				if !slices.Equal(ps, want) {
					t.Errorf("n %d, keys %s, ats %s: order differs at %d", n, kname, aname, firstDiff(ps, want))
				}
			}
		}
	}
}

// TestEncodeRun: Encode gives the blocks blockEncoder gives, with its
// memory used again by runs larger and smaller than the one before.
func TestEncodeRun(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	var s Scratch
	for _, n := range []int{0, 1, 300, 20000, 5000, 120000, 10} {
		ps := make([]Pos, n)
		for i := range ps {
			ps[i] = Pos{int64(r.Uint64()), int64(i) << 20}
			switch i % 5 {
			case 1: // a key shared, or repeated occurrence
				ps[i] = ps[i-1]
			case 2:
				ps[i].Key = ps[i-1].Key
			case 3:
				ps[i].Key = 42
			}
		}
		sorted := slices.Clone(ps)
		sortPositions(sorted, nil)
		var want []encodedBlock
		e := newBlockEncoder(func(last int64, data []byte) error {
			want = append(want, encodedBlock{last: last, data: slices.Clone(data)})
			return nil
		})
		for _, p := range sorted {
			e.add(p.Key, p.At)
		}
		e.flush()
		got := Encode(ps, &s)
		if !slices.Equal(ps, sorted) {
			t.Errorf("n %d: occurrences not sorted", n)
		}
		if got.N != e.n || len(got.blocks) != len(want) {
			t.Fatalf("n %d: %d occurrences in %d blocks, want %d in %d", n, got.N, len(got.blocks), e.n, len(want))
		}
		for i, b := range got.blocks {
			if b.last != want[i].last || !bytes.Equal(b.data, want[i].data) {
				t.Fatalf("n %d: block %d differs", n, i)
			}
		}
	}
}

// BenchmarkSortPositions sorts a commit's occurrences (90 a game, 50,000
// games; keys are hashes, ats in game order).
func BenchmarkSortPositions(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	src := make([]Pos, 4_500_000)
	for i := range src {
		src[i] = Pos{int64(r.Uint64()), int64(i)}
	}
	ps := make([]Pos, len(src))
	var s Scratch
	b.ReportAllocs()
	b.SetBytes(int64(len(src)) * 16)
	for b.Loop() {
		copy(ps, src)
		sortPositions(ps, &s)
	}
}

// BenchmarkMergeRuns merges MaxRunsPerLevel runs of 250,000 occurrences
// (keys hashes, a quarter of them shared by many games, ats in game
// order) into one.
func BenchmarkMergeRuns(b *testing.B) {
	ctx := context.Background()
	db := openTemp(b)
	const games, perRun = 25_000, 250_000
	tx, err := db.sql.BeginTx(ctx, nil)
	if err != nil {
		b.Fatal(err)
	}
	for id := int64(1); id <= games; id++ {
		if _, err := tx.ExecContext(ctx, `INSERT INTO games(id, valid) VALUES(?, 1)`, id); err != nil {
			b.Fatal(err)
		}
	}
	if err := tx.Commit(); err != nil {
		b.Fatal(err)
	}
	r := rand.New(rand.NewPCG(1, 2))
	runs := make([][]Pos, MaxRunsPerLevel)
	for i := range runs {
		for j := range perRun {
			k := int64(r.Uint64())
			if j%4 == 0 { // a position of many games
				k = int64(uint64(r.Int64N(1000)+1) * 0x9e3779b97f4a7c15)
			}
			runs[i] = append(runs[i], Pos{k, PackAt(int64(1+i*games/MaxRunsPerLevel+j/80), j%80, 0)})
		}
	}
	b.ReportAllocs()
	b.SetBytes(MaxRunsPerLevel * perRun) // "MB/s": millions of occurrences a second
	for b.Loop() {
		b.StopTimer()
		tx, err := db.sql.BeginTx(ctx, nil)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM pos_blocks; DELETE FROM pos_runs`); err != nil {
			b.Fatal(err)
		}
		for _, ps := range runs {
			if err := Write(ctx, tx, ps); err != nil {
				b.Fatal(err)
			}
		}
		if err := tx.Commit(); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		if err := db.MergeLevels(ctx, 0); err != nil {
			b.Fatal(err)
		}
	}
}

// TestMergeReusesPages: a merge in one transaction deletes the blocks it
// has read as it goes, so that the merged run takes their pages: the file
// grows by a fraction of the merged run and keeps few free pages, instead
// of growing by the whole run and keeping the sources' pages free. The
// occurrences are those of the sources, less those of invalid games.
func TestMergeReusesPages(t *testing.T) {
	for _, release := range []bool{false, true} {
		t.Run(map[bool]string{false: "kept until the swap", true: "released"}[release], func(t *testing.T) {
			defer func(n int) { releaseBatch = n }(releaseBatch)
			releaseBatch = 8
			if !release {
				releaseBatch = 1 << 30 // released only at the end
			}
			ctx := context.Background()
			db := openTemp(t)
			const games = 2000
			addGames(t, db, games, func(id int64) bool { return id%10 != 0 })
			pragma := func(name string) int64 {
				var n int64
				if err := db.sql.QueryRowContext(ctx, `PRAGMA `+name).Scan(&n); err != nil {
					t.Fatal(err)
				}
				return n
			}
			r := rand.New(rand.NewPCG(5, 6))
			scan := func() []Pos {
				var got []Pos
				if err := db.Scan(ctx, func(key, at int64) error {
					got = append(got, Pos{key, at})
					return nil
				}); err != nil {
					t.Fatal(err)
				}
				return got
			}
			before := pragma("page_count")
			for range MaxRunsPerLevel {
				var ps []Pos
				for range 20000 {
					p := Pos{int64(r.Uint64()), PackAt(1+r.Int64N(games), r.IntN(100), r.IntN(2))}
					ps = append(ps, p)
				}
				commitRun(t, db, ps)
			}
			runs := pragma("page_count") - before // about the sources' pages
			var want []Pos                        // the occurrences of valid games
			for _, p := range scan() {
				if g, _, _ := UnpackAt(p.At); g%10 != 0 {
					want = append(want, p)
				}
			}
			start := pragma("page_count")
			if err := db.MergeLevels(ctx, 0); err != nil {
				t.Fatal(err)
			}
			grown, free := pragma("page_count")-start, pragma("freelist_count")
			t.Logf("sources about %d pages; the merge grew the file by %d pages and left %d free", runs, grown, free)
			if release {
				if grown > runs/4 || free > runs/4 {
					t.Errorf("released as read: the file grew by %d pages, %d free, for sources of about %d", grown, free, runs)
				}
			} else if free < runs/2 {
				t.Errorf("kept until the swap: %d free pages, sources of about %d: the test does not see the sources' pages", free, runs)
			}
			var nruns int
			db.sql.QueryRowContext(ctx, `SELECT COUNT(*) FROM pos_runs`).Scan(&nruns)
			if nruns != 1 {
				t.Fatalf("%d runs after the merge", nruns)
			}
			if got := scan(); len(want) < 100000 || !slices.Equal(got, want) {
				t.Errorf("%d occurrences after the merge, want %d", len(got), len(want))
			}
		})
	}
}

// TestMergeTail: an import's end merges the runs after the first one that
// outweighs them (two or more, within the budget) into one; the
// occurrences are those before, and the largest run is not rewritten.
func TestMergeTail(t *testing.T) {
	ctx := context.Background()
	db := openTemp(t)
	const games = 500
	addGames(t, db, games, func(int64) bool { return true })
	r := rand.New(rand.NewPCG(7, 8))
	run := func(n int) {
		var ps []Pos
		for range n {
			ps = append(ps, Pos{int64(r.Uint64() % 5000), PackAt(1+r.Int64N(games), r.IntN(100), r.IntN(2))})
		}
		sortPositions(ps, nil)
		commitRun(t, db, ps)
	}
	runs := func() (ids []int64) {
		rows, err := db.sql.QueryContext(ctx, `SELECT run FROM pos_runs ORDER BY entries DESC`)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		for rows.Next() {
			var id int64
			rows.Scan(&id)
			ids = append(ids, id)
		}
		return ids
	}
	run(100000) // three levels: no level merge
	run(5000)
	before := scanAll(t, db)
	for _, c := range []struct {
		stage  string
		add    int   // a run of this many occurrences first
		budget int64 // mergeTail's
		runs   int   // runs after
	}{
		{"two runs: nothing to merge", 0, 1 << 40, 2},
		{"three runs over the budget", 300, 5299, 3},
		{"three runs within it", 0, 5300, 2},
		{"no budget (not an import's end)", 400, 0, 3},
		{"a tail larger than the largest run: the second outweighs the rest", 98000, 1 << 40, 3},
		{"one run after the one that outweighs it", 0, 1 << 40, 3},
	} {
		if c.add > 0 {
			run(c.add)
			before = scanAll(t, db)
		}
		largest := runs()[0]
		if err := db.MergeLevels(ctx, c.budget); err != nil {
			t.Fatal(err)
		}
		ids := runs()
		if len(ids) != c.runs || ids[0] != largest {
			t.Fatalf("%s: runs %v, want %d with %d first", c.stage, ids, c.runs, largest)
		}
		checkRuns(t, db, c.stage)
		if after := scanAll(t, db); !slices.Equal(after, before) {
			t.Fatalf("%s: %d occurrences, %d before", c.stage, len(after), len(before))
		}
	}
}

// TestTailOf: the tail merged at an import's end is the runs after the
// first one that outweighs them together, two runs at least, within the
// budget.
func TestTailOf(t *testing.T) {
	for _, c := range []struct {
		name    string
		entries []int64
		budget  int64
		want    int
	}{
		{"no run", nil, 1 << 40, -1},
		{"one run", []int64{100}, 1 << 40, -1},
		{"one run after the largest: nothing to merge", []int64{100, 5}, 1 << 40, -1},
		{"two small runs after the largest", []int64{100, 5, 3}, 1 << 40, 0},
		{"a tail almost as large as the largest", []int64{100, 60, 30, 5}, 1 << 40, 0},
		{"a tail as large as the largest", []int64{100, 60, 30, 10}, 1 << 40, 0},
		{"a tail larger than the largest: the next run outweighs the rest", []int64{100, 80, 30, 5}, 1 << 40, 1},
		{"two runs after the second", []int64{100, 80, 70, 5}, 1 << 40, 1},
		{"only one run after the one that outweighs it", []int64{100, 80, 70, 60}, 1 << 40, -1},
		{"equal runs", []int64{10, 10, 10}, 1 << 40, -1},
		{"over the budget", []int64{100, 5, 3}, 7, -1},
		{"within the budget", []int64{100, 5, 3}, 8, 0},
		{"the first tail over the budget, the next within it", []int64{100, 60, 30, 5}, 40, 1},
	} {
		if got := tailOf(c.entries, c.budget); got != c.want {
			t.Errorf("%s: tailOf(%v, %d) = %d, want %d", c.name, c.entries, c.budget, got, c.want)
		}
	}
}

// TestReadConnsKept: a snapshot's connection is kept for the next one, with
// its statements (at most maxReadConns of them idle); under a bound on the
// pool, two connections at least are left to other queries and the fence
// loader; a connection idle for readConnIdle is closed; Close closes them
// all.
func TestReadConnsKept(t *testing.T) {
	ctx := context.Background()
	db := openTemp(t)
	kept := func() (n, stmts int) {
		db.reads.mu.Lock()
		defer db.reads.mu.Unlock()
		for _, rc := range db.reads.free {
			stmts += len(rc.stmts)
		}
		return len(db.reads.free), stmts
	}
	// snapshots opens n snapshots at once, runs a lookup in each, and
	// closes them.
	snapshots := func(n int) {
		var rs []*Snapshot
		for range n {
			r, err := db.Snapshot(ctx)
			if err != nil {
				t.Fatal(err)
			}
			it := r.Occurrences(ctx, 42)
			for it.Next() {
			}
			if it.Err() != nil {
				t.Fatal(it.Err())
			}
			rs = append(rs, r)
		}
		for _, r := range rs {
			r.Close()
		}
	}
	commitRun(t, db, []Pos{{42, PackAt(1, 0, 0)}})
	db.fences.hold(db.Store, true) // no fence loader and its connection
	snapshots(1)
	if n, stmts := kept(); n != 1 || stmts == 0 {
		t.Fatalf("after one snapshot: %d connections kept, %d statements", n, stmts)
	}
	_, first := kept()
	snapshots(1)
	if n := db.sql.Stats().OpenConnections; n != 1 {
		t.Errorf("a second snapshot opened a connection: %d open", n)
	}
	// Its statements, the list of runs included, were prepared by the
	// first (BEGIN and ROLLBACK, by the connection's first take).
	if _, stmts := kept(); stmts != first {
		t.Errorf("the second snapshot prepared %d statements more", stmts-first)
	}
	if rc := db.reads.free[0]; rc.stmts[runsQuery] == nil || rc.begin == nil || rc.rollback == nil {
		t.Error("the list of runs, BEGIN or ROLLBACK is not kept prepared")
	}
	snapshots(maxReadConns + 3)
	if n, _ := kept(); n != maxReadConns {
		t.Errorf("after %d snapshots at once: %d kept, want %d", maxReadConns+3, n, maxReadConns)
	}
	db.sql.SetMaxOpenConns(4)
	db.reads.close()
	db.reads = readConns{}
	snapshots(3)
	if n, _ := kept(); n != 2 {
		t.Errorf("pool of 4, three snapshots at once: %d kept, want 2", n)
	}
	db.reads.close()
	db.reads = readConns{}
	db.sql.SetMaxOpenConns(0)
	defer func(d time.Duration) { readConnIdle = d }(readConnIdle)
	readConnIdle = 20 * time.Millisecond
	snapshots(2)
	if n, _ := kept(); n != 2 {
		t.Fatalf("%d kept, want 2", n)
	}
	deadline := time.Now().Add(5 * time.Second)
	for n, _ := kept(); n > 0 && time.Now().Before(deadline); n, _ = kept() {
		time.Sleep(5 * time.Millisecond)
	}
	if n, _ := kept(); n != 0 {
		t.Errorf("%d connections kept after %v idle", n, readConnIdle)
	}
}

// TestLookupQuietContext: a snapshot's statements run without the caller's
// context's end (no goroutine a query or statement under a server's
// request context), and the lookup's loops check it instead: a context
// that ends while the occurrences of a key are read ends the iteration
// with its error, within checkEvery ats.
func TestLookupQuietContext(t *testing.T) {
	ctx := context.Background()
	db := openTemp(t)
	addGames(t, db, 3000, func(int64) bool { return true })
	var ps []Pos
	for g := range int64(3000) {
		ps = append(ps, Pos{42, PackAt(1+g, 0, 0)}, Pos{42, PackAt(1+g, 1, 0)})
	}
	sortPositions(ps, nil)
	commitRun(t, db, ps)
	db.fences.hold(db.Store, true)

	cctx, cancel := context.WithCancel(ctx)
	defer cancel()
	// Goroutines started while the snapshot reads: none.
	started := func() uint64 {
		s := []metrics.Sample{{Name: "/sched/goroutines-created:goroutines"}}
		metrics.Read(s)
		return s[0].Value.Uint64()
	}
	r, err := db.Snapshot(cctx)
	if err != nil {
		t.Fatal(err)
	}
	g0 := started()
	it := r.Occurrences(cctx, 42)
	n := 0
	for n < 1000 && it.Next() {
		n++
	}
	if g := started() - g0; g != 0 {
		t.Errorf("%d goroutines started by a lookup under a context that can end", g)
	}
	cancel()
	for it.Next() {
		n++
	}
	r.Close()
	if !errors.Is(it.Err(), context.Canceled) || n >= 1000+checkEvery {
		t.Errorf("after cancel: %d ats in all (of 6000), err %v; want context.Canceled within %d", n, it.Err(), checkEvery)
	}
	// A snapshot opened under an ended context is refused.
	if _, err := db.Snapshot(cctx); !errors.Is(err, context.Canceled) {
		t.Errorf("snapshot under an ended context: %v", err)
	}
}

// wait waits until no fence is queued or being loaded (tests).
func (c *fenceCache) wait() {
	for {
		c.mu.Lock()
		busy := c.loading || (len(c.queue) > 0 && !c.held)
		c.mu.Unlock()
		if !busy {
			// The loader clears loading before its deferred wg.Done: wait
			// for it to return, or a test that replaces the cache next
			// zeroes a WaitGroup it still has to call Done on.
			c.wg.Wait()
			return
		}
		time.Sleep(time.Millisecond)
	}
}

// hold stops (true) or resumes (false) the loading of fences (tests).
func (c *fenceCache) hold(s *Store, on bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.held = on
	if !on {
		c.startLocked(s)
	}
}
