package bench

import (
	"bytes"
	"strings"
	"testing"

	"github.com/google/pprof/profile"
)

// TestParts: each sample counts once, under the first part rule its stack
// holds (the innermost owner: zstd under the writer, the tree aggregate's
// SQLite under the tree aggregate), cgo and allocation told within.
func TestParts(t *testing.T) {
	var fns []*profile.Function
	var locs []*profile.Location
	loc := func(name string) *profile.Location {
		f := &profile.Function{ID: uint64(len(fns) + 1), Name: name}
		l := &profile.Location{ID: uint64(len(locs) + 1), Line: []profile.Line{{Function: f}}}
		fns, locs = append(fns, f), append(locs, l)
		return l
	}
	writer := loc("github.com/plateau/plateau/index/internal/writer.(*txn).commit")
	tree := loc("github.com/plateau/plateau/index/internal/treeagg.Flush")
	exec := loc("github.com/mattn/go-sqlite3.(*SQLiteStmt).exec")
	cgo := loc("runtime.cgocall")
	zstd := loc("github.com/klauspost/compress/zstd.(*Encoder).EncodeAll")
	malloc := loc("runtime.mallocgc")
	replay := loc("github.com/plateau/plateau/replay.(*replayer).line")
	gc := loc("runtime.gcBgMarkWorker")
	prepare := loc("github.com/plateau/plateau/index/internal/gamerows.(*Preparer).prepare")
	sign := loc("github.com/plateau/plateau/index/internal/pattern.(*Signer).Sign")
	lines := loc("github.com/plateau/plateau/index/internal/writer.(*txn).flushPlayerLines")
	main := loc("main.main")
	sample := func(ns int64, stack ...*profile.Location) *profile.Sample {
		return &profile.Sample{Value: []int64{1, ns}, Location: stack} // leaf first
	}
	p := &profile.Profile{
		SampleType: []*profile.ValueType{{Type: "samples", Unit: "count"}, {Type: "cpu", Unit: "nanoseconds"}},
		PeriodType: &profile.ValueType{Type: "cpu", Unit: "nanoseconds"},
		Period:     10_000_000,
		Function:   fns,
		Location:   locs,
		Sample: []*profile.Sample{
			sample(3e9, cgo, exec, tree, writer, main),
			sample(1e9, tree, writer, main),
			sample(2e9, cgo, exec, writer, main),
			sample(5e8, malloc, zstd, writer, main),
			sample(4e9, replay, main),
			sample(7e8, gc),
			sample(2e8, writer, main),
			sample(1e8, main),
			sample(6e8, sign, prepare, main),
			sample(4e8, prepare, main),
			sample(3e8, cgo, exec, lines, writer, main),
		},
	}
	var buf bytes.Buffer
	if err := p.Write(&buf); err != nil {
		t.Fatal(err)
	}
	parts, err := Parts(&buf)
	if err != nil {
		t.Fatal(err)
	}
	want := []Part{
		{"replay/rules", 4.4, 0, 0},
		{"tree aggregate", 4, 3, 0},
		{"sqlite (games, tags, names, texts)", 2, 2, 0},
		{"gc", 0.7, 0, 0},
		{"pattern signature", 0.6, 0, 0},
		{"zstd", 0.5, 0, 0.5},
		{"player lines", 0.3, 0.3, 0},
		{"writer (Go)", 0.2, 0, 0},
		{"other", 0.1, 0, 0},
	}
	near := func(a, b float64) bool { return a-b < 1e-9 && b-a < 1e-9 }
	if len(parts) != len(want) {
		t.Fatalf("parts %+v, want %+v", parts, want)
	}
	for i, w := range want {
		g := parts[i]
		if g.Name != w.Name || !near(g.Seconds, w.Seconds) || !near(g.SQLite, w.SQLite) || !near(g.Alloc, w.Alloc) {
			t.Errorf("part %d: %+v, want %+v", i, g, w)
		}
	}
	if tab := PartsTable(parts, 1000); !strings.Contains(tab, "| tree aggregate | 4.00 | 31% | 4000 | 3.00 | 0.00 |") || !strings.Contains(tab, "| total | 12.80 |") {
		t.Errorf("table:\n%s", tab)
	}
}
