// Package bench measures the record pipeline on a generated collection, stage
// by stage: generate, parse, replay-validate, then — in a database — import,
// exact-position lookup, player search and opening tree, with throughput,
// latency percentiles, CPU time, peak memory and database size per game. Its
// report is one Markdown table that can be pasted into a note. It is
// internal, beside cmd/plateau (`plateau bench`), because it composes every
// package of the flow (generate → record → replay → index); no package of the
// flow imports it.
//
// Decisions: the collection is generated into memory first, so that no later
// stage waits for the generator; generation uses Config.Workers goroutines,
// parse and validate run on one goroutine (per-core figures), import uses the
// index package's defaults (every core). Query positions, players and
// tree positions are sampled deterministically from the collection itself,
// so every query has at least one answer.
package bench

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"syscall"
	"time"

	"github.com/plateau/plateau/index"
	"github.com/plateau/plateau/record"
	"github.com/plateau/plateau/replay"
	"github.com/plateau/plateau/replay/generate"
	"github.com/plateau/plateau/rules"
)

// Config says what to measure.
type Config struct {
	Game    rules.Game
	Games   int
	Seed    uint64
	Workers int    // generation goroutines; 0 = one per core
	DBDir   string // database directory; "" = a temporary one, removed after
	NoDB    bool   // skip the database stages
	Queries int    // queries per latency stage; 0 = 200
	Log     io.Writer
}

// Stage is one row of the report.
type Stage struct {
	Name    string
	Count   int // games processed, or queries run
	Plies   int
	Bytes   int64
	Wall    time.Duration
	CPU     time.Duration // user+system time of the process during the stage
	P50     time.Duration // latency stages only
	P99     time.Duration
	PeakRSS int64 // bytes, process high-water mark at the end of the stage
	Note    string
}

// Report is the result of a run.
type Report struct {
	Game      string
	Games     int
	Seed      uint64
	TextBytes int64
	DBBytes   int64 // 0 when the database stages did not run
	Stages    []Stage
	Notes     []string
}

// ErrInvalid is returned when a generated game does not validate.
var ErrInvalid = errors.New("generated game is invalid")

type meter struct {
	start time.Time
	cpu   time.Duration
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func peakRSS() int64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return ru.Maxrss * 1024 // kilobytes on Linux
}

func startMeter() meter { return meter{start: time.Now(), cpu: cpuTime()} }

func (m meter) stop(s *Stage) {
	s.Wall = time.Since(m.start)
	s.CPU = cpuTime() - m.cpu
	s.PeakRSS = peakRSS()
}

// Run generates the collection and measures every stage. The report holds
// the stages done so far even when an error stops the run.
func Run(ctx context.Context, cfg Config) (*Report, error) {
	if cfg.Queries <= 0 {
		cfg.Queries = 200
	}
	logf := func(format string, args ...any) {
		if cfg.Log != nil {
			fmt.Fprintf(cfg.Log, format+"\n", args...)
		}
	}
	rep := &Report{Game: cfg.Game.ID(), Games: cfg.Games, Seed: cfg.Seed}

	// Generate.
	logf("generating %d %s games…", cfg.Games, cfg.Game.ID())
	gen, err := generate.New(cfg.Game, cfg.Seed)
	if err != nil {
		return rep, err
	}
	var text blocks
	st := Stage{Name: "generate"}
	m := startMeter()
	gs, err := gen.Write(ctx, &text, cfg.Games, generate.Options{Workers: cfg.Workers})
	m.stop(&st)
	st.Count, st.Plies, st.Bytes = gs.Games, gs.Plies, gs.Bytes
	workers := cfg.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	st.Note = fmt.Sprintf("%d worker(s)", workers)
	rep.Stages = append(rep.Stages, st)
	rep.TextBytes = gs.Bytes
	if err != nil {
		return rep, err
	}

	// Parse.
	logf("parsing…")
	st = Stage{Name: "parse", Bytes: text.size}
	m = startMeter()
	rd := record.NewReader(text.reader(), "generated")
	for {
		g, err := rd.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			m.stop(&st)
			rep.Stages = append(rep.Stages, st)
			return rep, fmt.Errorf("parse, game %d: %w", st.Count+1, err)
		}
		st.Count++
		st.Plies += len(g.Moves)
	}
	m.stop(&st)
	rep.Stages = append(rep.Stages, st)

	// Parse and replay-validate, sampling query material on the way.
	logf("validating…")
	smp := newSampler(cfg.Games, cfg.Queries)
	st = Stage{Name: "parse + replay-validate", Bytes: text.size, Note: "as plateau validate"}
	m = startMeter()
	rd = record.NewReader(text.reader(), "generated")
	for i := 0; ; i++ {
		g, err := rd.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return rep, fmt.Errorf("parse, game %d: %w", i+1, err)
		}
		rg := replay.Replay(g, replay.Options{})
		if rg.Err != nil {
			m.stop(&st)
			rep.Stages = append(rep.Stages, st)
			return rep, fmt.Errorf("%w: game %d: %v", ErrInvalid, i+1, rg.Err)
		}
		st.Count++
		st.Plies += rg.Plies()
		if smp.want(i) {
			smp.take(i, rg)
		}
	}
	m.stop(&st)
	rep.Stages = append(rep.Stages, st)

	if cfg.NoDB {
		rep.Notes = append(rep.Notes, "database stages skipped (--no-db)")
		return rep, nil
	}
	return rep, runDB(ctx, cfg, rep, &text, smp, logf)
}

// runDB measures import and queries in a database.
func runDB(ctx context.Context, cfg Config, rep *Report, text *blocks, smp *sampler, logf func(string, ...any)) error {
	dir := cfg.DBDir
	tmp, err := os.MkdirTemp("", "plateau-bench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	if dir == "" {
		dir = filepath.Join(tmp, "db")
	}
	file := filepath.Join(tmp, rep.Game+".pdn")
	if err := text.writeFile(file); err != nil {
		return err
	}
	db, err := index.Open(ctx, dir, index.Options{})
	if err != nil {
		return err
	}
	defer func() {
		if db != nil {
			db.Close()
		}
	}()

	logf("importing into %s…", dir)
	st := Stage{Name: "import", Bytes: text.size, Note: "replay + SQLite + Bleve, all cores"}
	m := startMeter()
	is, err := db.Import(ctx, []string{file}, index.ImportOptions{})
	m.stop(&st)
	st.Count, st.Plies = is.Stored, rep.Stages[0].Plies
	if is.Duplicates > 0 || is.Invalid > 0 {
		st.Note += fmt.Sprintf("; %d duplicates, %d invalid", is.Duplicates, is.Invalid)
	}
	rep.Stages = append(rep.Stages, st)
	if err != nil {
		return err
	}
	// The size is that of the closed database: every file of its directory
	// (SQLite, a WAL if any remains, the text index), as a user sees it.
	err = db.Close()
	db = nil
	if err != nil {
		return err
	}
	if rep.DBBytes, err = index.DiskSize(dir); err != nil {
		return err
	}
	if db, err = index.Open(ctx, dir, index.Options{ReadOnly: true}); err != nil {
		return err
	}

	game := rep.Game
	// Exact position lookup.
	logf("position lookups…")
	if err := latency(rep, "position lookup", "first 50 games, main lines and variations", smp.positions, func(pos rules.Position) error {
		_, err := db.Search(ctx, index.Query{Game: game, Position: pos, Limit: 50})
		return err
	}); err != nil {
		return err
	}
	logf("player searches…")
	if err := latency(rep, "player search", "fuzzy, either side, first 50 games", smp.players, func(name string) error {
		_, err := db.Search(ctx, index.Query{Game: game, Player: name, Limit: 50})
		return err
	}); err != nil {
		return err
	}
	logf("opening trees…")
	start, err := cfg.Game.NewPosition("")
	if err != nil {
		return err
	}
	if err := latency(rep, "opening tree (start)", "the start position", repeat(start, 20), func(pos rules.Position) error {
		_, err := db.Tree(ctx, game, pos)
		return err
	}); err != nil {
		return err
	}
	if err := latency(rep, "opening tree (ply 1–8)", "positions of the collection's openings", smp.openings, func(pos rules.Position) error {
		_, err := db.Tree(ctx, game, pos)
		return err
	}); err != nil {
		return err
	}
	// A pattern no position matches (more than 999 pieces on the board), so
	// that every position of every game is tested.
	logf("pattern searches…")
	pat, err := index.ParsePattern("*>999")
	if err != nil {
		return err
	}
	return latency(rep, "pattern search (full scan)", "no position matches: every position of every game tested", repeat(pat, 3), func(p *index.Pattern) error {
		res, err := db.Search(ctx, index.Query{Game: game, Pattern: p, Count: true})
		if err == nil && res.Total != 0 {
			err = fmt.Errorf("pattern %q matched %d games", p.Text, res.Total)
		}
		return err
	})
}

func repeat[T any](x T, n int) []T {
	out := make([]T, n)
	for i := range out {
		out[i] = x
	}
	return out
}

// latency runs q on every item and records a latency stage.
func latency[T any](rep *Report, name, note string, items []T, q func(T) error) error {
	st := Stage{Name: name, Note: note}
	if len(items) == 0 {
		st.Note = "no sample"
		rep.Stages = append(rep.Stages, st)
		return nil
	}
	lat := make([]time.Duration, 0, len(items))
	m := startMeter()
	for _, it := range items {
		t := time.Now()
		if err := q(it); err != nil {
			m.stop(&st)
			rep.Stages = append(rep.Stages, st)
			return fmt.Errorf("%s: %w", name, err)
		}
		lat = append(lat, time.Since(t))
		st.Count++
	}
	m.stop(&st)
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	st.P50 = lat[len(lat)/2]
	st.P99 = lat[min(len(lat)-1, len(lat)*99/100)]
	rep.Stages = append(rep.Stages, st)
	return nil
}

// sampler picks query material from about `queries` evenly spread games.
type sampler struct {
	every     int
	positions []rules.Position
	openings  []rules.Position
	players   []string
}

func newSampler(games, queries int) *sampler {
	return &sampler{every: max(1, games/queries)}
}

func (s *sampler) want(i int) bool { return i%s.every == 0 }

// take keeps a middle-game position, an opening position (ply 1–8) and a
// player's name (a word of it, as a person would type it) from game i.
func (s *sampler) take(i int, g *replay.Game) {
	n := len(g.Main)
	if n == 0 {
		return
	}
	c := g.Cursor()
	target := n / 2
	open := 1 + i%8
	for k := 0; k < n && k < max(target, open); k++ {
		if c.Forward() != nil {
			break
		}
		if k+1 == open {
			s.openings = append(s.openings, c.Position().Clone())
		}
		if k+1 == target {
			s.positions = append(s.positions, c.Position().Clone())
		}
	}
	side := g.Rules.Sides()[i%2]
	name := g.Record.Tag(side)
	if f := strings.Fields(strings.ReplaceAll(name, ",", " ")); len(f) > 0 {
		name = f[0]
	}
	if name != "" {
		s.players = append(s.players, name)
	}
}

// Markdown renders the report as one table with a title line.
func (r *Report) Markdown() string {
	var b strings.Builder
	fmt.Fprintf(&b, "plateau bench: %s, %d games, seed %d; %.0f bytes of text per game", r.Game, r.Games, r.Seed, perGame(r.TextBytes, r.Games))
	if r.DBBytes > 0 {
		fmt.Fprintf(&b, ", %.0f database bytes per game (%.2f× the text)", perGame(r.DBBytes, r.Games), float64(r.DBBytes)/float64(max(1, r.TextBytes)))
	}
	fmt.Fprintf(&b, "; %s, %d CPUs, GOMAXPROCS %d\n\n", runtime.Version(), runtime.NumCPU(), runtime.GOMAXPROCS(0))
	b.WriteString("| stage | n | wall s | CPU s | games/s | plies/s | MB/s | p50 | p99 | peak RSS MB | note |\n")
	b.WriteString("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n")
	for _, s := range r.Stages {
		sec := s.Wall.Seconds()
		rate := func(x float64) string {
			if x == 0 || sec == 0 || s.P50 != 0 {
				return ""
			}
			return fmt.Sprintf("%.0f", x/sec)
		}
		mbs := ""
		if s.Bytes > 0 && sec > 0 {
			mbs = fmt.Sprintf("%.1f", float64(s.Bytes)/1e6/sec)
		}
		p50, p99 := "", ""
		if s.P50 != 0 {
			p50, p99 = dur(s.P50), dur(s.P99)
		}
		fmt.Fprintf(&b, "| %s | %d | %.2f | %.2f | %s | %s | %s | %s | %s | %.0f | %s |\n",
			s.Name, s.Count, sec, s.CPU.Seconds(), rate(float64(s.Count)), rate(float64(s.Plies)), mbs, p50, p99,
			float64(s.PeakRSS)/1e6, s.Note)
	}
	for _, n := range r.Notes {
		fmt.Fprintf(&b, "\n%s\n", n)
	}
	return b.String()
}

func perGame(n int64, games int) float64 { return float64(n) / float64(max(1, games)) }

func dur(d time.Duration) string {
	switch {
	case d < time.Millisecond:
		return fmt.Sprintf("%.0f µs", float64(d)/1e3)
	case d < time.Second:
		return fmt.Sprintf("%.1f ms", float64(d)/1e6)
	}
	return fmt.Sprintf("%.2f s", d.Seconds())
}

// blocks is a text kept in memory in blocks of blockSize bytes, so that a
// collection of a million games grows without being copied on the way.
type blocks struct {
	list [][]byte
	size int64
}

const blockSize = 16 << 20

func (b *blocks) Write(p []byte) (int, error) {
	n := len(p)
	for len(p) > 0 {
		if len(b.list) == 0 || len(b.list[len(b.list)-1]) == blockSize {
			b.list = append(b.list, make([]byte, 0, blockSize))
		}
		last := &b.list[len(b.list)-1]
		k := min(len(p), blockSize-len(*last))
		*last = append(*last, p[:k]...)
		p = p[k:]
	}
	b.size += int64(n)
	return n, nil
}

// reader reads the text from the start.
func (b *blocks) reader() io.Reader {
	rs := make([]io.Reader, len(b.list))
	for i, blk := range b.list {
		rs[i] = bytes.NewReader(blk)
	}
	return io.MultiReader(rs...)
}

// writeFile writes the text to a new file.
func (b *blocks) writeFile(name string) error {
	f, err := os.Create(name)
	if err != nil {
		return err
	}
	for _, blk := range b.list {
		if _, err := f.Write(blk); err != nil {
			f.Close()
			return err
		}
	}
	return f.Close()
}
