package index_test

import (
	"bytes"
	"cmp"
	"context"
	"io"
	"io/fs"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/plateau/plateau/index"
	"github.com/plateau/plateau/record"
	"github.com/plateau/plateau/replay"
	"github.com/plateau/plateau/replay/generate"
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
		st, err := importFiles(context.Background(), db, []string{file}, index.ImportOptions{})
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

// BenchmarkImportIntoFull imports PLATEAU_BENCH_ADD games (default 2000)
// into a database that already holds the benchmark collection (benchN
// games, built once), a fresh copy of it for each iteration, and reports
// games/s: the writer's path when the position runs, the tree and the text
// index already hold games. The added games are other games of the same
// collection (the same players, no duplicates). At scale, e.g.
//
//	PLATEAU_BENCH_N=100000 PLATEAU_BENCH_ADD=20000 go test -run XXX -bench ImportIntoFull -benchtime 1x ./index
func BenchmarkImportIntoFull(b *testing.B) {
	ctx := context.Background()
	n, game := benchN(), benchGame()
	add := 2000
	if v, err := strconv.Atoi(os.Getenv("PLATEAU_BENCH_ADD")); err == nil && v > 0 {
		add = v
	}
	dir := b.TempDir()
	g, err := rules.Lookup(game)
	if err != nil {
		b.Fatal(err)
	}
	gen, err := generate.New(g, 45)
	if err != nil {
		b.Fatal(err)
	}
	// genFile writes games [first, first+count) of the collection to a file.
	genFile := func(name string, first, count int) string {
		var buf bytes.Buffer
		if _, err := gen.Write(ctx, &buf, count, generate.Options{First: first}); err != nil {
			b.Fatal(err)
		}
		return writeFile(b, dir, name, buf.Bytes())
	}
	baseDir := filepath.Join(dir, "base")
	db, err := index.Open(ctx, baseDir, index.Options{})
	if err != nil {
		b.Fatal(err)
	}
	if st, err := importFiles(ctx, db, []string{genFile("base.pdn", 0, n)}, index.ImportOptions{}); err != nil || st.Valid != n {
		b.Fatalf("base: %+v, %v", st, err)
	}
	if err := db.Close(); err != nil {
		b.Fatal(err)
	}
	file := genFile("add.pdn", n, add)
	b.ResetTimer()
	var rate float64
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		dbdir := filepath.Join(dir, "db"+strconv.Itoa(i))
		if err := copyDir(baseDir, dbdir); err != nil {
			b.Fatal(err)
		}
		db, err := index.Open(ctx, dbdir, index.Options{})
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		st, err := importFiles(ctx, db, []string{file}, index.ImportOptions{})
		if err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		if st.Stored != add || st.Duplicates != 0 {
			b.Fatalf("%+v", st)
		}
		rate = float64(add) / st.Elapsed.Seconds()
		if err := db.Close(); err != nil {
			b.Fatal(err)
		}
		os.RemoveAll(dbdir)
		b.StartTimer()
	}
	b.ReportMetric(rate, "games/s")
	b.ReportMetric(float64(n), "base-games")
}

// copyDir copies the regular files of the directory tree src to dst.
func copyDir(src, dst string) error {
	return filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, path)
		if err != nil {
			return err
		}
		to := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(to, 0o755)
		}
		in, err := os.Open(path)
		if err != nil {
			return err
		}
		defer in.Close()
		out, err := os.Create(to)
		if err != nil {
			return err
		}
		if _, err := io.Copy(out, in); err != nil {
			out.Close()
			return err
		}
		return out.Close()
	})
}

// BenchmarkQueries builds one database and times the queries on it.
func BenchmarkQueries(b *testing.B) {
	q := newQueryBench(b)
	defer q.db.Close()
	b.Run("position", func(b *testing.B) { q.lookups(b, func(int) {}) })
	// Each lookup after a commit of another connection, as during an
	// import: SQLite then empties the page cache of the lookup's
	// connection (a WAL reader whose snapshot changed), and the lookup
	// reads its pages again. (With the database file mapped, PRAGMA
	// mmap_size, this took 66 µs p50 against 42 at 20,000 Ōgi games: the
	// reader drops its map too, and maps the file again.)
	b.Run("position-after-commit", q.positionAfterCommit)
	// The positions most games reach (the start, the commonest openings):
	// an exact count and the first 50 games (issue 45).
	b.Run("position-popular", q.popularLookups)
	// A page read as Search chooses, by name word, and by player and side
	// (internal/players).
	for _, by := range []string{"", "word", "player"} {
		b.Run("player"+map[string]string{"word": "-by-word", "player": "-by-player"}[by], func(b *testing.B) {
			q.player(b, by)
		})
	}
	b.Run("tree-start", q.treeStart)
	b.Run("pattern-all", q.patternAll)
}

// queryBench is the database of BenchmarkQueries, opened read-only, with
// the positions and players its lookups ask for; its methods are the
// sub-benchmarks.
type queryBench struct {
	ctx       context.Context
	n         int
	game      string
	g         rules.Game
	dir       string // the database is dir/db
	db        *index.DB
	positions []rules.Position // from random games at random plies
	popular   []rules.Position // the positions the games reach most
	players   []string         // a player of each of those games
}

// newQueryBench imports n generated games (or the n valid games of the
// file PLATEAU_BENCH_FILE), then opens the database read-only and draws
// 200 positions and players to look up.
func newQueryBench(b *testing.B) *queryBench {
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
	if _, err := importFiles(ctx, db, []string{file}, index.ImportOptions{}); err != nil {
		b.Fatal(err)
	}
	db.Close()
	db, err = index.Open(ctx, filepath.Join(dir, "db"), index.Options{ReadOnly: true})
	if err != nil {
		b.Fatal(err)
	}
	g, _ := rules.Lookup(game)
	q := &queryBench{ctx: ctx, n: n, game: game, g: g, dir: dir, db: db}
	q.draw(text)
	return q
}

// draw picks the positions to look up, from random games at random plies,
// and a player of each game.
func (q *queryBench) draw(text []byte) {
	recs := readAll(&testing.T{}, text)
	r := rand.New(rand.NewPCG(5, 6))
	for len(q.positions) < 200 {
		rec := recs[r.IntN(len(recs))]
		rg := replay.Replay(rec, replay.Options{})
		pos := rg.Start.Clone()
		k := r.IntN(len(rg.Main) + 1)
		for _, s := range rg.Main[:k] {
			pos.Play(s.Move)
		}
		q.positions = append(q.positions, pos)
		q.players = append(q.players, rec.Tag(q.g.Sides()[r.IntN(2)]))
	}
	q.popular = popularPositions(recs, 20)
}

// popularPositions are the n positions of the main lines' first plies
// that the games reach most, most reached first.
func popularPositions(recs []*record.Game, n int) []rules.Position {
	type seen struct {
		pos rules.Position
		n   int
	}
	byKey := map[uint64]*seen{}
	for _, rec := range recs {
		rg := replay.Replay(rec, replay.Options{})
		pos := rg.Start.Clone()
		for k := 0; ; k++ {
			if s := byKey[pos.Key()]; s != nil {
				s.n++
			} else {
				byKey[pos.Key()] = &seen{pos.Clone(), 1}
			}
			if k == 4 || k == len(rg.Main) {
				break
			}
			pos.Play(rg.Main[k].Move)
		}
	}
	all := slices.Collect(maps.Values(byKey))
	slices.SortFunc(all, func(a, b *seen) int {
		if c := cmp.Compare(b.n, a.n); c != 0 {
			return c
		}
		return cmp.Compare(a.pos.Key(), b.pos.Key())
	})
	out := make([]rules.Position, 0, n)
	for _, s := range all[:min(n, len(all))] {
		out = append(out, s.pos)
	}
	return out
}

// popularLookups times the exact count and first 50 games of the popular
// positions.
func (q *queryBench) popularLookups(b *testing.B) {
	var ds []time.Duration
	for i := 0; i < b.N; i++ {
		t0 := time.Now()
		res, err := q.db.Search(q.ctx, index.Query{Game: q.game, Position: q.popular[i%len(q.popular)], Limit: 50, Count: true})
		if err != nil || len(res.Hits) == 0 || res.Total < len(res.Hits) {
			b.Fatal(err, len(res.Hits), res.Total)
		}
		ds = append(ds, time.Since(t0))
	}
	b.ReportMetric(p50Micros(ds), "p50-µs")
}

// p50Micros is the median of d in microseconds; it sorts d.
func p50Micros(d []time.Duration) float64 {
	sort.Slice(d, func(i, j int) bool { return d[i] < d[j] })
	return float64(d[len(d)/2].Microseconds())
}

// lookups times b.N position lookups, each after before(i).
func (q *queryBench) lookups(b *testing.B, before func(i int)) {
	var ds []time.Duration
	for i := 0; i < b.N; i++ {
		before(i)
		t0 := time.Now()
		res, err := q.db.Search(q.ctx, index.Query{Game: q.game, Position: q.positions[i%len(q.positions)], Limit: 20})
		if err != nil || len(res.Hits) == 0 {
			b.Fatal(err, len(res.Hits))
		}
		ds = append(ds, time.Since(t0))
	}
	b.ReportMetric(p50Micros(ds), "p50-µs")
}

// positionAfterCommit times lookups, each after a commit of another
// connection to the database.
func (q *queryBench) positionAfterCommit(b *testing.B) {
	wdb, err := index.Open(q.ctx, filepath.Join(q.dir, "db"), index.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer wdb.Close()
	q.lookups(b, func(i int) {
		if _, err := wdb.SQL().Exec(`INSERT OR REPLACE INTO meta(k, v) VALUES ('bench', ?)`, i); err != nil {
			b.Fatal(err)
		}
	})
}

// player times a page of a player's games, read as index.SetPageBy(by)
// says.
func (q *queryBench) player(b *testing.B, by string) {
	defer index.SetPageBy(by)()
	var ds []time.Duration
	for i := 0; i < b.N; i++ {
		t0 := time.Now()
		res, err := q.db.Search(q.ctx, index.Query{Player: q.players[i%len(q.players)], Limit: 20})
		if err != nil || len(res.Hits) == 0 {
			b.Fatal(err, q.players[i%len(q.players)])
		}
		ds = append(ds, time.Since(t0))
	}
	b.ReportMetric(p50Micros(ds), "p50-µs")
}

// treeStart times the opening tree of the start position.
func (q *queryBench) treeStart(b *testing.B) {
	start, _ := q.g.NewPosition("")
	var ds []time.Duration
	for i := 0; i < b.N; i++ {
		t0 := time.Now()
		tree, err := q.db.Tree(q.ctx, q.game, start)
		if err != nil || len(tree) == 0 {
			b.Fatal(err)
		}
		ds = append(ds, time.Since(t0))
	}
	b.ReportMetric(p50Micros(ds), "p50-µs")
}

// patternAll times a pattern no position has: every position of every game
// is tested.
func (q *queryBench) patternAll(b *testing.B) {
	pat, err := index.ParsePattern("empty@a1,b1,c1,d1,e1,f1,g1,h1,a8,b8,c8,d8,e8,f8,g8,h8 *>=1 *@hand>=40")
	if err != nil {
		b.Fatal(err)
	}
	for i := 0; i < b.N; i++ {
		res, err := q.db.Search(q.ctx, index.Query{Game: q.game, Pattern: pat, Count: true})
		if err != nil {
			b.Fatal(err)
		}
		if res.Total != 0 {
			b.Fatalf("total %d", res.Total)
		}
	}
	b.ReportMetric(float64(q.n), "games")
}

// benchDB opens a database holding the benchmark collection: the folder
// PLATEAU_BENCH_DB when set (imported once, then reused while it holds the
// collection), else a fresh temporary one.
func benchDB(b *testing.B, seed uint64) (*index.DB, int) {
	ctx := context.Background()
	n, game := benchN(), benchGame()
	dir := os.Getenv("PLATEAU_BENCH_DB")
	if dir == "" {
		dir = filepath.Join(b.TempDir(), "db")
	}
	db, err := index.Open(ctx, dir, index.Options{})
	if err != nil {
		b.Fatal(err)
	}
	res, err := db.Search(ctx, index.Query{Game: game, Limit: 1, Count: true})
	if err != nil {
		b.Fatal(err)
	}
	if res.Total != n {
		file := os.Getenv("PLATEAU_BENCH_FILE") // a collection of n valid games
		if file == "" {
			file = writeFile(b, b.TempDir(), "g.pdn", genText(b, game, n, seed))
		}
		st, err := importFiles(ctx, db, []string{file}, index.ImportOptions{})
		if err != nil {
			b.Fatal(err)
		}
		if res, err = db.Search(ctx, index.Query{Game: game, Limit: 1, Count: true}); err != nil || res.Total != n {
			b.Fatalf("the database holds %d %s games, want %d (import: %+v): %v", res.Total, game, n, st, err)
		}
	}
	db.Close()
	if db, err = index.Open(ctx, dir, index.Options{ReadOnly: true}); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	return db, n
}

// BenchmarkPattern times pattern searches that test every position of every
// game (Count: true) and reports the cost per position, positions per
// second and the time extrapolated to 1,000,000 games of the same kind.
// Measure at scale with, e.g.
//
//	go run ./cmd/plateau generate --game ogi --games 50000 --seed 1 --out /tmp/x.pdn
//	PLATEAU_BENCH_N=50000 PLATEAU_BENCH_FILE=/tmp/x.pdn PLATEAU_BENCH_DB=/tmp/x.db \
//	  go test -run XXX -bench Pattern -benchtime 3x ./index
func BenchmarkPattern(b *testing.B) {
	ctx := context.Background()
	game := benchGame()
	db, n := benchDB(b, 44)
	games, positions, err := index.StoredPositions(ctx, db, game)
	if err != nil {
		b.Fatal(err)
	}
	if games != int64(n) {
		b.Fatalf("%d games, want %d", games, n)
	}
	patterns := map[string][]string{
		"ogi": {
			// Issue #17's figure: no position has more than 999 pieces,
			// so every position is tested, counts taken on the whole board.
			"full:*>999",
			// Matches no position: every position is tested.
			"none:empty@a1,b1,c1,d1,e1,f1,g1,h1,a8,b8,c8,d8,e8,f8,g8,h8 *>=1 *@hand>=40",
			// A material count and a hand: counts over the whole board.
			"counts:Sente:*<=9 Gote:P@hand>=3 Gote:*>=12",
			// Pieces on squares, common in the opening (many games match).
			"squares:Sente:R@g2 Gote:B@g7 Sente:+*@a1,b1,c1,d1,e1,f1,g1,h1",
		},
	}[game]
	if patterns == nil {
		patterns = []string{"any:*>=1000"}
	}
	for _, pt := range patterns {
		name, text, _ := strings.Cut(pt, ":")
		pat, err := index.ParsePattern(text)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			total := 0
			t0, cpu0 := time.Now(), cpuTime()
			for i := 0; i < b.N; i++ {
				res, err := db.Search(ctx, index.Query{Game: game, Pattern: pat, Count: true})
				if err != nil {
					b.Fatal(err)
				}
				total = res.Total
			}
			per := float64(time.Since(t0).Nanoseconds()) / float64(b.N) / float64(positions)
			b.ReportMetric(per, "ns/position")
			// CPU time (every thread of the process) tells the cost when
			// other processes share the machine.
			b.ReportMetric(float64((cpuTime()-cpu0).Nanoseconds())/float64(b.N)/float64(positions), "cpu-ns/position")
			b.ReportMetric(1e9/per, "positions/s")
			b.ReportMetric(per*float64(positions)/float64(games)*1e6/1e9, "s/1Mgames")
			b.ReportMetric(float64(positions)/float64(games), "positions/game")
			b.ReportMetric(float64(total), "matches")
		})
	}
}

// cpuTime is the user and system CPU time of the process so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
