package bench

import (
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/google/pprof/profile"
)

// A Part of an import's CPU is the code a sample ran, whatever the
// goroutine (the stage labels of stageCPU say which goroutine: the writer
// runs SQLite, posrun and the tree aggregate, a worker replays and reads).
type Part struct {
	Name    string
	Seconds float64
	SQLite  float64 // of Seconds, under runtime.cgocall: SQLite's C code
	Alloc   float64 // of Seconds, in the allocator (runtime.mallocgc)
}

// partRules name a sample's part: the first rule, in this order, of which
// a function of the sample's stack holds the text. The order makes the
// part the innermost owner: Bleve's and zstd's code runs under the
// writer's, the tree aggregate's and posrun's statements under the
// writer's transaction; the pattern signature (made by the replay workers,
// stored by the writer) and the players' lines, with their statements,
// are told apart from replay and SQLite, so that what each costs an
// import shows.
var partRules = []struct{ part, fn string }{
	{"gc", "runtime.gcBgMarkWorker"}, {"gc", "runtime.bgsweep"}, {"gc", "runtime.bgscavenge"},
	{"zstd", "klauspost/compress/zstd"},
	{"bleve", "blevesearch/"}, {"bleve", "index/internal/textindex"}, {"bleve", "RoaringBitmap/"},
	{"tree aggregate", "index/internal/treeagg"},
	{"posrun", "index/internal/posrun"},
	{"pattern signature", "index/internal/pattern."}, {"pattern signature", "index/internal/patsig"},
	{"pattern signature", "writer.(*sigStore)"},
	{"player lines", "index/internal/playerlines"}, {"player lines", "writer.(*txn).flushPlayerLines"},
	{"player lines", "writer.(*txn).holdPlayerLines"},
	{"sqlite (games, tags, names, texts)", "mattn/go-sqlite3"}, {"sqlite (games, tags, names, texts)", "database/sql"},
	{"replay/rules", "plateau/replay"}, {"replay/rules", "plateau/rules"}, {"replay/rules", "index/internal/gamerows"},
	{"record reading", "plateau/record"}, {"record reading", "plateau/importers"},
	{"writer (Go)", "plateau/index"},
}

// Parts reads a CPU profile and sums its samples by part (partRules;
// "other" for the rest), largest first.
func Parts(r io.Reader) ([]Part, error) {
	p, err := profile.Parse(r)
	if err != nil {
		return nil, err
	}
	vi := slices.IndexFunc(p.SampleType, func(st *profile.ValueType) bool { return st.Type == "cpu" && st.Unit == "nanoseconds" })
	if vi < 0 {
		return nil, fmt.Errorf("no cpu/nanoseconds samples")
	}
	by := map[string]*Part{}
	for _, s := range p.Sample {
		var fns []string
		for _, loc := range s.Location {
			for _, l := range loc.Line {
				if l.Function != nil {
					fns = append(fns, l.Function.Name)
				}
			}
		}
		name := partOf(fns)
		pt := by[name]
		if pt == nil {
			pt = &Part{Name: name}
			by[name] = pt
		}
		v := float64(s.Value[vi]) / 1e9
		pt.Seconds += v
		if slices.Contains(fns, "runtime.cgocall") {
			pt.SQLite += v
		}
		if slices.Contains(fns, "runtime.mallocgc") {
			pt.Alloc += v
		}
	}
	parts := make([]Part, 0, len(by))
	for _, pt := range by {
		parts = append(parts, *pt)
	}
	slices.SortFunc(parts, func(a, b Part) int {
		if a.Seconds != b.Seconds {
			if a.Seconds > b.Seconds {
				return -1
			}
			return 1
		}
		return strings.Compare(a.Name, b.Name)
	})
	return parts, nil
}

func partOf(fns []string) string {
	for _, r := range partRules {
		for _, fn := range fns {
			if strings.Contains(fn, r.fn) {
				return r.part
			}
		}
	}
	return "other"
}

// PartsTable renders parts as a Markdown table, with their share and their
// CPU a game.
func PartsTable(parts []Part, games int) string {
	var total float64
	for _, p := range parts {
		total += p.Seconds
	}
	var b strings.Builder
	b.WriteString("| part | CPU s | share | µs a game | of which in cgo (SQLite) | of which allocating |\n|---|---|---|---|---|---|\n")
	for _, p := range parts {
		fmt.Fprintf(&b, "| %s | %.2f | %.0f%% | %.0f | %.2f | %.2f |\n", p.Name, p.Seconds, 100*p.Seconds/max(total, 1e-9),
			p.Seconds*1e6/float64(max(games, 1)), p.SQLite, p.Alloc)
	}
	fmt.Fprintf(&b, "| total | %.2f | | %.0f | | |\n", total, total*1e6/float64(max(games, 1)))
	return b.String()
}

// PartsOfFile is Parts of the profile in file.
func PartsOfFile(file string) ([]Part, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	parts, err := Parts(f)
	if err != nil {
		return nil, fmt.Errorf("CPU profile %s: %w", file, err)
	}
	return parts, nil
}
