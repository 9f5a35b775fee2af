package bench_test

import (
	"context"
	"strings"
	"testing"

	"github.com/plateau/plateau/internal/bench"
	"github.com/plateau/plateau/rules"
	_ "github.com/plateau/plateau/rules/all"
)

func TestRun(t *testing.T) {
	g, err := rules.Lookup("ogi")
	if err != nil {
		t.Fatal(err)
	}
	for _, noDB := range []bool{true, false} {
		rep, err := bench.Run(context.Background(), bench.Config{Game: g, Games: 60, Seed: 2, Workers: 1, NoDB: noDB, Queries: 10, DBDir: t.TempDir() + "/db"})
		if err != nil {
			t.Fatal(err)
		}
		want := []string{"generate", "parse", "parse + replay-validate"}
		if !noDB {
			want = append(want, "import", "position lookup", "player search", "opening tree (start)", "opening tree (ply 1–8)", "pattern search (full scan)")
		}
		if len(rep.Stages) != len(want) {
			t.Fatalf("noDB %v: %d stages, want %d", noDB, len(rep.Stages), len(want))
		}
		for i, s := range rep.Stages {
			if s.Name != want[i] {
				t.Errorf("stage %d is %q, want %q", i, s.Name, want[i])
			}
			if s.Count == 0 {
				t.Errorf("stage %q counted nothing", s.Name)
			}
		}
		if got := rep.Stages[0].Count; got != 60 || rep.Stages[2].Count != 60 {
			t.Errorf("generated %d, validated %d", got, rep.Stages[2].Count)
		}
		if !noDB && (rep.Stages[3].Count != 60 || rep.DBBytes == 0) {
			t.Errorf("imported %d games into %d bytes", rep.Stages[3].Count, rep.DBBytes)
		}
		md := rep.Markdown()
		if strings.Count(md, "\n|") != len(want)+2 {
			t.Errorf("table has the wrong number of rows:\n%s", md)
		}
		t.Logf("\n%s", md)
	}
}
