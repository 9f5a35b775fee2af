package index_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/plateau/plateau/index"
	"github.com/plateau/plateau/record"
	"github.com/plateau/plateau/replay"
)

// annotated100 is a generated Ōgi game cut to 100 plies and annotated:
// a comment every tenth ply, NAGs on five moves, two variations (the
// move played, as an alternative line) and an Annotator tag.
func annotated100(tb testing.TB) *record.Game {
	tb.Helper()
	for seed := uint64(1); seed < 50; seed++ {
		for _, text := range records(string(genText(tb, "ogi", 20, seed))) {
			g := parseOne(tb, text)
			if len(g.Moves) < 110 {
				continue
			}
			g.Moves = g.Moves[:100]
			g.Result = "*"
			g.SetTag("Result", "*")
			g.SetTag("Termination", "")
			g.SetTag("Annotator", "Bench, Annotated")
			for i := 9; i < 100; i += 10 {
				g.Moves[i].After = append(g.Moves[i].After, fmt.Sprintf("After ply %d the position is balanced.", i+1))
			}
			for _, i := range []int{4, 17, 33, 58, 81} {
				g.Moves[i].NAGs = append(g.Moves[i].NAGs, 1+i%6)
			}
			for _, i := range []int{12, 40} {
				alt := *g.Moves[i]
				alt.After, alt.NAGs, alt.Variations = []string{"also possible"}, nil, nil
				g.Moves[i].Variations = append(g.Moves[i].Variations, record.Line{&alt})
			}
			if rg := replay.Replay(parseOne(tb, string(record.Format(g))), replay.Options{}); rg.Err == nil {
				return g
			}
		}
	}
	tb.Fatal("no generated game of 110 plies that stays valid when cut")
	return nil
}

// BenchmarkSaveRecord times saves of an annotated 100-ply Ōgi game into a
// database of PLATEAU_BENCH_N generated games (or the copy of none: the
// database of PLATEAU_BENCH_DB is written to, use a scratch one): a
// comment edited ("comment": the positions stay), and ten plies cut or
// put back ("moves": occurrences gone and written again). It reports the
// median and 99th percentile of a save, commit and text index included,
// and the median up to the commit (the text index is updated after it).
func BenchmarkSaveRecord(b *testing.B) {
	ctx := context.Background()
	dir := os.Getenv("PLATEAU_BENCH_DB")
	if dir == "" {
		dir = filepath.Join(b.TempDir(), "db")
		db := openDB(b, dir)
		f := writeFile(b, b.TempDir(), "g.pdn", genText(b, "ogi", benchN(), 44))
		if _, err := importFiles(ctx, db, []string{f}, index.ImportOptions{}); err != nil {
			b.Fatal(err)
		}
		db.Close()
	}
	db, err := index.Open(ctx, dir, index.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	g := annotated100(b)
	added, err := db.AddRecords(ctx, record.Format(g), index.AddSource(time.Now(), "bench"), replay.Options{})
	if err != nil || len(added) != 1 || !added[0].Valid {
		b.Fatalf("%+v %v", added, err)
	}
	id := added[0].ID
	full := g.Moves
	last := &g.Moves[99].After
	base := slices.Clone(*last)
	seq := 0 // every text saved differs: b.Run runs its function several times
	for _, kind := range []string{"comment", "moves"} {
		b.Run(kind, func(b *testing.B) {
			b.ReportAllocs()
			var ds, committed []time.Duration
			var t0 time.Time
			index.SetAfterEditCommit(func() { committed = append(committed, time.Since(t0)) })
			defer index.SetAfterEditCommit(nil)
			for i := 0; i < b.N; i++ {
				g.Moves = full
				seq++
				*last = append(slices.Clone(base), fmt.Sprintf("edit %d", seq))
				if kind == "moves" && seq%2 == 0 {
					g.Moves = full[:90]
				}
				text := record.Format(g)
				rev, _, err := db.CurrentRevision(ctx, id)
				if err != nil {
					b.Fatal(err)
				}
				t0 = time.Now()
				res, err := db.SaveRecord(ctx, id, text, rev)
				ds = append(ds, time.Since(t0))
				if err != nil || !res.Valid || !res.Changed {
					b.Fatalf("save %d: %+v %v", i, res, err)
				}
			}
			ms := func(ds []time.Duration, q int) float64 {
				slices.Sort(ds)
				return float64(ds[len(ds)*q/100].Microseconds()) / 1000
			}
			b.ReportMetric(ms(ds, 50), "p50-ms")
			b.ReportMetric(ms(ds, 99), "p99-ms")
			// Up to the SQLite commit: the text index is updated after it.
			b.ReportMetric(ms(committed, 50), "commit-p50-ms")
		})
	}
	g.Moves = full
}
