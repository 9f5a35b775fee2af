package bench_test

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/plateau/plateau/internal/bench"
	"github.com/plateau/plateau/rules"
	_ "github.com/plateau/plateau/rules/all"
)

func ogi(t *testing.T) rules.Game {
	t.Helper()
	g, err := rules.Lookup("ogi")
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// latencyStages are the rows after the import(s), in order.
var latencyStages = []string{
	"position lookup during import", "opening tree during import",
	"position lookup after import", "opening tree after import",
	"position lookup", "position lookup (again)", "popular positions", "popular positions (pane)", "player search", "opening tree (start)", "opening tree (ply 1–8)",
	"opening tree, a player as one side (first tree)", "opening tree, a player as one side (next trees)",
	"opening tree, a player as one side in twenty years (first tree)",
	"opening tree, a player as one side with an opponent (first tree)", "opening tree, a player as one side in an event (first tree)",
	"opening tree, a player as one side in a rating band (first tree)", "opening tree, a player as one side with a result (first tree)",
	"opening tree, a player as one side with every criterion (first tree)", "opening tree, ten years (start)",
	"pattern search (full scan)", "pattern search (full scan, +*>=3)", "pattern search (full scan, 0:*<=8)",
	"pattern search (full scan, 1:*@hand>=4)", "pattern search (full scan, 0:+*@a1)", "pattern search (full scan, 0:+*@a1 1:+*@h8)",
	"pattern search (full scan, empty@a5)",
}

func TestRun(t *testing.T) {
	for _, noDB := range []bool{true, false} {
		dir := t.TempDir() + "/db"
		rep, err := bench.Run(context.Background(), bench.Config{Game: ogi(t), Games: 60, Seed: 2, Workers: 1, NoDB: noDB, Queries: 10,
			DBDir: dir, QueryEvery: time.Millisecond})
		if err != nil {
			t.Fatal(err)
		}
		want := []string{"generate", "parse", "parse + replay-validate"}
		if !noDB {
			// 60 games make no cut of the default curve.
			want = append(append(want, "import"), latencyStages...)
		}
		checkStages(t, rep, want)
		if got := rep.Stages[0].Count; got != 60 || rep.Stages[2].Count != 60 {
			t.Errorf("generated %d, validated %d", got, rep.Stages[2].Count)
		}
		if !noDB && (rep.Stages[3].Count != 60 || rep.DBBytes == 0) {
			t.Errorf("imported %d games into %d bytes", rep.Stages[3].Count, rep.DBBytes)
		}
		checkLatencies(t, rep)
		if noDB {
			continue
		}
		// The queries of the database just made, compacted first (an
		// import of 60 games leaves one run: CompactPositions' merging is
		// tested in index and cmd/plateau).
		rep, err = bench.Run(context.Background(), bench.Config{Game: ogi(t), QueriesOnly: true, DBDir: dir, Queries: 10, Compact: true})
		if err != nil {
			t.Fatal(err)
		}
		checkStages(t, rep, append([]string{"compact"}, latencyStages[4:]...))
		if c := rep.Stages[0]; c.Count != 60 || !regexp.MustCompile(`^plateau compact: ([1-9]\d* position runs merged into one of [1-9]|nothing to do, the position index is one run$)`).MatchString(c.Note) {
			t.Errorf("compact stage: %+v", c)
		}
		// As it is.
		rep, err = bench.Run(context.Background(), bench.Config{Game: ogi(t), QueriesOnly: true, DBDir: dir, Queries: 10})
		if err != nil {
			t.Fatal(err)
		}
		checkStages(t, rep, latencyStages[4:])
		checkLatencies(t, rep)
		md := rep.Markdown()
		if rep.Games != 60 || !strings.Contains(md, "queries on a database of 60 games") || !strings.Contains(md, "sampled from 10 of its stored games") {
			t.Errorf("queries only: %d games\n%s", rep.Games, md)
		}
		for _, s := range rep.Stages {
			if (s.Name == "position lookup" || s.Name == "position lookup (again)") && s.Count != 10 {
				t.Errorf("queries only: %d position lookups, want 10", s.Count)
			}
			// The 20 most reached positions of 10 games, 3 times each.
			if strings.HasPrefix(s.Name, "popular positions") && s.Count != 60 {
				t.Errorf("queries only: %s: %d lookups, want 60", s.Name, s.Count)
			}
		}
		// The trees by ply alone, each twice.
		rep, err = bench.Run(context.Background(), bench.Config{Game: ogi(t), QueriesOnly: true, DBDir: dir, Queries: 10, TreePlies: []int{8, 1}})
		if err != nil {
			t.Fatal(err)
		}
		checkStages(t, rep, []string{"opening tree (ply 8)", "opening tree (ply 8, again)", "opening tree (ply 1)", "opening tree (ply 1, again)"})
		for _, s := range rep.Stages {
			if s.Count != 10 {
				t.Errorf("trees by ply: %s: %d trees, want 10", s.Name, s.Count)
			}
		}
		if _, err := bench.Run(context.Background(), bench.Config{Game: ogi(t), QueriesOnly: true, DBDir: dir, TreePlies: []int{13}}); err == nil {
			t.Error("trees at ply 13: no error")
		}
		if _, err := bench.Run(context.Background(), bench.Config{Game: ogi(t), QueriesOnly: true, DBDir: t.TempDir() + "/none"}); err == nil {
			t.Error("queries only on no database: no error")
		}
	}
}

// TestRunBase imports a base, then the measured collection with queries
// running beside it, and checks every row the report then has: both
// imports, their curves, the queries during and after the import.
func TestRunBase(t *testing.T) {
	dir := t.TempDir()
	prof := filepath.Join(dir, "cpu.pprof")
	textDir := filepath.Join(dir, "text")
	const n, base = 300, 200
	var log strings.Builder
	rep, err := bench.Run(context.Background(), bench.Config{Game: ogi(t), Games: n, Base: base, Seed: 3, Workers: 1, Queries: 20,
		Curve: []int{50, 100}, QueryEvery: time.Millisecond, CPUProfile: prof, TextDir: textDir, Log: &log})
	if err != nil {
		t.Fatal(err)
	}
	// The rows, curves apart.
	var names []string
	curves := map[string][]bench.Stage{}
	for _, s := range rep.Stages {
		if imp, _, ok := strings.Cut(s.Name, ", games "); ok {
			curves[imp] = append(curves[imp], s)
			continue
		}
		names = append(names, s.Name)
	}
	want := append([]string{"generate", "parse", "parse + replay-validate", "generate (base)", "import (base)", "import"}, latencyStages...)
	if strings.Join(names, "; ") != strings.Join(want, "; ") {
		t.Fatalf("stages (curves apart)\n%s\nwant\n%s", strings.Join(names, "; "), strings.Join(want, "; "))
	}
	counts := map[string]int{}
	for _, s := range rep.Stages {
		counts[s.Name] = s.Count
	}
	if counts["generate"] != n || counts["import"] != n || counts["generate (base)"] != base || counts["import (base)"] != base {
		t.Errorf("counts %v, want %d games and a base of %d", counts, n, base)
	}
	if rep.Base != base || rep.BaseTextBytes == 0 || rep.TextBytes == 0 || rep.DBBytes == 0 {
		t.Errorf("base %d, text %d + %d bytes, database %d bytes", rep.Base, rep.BaseTextBytes, rep.TextBytes, rep.DBBytes)
	}
	// Each curve, if the progress reports cut the import (they come every
	// 150 ms): contiguous segments from 0 to the import's size.
	for imp, size := range map[string]int{"import (base)": base, "import": n} {
		rows := curves[imp]
		if len(rows) == 0 {
			continue
		}
		if len(rows) == 1 {
			t.Errorf("%s: a curve of one segment", imp)
		}
		from := 0
		for _, s := range rows {
			if want := imp + ", games " + strconv.Itoa(from) /* below 1,000: no separator */ + "–"; !strings.HasPrefix(s.Name, want) || s.Count <= 0 {
				t.Errorf("segment %q of %d games, want a name starting %q", s.Name, s.Count, want)
			}
			if !strings.Contains(s.Note, "cumulative") {
				t.Errorf("segment %q: note %q", s.Name, s.Note)
			}
			// Told as it ends, for a run stopped before its report.
			if !strings.Contains(log.String(), s.Name+": ") {
				t.Errorf("segment %q not in the log:\n%s", s.Name, log.String())
			}
			from += s.Count
		}
		if from != size {
			t.Errorf("%s: the curve covers %d games, want %d", imp, from, size)
		}
	}
	checkLatencies(t, rep)
	if len(rep.Slowdowns) != 2 {
		t.Fatalf("slowdowns %+v, want position lookup and opening tree", rep.Slowdowns)
	}
	for _, s := range rep.Slowdowns {
		if !(s.P50 > 0 && s.P99 > 0) {
			t.Errorf("slowdown %+v", s)
		}
	}
	if _, err := os.Stat("/proc/loadavg"); err == nil && (len(strings.Fields(rep.Load[0])) != 3 || len(strings.Fields(rep.Load[1])) != 3) {
		t.Errorf("load averages %q", rep.Load)
	}
	md := rep.Markdown()
	checkRuns(t, md)
	for _, w := range []string{"300 games into a database of 200", "position lookup p50", "go tool pprof", "CPU by stage, import (profile labels): ", "CPU by stage, import (base) (profile labels): ", "µs of CPU a game"} {
		if !strings.Contains(md, w) {
			t.Errorf("the report does not say %q:\n%s", w, md)
		}
	}
	for _, p := range []string{prof, filepath.Join(dir, "cpu-base.pprof")} {
		if fi, err := os.Stat(p); err != nil || fi.Size() == 0 {
			t.Errorf("profile %s: %v", p, err)
		}
	}
	if fs, err := os.ReadDir(textDir); err != nil || len(fs) != 2 {
		t.Errorf("the text directory holds %d files (%v), want the two collections", len(fs), err)
	}
	t.Logf("\n%s", md)
}

// checkStages checks the stage names, that each counted something and the
// table's row count.
func checkStages(t *testing.T, rep *bench.Report, want []string) {
	t.Helper()
	if len(rep.Stages) != len(want) {
		t.Fatalf("%d stages, want %d: %+v", len(rep.Stages), len(want), rep.Stages)
	}
	for i, s := range rep.Stages {
		if s.Name != want[i] {
			t.Errorf("stage %d is %q, want %q", i, s.Name, want[i])
		}
		if s.Count == 0 {
			t.Errorf("stage %q counted nothing", s.Name)
		}
	}
	md := rep.Markdown()
	if strings.Count(md, "\n|") != len(want)+2 {
		t.Errorf("table has the wrong number of rows:\n%s", md)
	}
}

// checkLatencies checks 0 < p50 ≤ p99 for every latency row.
func checkLatencies(t *testing.T, rep *bench.Report) {
	t.Helper()
	for _, s := range rep.Stages {
		if s.P50 == 0 && s.P99 == 0 {
			continue
		}
		if s.Count == 0 || s.P50 <= 0 || s.P50 > s.P99 {
			t.Errorf("%s: %d queries, p50 %v, p99 %v", s.Name, s.Count, s.P50, s.P99)
		}
	}
	for _, name := range latencyStages {
		for _, s := range rep.Stages {
			if s.Name == name && s.P50 == 0 {
				t.Errorf("%s has no latency (%d queries)", name, s.Count)
			}
		}
	}
}

// runsNote is the report's sentence on the position runs a lookup read.
var runsNote = regexp.MustCompile(`Position runs \(a lookup reads a block of each\): (\d+)–(\d+) during the import \(mean [0-9.]+, read every \d+ queries\), (\d+) after it\.`)

// checkRuns: the report says how many position runs the database held
// during the import and after it, at least one each.
func checkRuns(t *testing.T, md string) {
	t.Helper()
	m := runsNote.FindStringSubmatch(md)
	if m == nil {
		t.Errorf("the report does not give the position runs:\n%s", md)
		return
	}
	for _, x := range m[1:] {
		if n, _ := strconv.Atoi(x); n < 1 {
			t.Errorf("position runs %q: %v", m[0], m[1:])
		}
	}
}
