package index_test

import (
	"context"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"testing"
	"time"

	"github.com/plateau/plateau/index"
	"github.com/plateau/plateau/replay"
	"github.com/plateau/plateau/rules"

	_ "github.com/plateau/plateau/rules/ogi"
)

// benchN is the collection size of the database benchmarks:
// PLATEAU_BENCH_N games of Ōgi (default 5000).
func benchN() int {
	if n, err := strconv.Atoi(os.Getenv("PLATEAU_BENCH_N")); err == nil && n > 0 {
		return n
	}
	return 5000
}

func benchGame() string {
	if g := os.Getenv("PLATEAU_BENCH_GAME"); g != "" {
		return g
	}
	return "ogi"
}

// BenchmarkImport imports a generated collection into a fresh database
// (replay, SQLite, text index) and reports games/s and the database size
// against the record text.
func BenchmarkImport(b *testing.B) {
	n, game := benchN(), benchGame()
	dir := b.TempDir()
	var text []byte
	file := os.Getenv("PLATEAU_BENCH_FILE") // a collection of n valid games
	if file != "" {
		var err error
		if text, err = os.ReadFile(file); err != nil {
			b.Fatal(err)
		}
	} else {
		text = genText(b, game, n, 42)
		file = writeFile(b, dir, "g.pdn", text)
	}
	b.ResetTimer()
	var rate, ratio float64
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		dbdir := filepath.Join(dir, "db"+strconv.Itoa(i))
		db, err := index.Open(context.Background(), dbdir, index.Options{})
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		st, err := db.Import(context.Background(), []string{file}, index.ImportOptions{})
		if err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		if st.Valid != n {
			b.Fatalf("%+v", st)
		}
		rate = float64(n) / st.Elapsed.Seconds()
		if err := db.Close(); err != nil {
			b.Fatal(err)
		}
		size, err := index.DiskSize(dbdir)
		if err != nil {
			b.Fatal(err)
		}
		ratio = float64(size) / float64(len(text))
		os.RemoveAll(dbdir)
		b.StartTimer()
	}
	b.ReportMetric(rate, "games/s")
	b.ReportMetric(ratio, "db/text")
	b.ReportMetric(float64(len(text))/float64(n), "textB/game")
}

// BenchmarkQueries builds one database and times the queries on it.
func BenchmarkQueries(b *testing.B) {
	ctx := context.Background()
	n, game := benchN(), benchGame()
	dir := b.TempDir()
	var text []byte
	file := os.Getenv("PLATEAU_BENCH_FILE") // a collection of n valid games
	if file != "" {
		var err error
		if text, err = os.ReadFile(file); err != nil {
			b.Fatal(err)
		}
	} else {
		text = genText(b, game, n, 43)
		file = writeFile(b, dir, "g.pdn", text)
	}
	db, err := index.Open(ctx, filepath.Join(dir, "db"), index.Options{})
	if err != nil {
		b.Fatal(err)
	}
	if _, err := db.Import(ctx, []string{file}, index.ImportOptions{}); err != nil {
		b.Fatal(err)
	}
	db.Close()
	db, err = index.Open(ctx, filepath.Join(dir, "db"), index.Options{ReadOnly: true})
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	recs := readAll(&testing.T{}, text)
	r := rand.New(rand.NewPCG(5, 6))
	// Positions to look up: from random games at random plies.
	var positions []rules.Position
	var players []string
	g, _ := rules.Lookup(game)
	for len(positions) < 200 {
		rec := recs[r.IntN(len(recs))]
		rg := replay.Replay(rec, replay.Options{})
		pos := rg.Start.Clone()
		k := r.IntN(len(rg.Main) + 1)
		for _, s := range rg.Main[:k] {
			pos.Play(s.Move)
		}
		positions = append(positions, pos)
		players = append(players, rec.Tag(g.Sides()[r.IntN(2)]))
	}
	p50 := func(d []time.Duration) float64 {
		sort.Slice(d, func(i, j int) bool { return d[i] < d[j] })
		return float64(d[len(d)/2].Microseconds())
	}
	b.Run("position", func(b *testing.B) {
		var ds []time.Duration
		for i := 0; i < b.N; i++ {
			t0 := time.Now()
			res, err := db.Search(ctx, index.Query{Game: game, Position: positions[i%len(positions)], Limit: 20})
			if err != nil || len(res.Hits) == 0 {
				b.Fatal(err, len(res.Hits))
			}
			ds = append(ds, time.Since(t0))
		}
		b.ReportMetric(p50(ds), "p50-µs")
	})
	b.Run("player", func(b *testing.B) {
		var ds []time.Duration
		for i := 0; i < b.N; i++ {
			t0 := time.Now()
			res, err := db.Search(ctx, index.Query{Player: players[i%len(players)], Limit: 20})
			if err != nil || len(res.Hits) == 0 {
				b.Fatal(err, players[i%len(players)])
			}
			ds = append(ds, time.Since(t0))
		}
		b.ReportMetric(p50(ds), "p50-µs")
	})
	b.Run("tree-start", func(b *testing.B) {
		start, _ := g.NewPosition("")
		var ds []time.Duration
		for i := 0; i < b.N; i++ {
			t0 := time.Now()
			tree, err := db.Tree(ctx, game, start)
			if err != nil || len(tree) == 0 {
				b.Fatal(err)
			}
			ds = append(ds, time.Since(t0))
		}
		b.ReportMetric(p50(ds), "p50-µs")
	})
	b.Run("pattern-all", func(b *testing.B) {
		// A pattern no position has: every position of every game is tested.
		pat, err := index.ParsePattern("empty@a1,b1,c1,d1,e1,f1,g1,h1,a8,b8,c8,d8,e8,f8,g8,h8 *>=1 *@hand>=40")
		if err != nil {
			b.Fatal(err)
		}
		for i := 0; i < b.N; i++ {
			res, err := db.Search(ctx, index.Query{Game: game, Pattern: pat, Count: true})
			if err != nil {
				b.Fatal(err)
			}
			if res.Total != 0 {
				b.Fatalf("total %d", res.Total)
			}
		}
		b.ReportMetric(float64(n), "games")
	})
}
