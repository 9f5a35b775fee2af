// Package bench measures the record pipeline on a generated collection, stage
// by stage: generate, parse, replay-validate, then — in a database — import,
// exact-position lookup, player search, opening tree and pattern scan, with
// throughput, latency percentiles, CPU time, peak memory and database size
// per game. Its report is one Markdown table that can be pasted into a note.
// It is internal, beside cmd/plateau (`plateau bench`), because it composes
// every package of the flow (generate → record → replay → index); no package
// of the flow imports it.
//
// Decisions: the collection is generated into a plain-text file first, so
// that no later stage waits for the generator and memory stays bounded
// whatever the size, and the import reads that file as a user's import does.
// Generation uses Config.Workers goroutines, parse and validate run on one
// goroutine (per-core figures), import uses the index package's defaults
// (every core). Query positions, players and tree positions are sampled
// deterministically from the collection itself, so every query has at least
// one answer.
//
// The import is measured as it goes: its curve is cut at cumulative game
// counts (Config.Curve), so that a large import shows whether it slows as
// the database grows. With Config.Base, a first import (games [Games,
// Games+Base) of the same collection: the same players, no duplicates) fills
// the database before the measured one. While the measured import runs,
// exact-position lookups and opening trees run at a fixed pace
// (Config.QueryEvery) on their own read-only handle — in a process of their
// own with Config.ProbeCommand, as a server's, the import then at
// Config.Nice; the same queries run again after the import, at the same
// pace on a new handle, and their percentiles are compared.
package bench

import (
	"bufio"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/plateau/plateau/index"
	"github.com/plateau/plateau/internal/nice"
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
	// Base is the number of games imported before the measured import
	// (games [Games, Games+Base) of the collection); 0: the measured import
	// goes into an empty database.
	Base int
	// Curve lists the cumulative game counts at which each import's curve
	// is cut (a row per segment); nil: DefaultCurve. A cut at or beyond the
	// import's size makes no row; an import that makes no cut has no curve.
	Curve []int
	// QueryEvery is the pace of the queries run during the measured import
	// (a position lookup and an opening tree in turn); 0: 20 ms; negative:
	// no queries during the import.
	QueryEvery time.Duration
	// CPUProfile is a file for a CPU profile (runtime/pprof) of the measured
	// import; "": none. The base import's profile goes to the same name with
	// "-base" before the extension.
	CPUProfile string
	// TextDir holds the generated record files; "": a temporary directory,
	// removed after.
	TextDir string
	Log     io.Writer
	// ProbeCommand, when set, makes the command of a process that runs the
	// queries during and after the measured import (the same program,
	// calling ServeProbe on its standard input and output); nil: they run
	// in this process, on a second read-only handle.
	ProbeCommand func(context.Context) *exec.Cmd
	// Nice is the priority this process takes for the measured import when
	// the queries run in a process of their own (the zero Setting:
	// unchanged), as `plateau import` takes by default.
	Nice nice.Setting
	// QueriesOnly measures the queries of the database in DBDir as it is,
	// with material sampled from its stored games: no generation, no
	// import (Games and Base are not used).
	QueriesOnly bool
	// Compact merges the position index into one run (plateau compact)
	// after the import, or before the queries with QueriesOnly, timed as a
	// stage of its own: the queries are then those of the compacted
	// database.
	Compact bool
	// Saves is the number of saves timed after the queries (saves.go): a
	// comment added to games spread over the collection, each stored as a
	// new revision; 0: none. They write to the database (its games gain
	// revisions): with QueriesOnly, only when asked for.
	Saves int
	// TreePlies, with QueriesOnly, measures only opening trees: for each
	// ply n listed, in order, the trees of the positions after n plies of
	// the sampled games' main lines, twice (the second pass finds the
	// pages the first read in the page cache); nil: the usual queries.
	TreePlies []int
}

// DefaultCurve is where an import's curve is cut by default.
var DefaultCurve = []int{10_000, 30_000, 100_000, 300_000, 1_000_000, 3_000_000, 10_000_000}

// DefaultQueryEvery is the default pace of the queries during an import.
const DefaultQueryEvery = 20 * time.Millisecond

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

// Slowdown compares queries run during the measured import with the same
// queries run after it: each percentile during ÷ the same after.
type Slowdown struct {
	Query    string // "position lookup", "opening tree"
	P50, P99 float64
}

// Report is the result of a run.
type Report struct {
	Game          string
	Games         int
	Seed          uint64
	Base          int   // games in the database before the measured import
	TextBytes     int64 // of the measured collection
	BaseTextBytes int64 // of the base collection
	DBBytes       int64 // 0 when the database stages did not run
	Stages        []Stage
	Slowdowns     []Slowdown
	Notes         []string
	// QueriesOnly: the queries of an existing database (Config.QueriesOnly);
	// Games is then its number of valid games of the ruleset.
	QueriesOnly bool
	// Load is the machine's load average (1, 5 and 15 minutes, from
	// /proc/loadavg) at the start and at the end of the run; "" where not
	// known.
	Load [2]string
}

// loadAvg reads the load averages of the machine, "" where not known.
func loadAvg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return ""
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return ""
	}
	return strings.Join(f[:3], " ")
}

// ErrInvalid is returned when a generated game does not validate.
var ErrInvalid = errors.New("generated game is invalid")

type meter struct {
	start time.Time
	cpu   time.Duration
}

// CPUTime is the CPU time the process has used, user and system; 0 when
// the system does not say.
func CPUTime() time.Duration {
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

func startMeter() meter { return meter{start: time.Now(), cpu: CPUTime()} }

func (m meter) stop(s *Stage) {
	s.Wall = time.Since(m.start)
	s.CPU = CPUTime() - m.cpu
	s.PeakRSS = peakRSS()
}

// run is the state of one Run.
type run struct {
	cfg  Config
	rep  *Report
	gen  *generate.Generator
	tmp  string // temporary directory, removed after
	text string // directory of the record files
}

func (r *run) logf(format string, args ...any) {
	if r.cfg.Log != nil {
		fmt.Fprintf(r.cfg.Log, format+"\n", args...)
	}
}

// Run generates the collection and measures every stage. The report holds
// the stages done so far even when an error stops the run.
func Run(ctx context.Context, cfg Config) (*Report, error) {
	if cfg.Queries <= 0 {
		cfg.Queries = 200
	}
	if cfg.Curve == nil {
		cfg.Curve = DefaultCurve
	}
	if cfg.QueryEvery == 0 {
		cfg.QueryEvery = DefaultQueryEvery
	}
	r := &run{cfg: cfg, rep: &Report{Game: cfg.Game.ID(), Games: cfg.Games, Seed: cfg.Seed}}
	r.rep.Load[0] = loadAvg()
	defer func() { r.rep.Load[1] = loadAvg() }()
	if !cfg.NoDB {
		r.rep.Base = cfg.Base
	}
	if cfg.QueriesOnly {
		r.rep.QueriesOnly, r.rep.Seed = true, 0
		return r.rep, r.queriesOnly(ctx)
	}
	var err error
	if r.gen, err = generate.New(cfg.Game, cfg.Seed); err != nil {
		return r.rep, err
	}
	if r.tmp, err = os.MkdirTemp("", "plateau-bench-"); err != nil {
		return r.rep, err
	}
	defer os.RemoveAll(r.tmp)
	r.text = cfg.TextDir
	if r.text == "" {
		r.text = r.tmp
	} else if err := os.MkdirAll(r.text, 0o755); err != nil {
		return r.rep, err
	}

	file, gs, err := r.generate(ctx, "generate", "", 0, cfg.Games)
	r.rep.TextBytes = gs.Bytes
	if err != nil {
		return r.rep, err
	}

	if err := r.parse(file, gs); err != nil {
		return r.rep, err
	}
	smp, err := r.validate(file, gs)
	if err != nil {
		return r.rep, err
	}
	if cfg.NoDB {
		r.rep.Notes = append(r.rep.Notes, "database stages skipped (--no-db)")
		return r.rep, nil
	}
	return r.rep, r.runDB(ctx, file, gs, smp)
}

// parse measures reading the records of file.
func (r *run) parse(file string, gs generate.Stats) error {
	r.logf("parsing…")
	st := Stage{Name: "parse", Bytes: gs.Bytes}
	m := startMeter()
	err := eachRecord(file, func(g *record.Game) error {
		st.Count++
		st.Plies += len(g.Moves)
		return nil
	})
	m.stop(&st)
	r.rep.Stages = append(r.rep.Stages, st)
	return err
}

// validate measures reading and replaying the records of file, sampling
// the query material on the way.
func (r *run) validate(file string, gs generate.Stats) (*sampler, error) {
	r.logf("validating…")
	smp := newSampler(r.cfg.Games, r.cfg.Queries)
	st := Stage{Name: "parse + replay-validate", Bytes: gs.Bytes, Note: "as plateau validate"}
	m := startMeter()
	err := eachRecord(file, func(g *record.Game) error {
		rg := replay.Replay(g, replay.Options{})
		if rg.Err != nil {
			return fmt.Errorf("%w: game %d: %v", ErrInvalid, st.Count+1, rg.Err)
		}
		if smp.want(st.Count) {
			smp.take(st.Count, rg)
		}
		st.Count++
		st.Plies += rg.Plies()
		return nil
	})
	m.stop(&st)
	r.rep.Stages = append(r.rep.Stages, st)
	return smp, err
}

// compact merges the position index of the database in dir into one run,
// recorded as a stage.
func (r *run) compact(ctx context.Context, dir string, games int) error {
	r.logf("compacting the position index…")
	db, err := index.Open(ctx, dir, index.Options{})
	if err != nil {
		return err
	}
	st := Stage{Name: "compact", Count: games}
	m := startMeter()
	cs, err := db.CompactPositions(ctx, nil)
	m.stop(&st)
	err = errors.Join(err, db.Close())
	st.Note = fmt.Sprintf("plateau compact: %d position runs merged into one of %s occurrences", cs.Runs, thousands(int(cs.Occurrences)))
	if cs.Runs == 0 {
		st.Note = "plateau compact: nothing to do, the position index is one run"
	}
	r.rep.Stages = append(r.rep.Stages, st)
	return err
}

// generate writes games [first, first+n) of the collection to a new file
// and records a stage.
func (r *run) generate(ctx context.Context, name, suffix string, first, n int) (string, generate.Stats, error) {
	file := filepath.Join(r.text, fmt.Sprintf("%s-%d-%d-%d.pdn", r.rep.Game, r.cfg.Seed, first, n))
	r.logf("generating %d %s games into %s…", n, r.rep.Game, file)
	st := Stage{Name: name}
	m := startMeter()
	gs, err := writeFile(ctx, r.gen, file, first, n, r.cfg.Workers)
	m.stop(&st)
	st.Count, st.Plies, st.Bytes = gs.Games, gs.Plies, gs.Bytes
	workers := r.cfg.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	st.Note = fmt.Sprintf("%d worker(s), into a file%s", workers, suffix)
	r.rep.Stages = append(r.rep.Stages, st)
	return file, gs, err
}

// writeFile writes games [first, first+n) of gen to a new plain-text file.
func writeFile(ctx context.Context, gen *generate.Generator, name string, first, n, workers int) (generate.Stats, error) {
	f, err := os.Create(name)
	if err != nil {
		return generate.Stats{}, err
	}
	bw := bufio.NewWriterSize(f, 1<<20)
	gs, err := gen.Write(ctx, bw, n, generate.Options{Workers: workers, First: first})
	if ferr := bw.Flush(); err == nil {
		err = ferr
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return gs, err
}

// eachRecord reads the records of a file in order and calls f on each.
func eachRecord(name string, f func(*record.Game) error) error {
	file, err := os.Open(name)
	if err != nil {
		return err
	}
	defer file.Close()
	rd := record.NewReader(file, filepath.Base(name))
	for i := 1; ; i++ {
		g, err := rd.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return fmt.Errorf("parse, game %d: %w", i, err)
		}
		if err := f(g); err != nil {
			return err
		}
	}
}

func repeat[T any](x T, n int) []T {
	out := make([]T, n)
	for i := range out {
		out[i] = x
	}
	return out
}

// percentiles sorts lat and sets the stage's p50 and p99.
func percentiles(st *Stage, lat []time.Duration) {
	if len(lat) == 0 {
		return
	}
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	st.P50 = lat[len(lat)/2]
	st.P99 = lat[min(len(lat)-1, len(lat)*99/100)]
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
	percentiles(&st, lat)
	rep.Stages = append(rep.Stages, st)
	return nil
}

// sampler picks query material from about `queries` evenly spread games.
type sampler struct {
	every     int
	positions []rules.Position
	openings  []rules.Position
	plies     map[int][]rules.Position // by ply, the positions after it (Config.TreePlies)
	players   []string
	names     []string                 // whole names, for trees of a player's games
	seen      map[uint64]*seenPosition // every main-line position of the sampled games
}

// seenPosition is a position of the sampled games and how many times they
// reach it.
type seenPosition struct {
	pos rules.Position
	n   int
}

func newSampler(games, queries int) *sampler {
	return &sampler{every: max(1, games/queries)}
}

func (s *sampler) want(i int) bool { return i%s.every == 0 }

// maxTreePly is the deepest ply whose positions the sampler keeps for
// Config.TreePlies.
const maxTreePly = 12

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
	s.see(c.Position())
	for k := 0; k < n; k++ {
		if c.Forward() != nil {
			break
		}
		s.see(c.Position())
		if k+1 == open {
			s.openings = append(s.openings, c.Position().Clone())
		}
		if k < maxTreePly {
			if s.plies == nil {
				s.plies = map[int][]rules.Position{}
			}
			s.plies[k+1] = append(s.plies[k+1], c.Position().Clone())
		}
		if k+1 == target {
			s.positions = append(s.positions, c.Position().Clone())
		}
	}
	side := g.Rules.Sides()[i%2]
	name := g.Record.Tag(side)
	if whole := strings.TrimSpace(name); whole != "" {
		s.names = append(s.names, whole)
	}
	if f := strings.Fields(strings.ReplaceAll(name, ",", " ")); len(f) > 0 {
		name = f[0]
	}
	if name != "" {
		s.players = append(s.players, name)
	}
}

// see counts a position reached by a sampled game.
func (s *sampler) see(p rules.Position) {
	if s.seen == nil {
		s.seen = map[uint64]*seenPosition{}
	}
	if sp := s.seen[p.Key()]; sp != nil {
		sp.n++
		return
	}
	s.seen[p.Key()] = &seenPosition{pos: p.Clone(), n: 1}
}

// popular are the n positions the sampled games reach most often (the
// start position first), ties in key order: the most frequent positions of
// the collection, as far as the sample tells.
func (s *sampler) popular(n int) []rules.Position {
	all := make([]uint64, 0, len(s.seen))
	for k := range s.seen {
		all = append(all, k)
	}
	slices.SortFunc(all, func(a, b uint64) int {
		if c := cmp.Compare(s.seen[b].n, s.seen[a].n); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
	out := make([]rules.Position, 0, n)
	for _, k := range all[:min(n, len(all))] {
		out = append(out, s.seen[k].pos)
	}
	return out
}

// Markdown renders the report as one table with a title line and notes.
func (r *Report) Markdown() string {
	var b strings.Builder
	if r.QueriesOnly {
		fmt.Fprintf(&b, "plateau bench: %s, queries on a database of %d games", r.Game, r.Games)
		if r.DBBytes > 0 {
			fmt.Fprintf(&b, ", %.0f database bytes per game", perGame(r.DBBytes, r.Games))
		}
		fmt.Fprintf(&b, "; %s, %d CPUs, GOMAXPROCS %d\n\n", runtime.Version(), runtime.NumCPU(), runtime.GOMAXPROCS(0))
		return r.table(&b)
	}
	fmt.Fprintf(&b, "plateau bench: %s, %d games", r.Game, r.Games)
	if r.Base > 0 {
		fmt.Fprintf(&b, " into a database of %d", r.Base)
	}
	text := r.TextBytes + r.BaseTextBytes
	fmt.Fprintf(&b, ", seed %d; %.0f bytes of text per game", r.Seed, perGame(text, r.Games+r.Base))
	if r.DBBytes > 0 {
		fmt.Fprintf(&b, ", %.0f database bytes per game (%.2f× the text)", perGame(r.DBBytes, r.Games+r.Base), float64(r.DBBytes)/float64(max(1, text)))
	}
	fmt.Fprintf(&b, "; %s, %d CPUs, GOMAXPROCS %d\n\n", runtime.Version(), runtime.NumCPU(), runtime.GOMAXPROCS(0))
	return r.table(&b)
}

// table writes the stages, the notes and the load after the title line.
func (r *Report) table(b *strings.Builder) string {
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
		// CPU time and memory are the process's: not measured for the
		// queries run beside an import.
		cpu, rss := "", ""
		if s.CPU != 0 || s.PeakRSS != 0 {
			cpu, rss = fmt.Sprintf("%.2f", s.CPU.Seconds()), fmt.Sprintf("%.0f", float64(s.PeakRSS)/1e6)
		}
		fmt.Fprintf(b, "| %s | %d | %.2f | %s | %s | %s | %s | %s | %s | %s | %s |\n",
			s.Name, s.Count, sec, cpu, rate(float64(s.Count)), rate(float64(s.Plies)), mbs, p50, p99, rss, s.Note)
	}
	for _, n := range r.Notes {
		fmt.Fprintf(b, "\n%s\n", n)
	}
	if r.Load[0] != "" || r.Load[1] != "" {
		fmt.Fprintf(b, "\nLoad average (1, 5, 15 min): %s at the start, %s at the end.\n", r.Load[0], r.Load[1])
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

// thousands writes n with comma separators: 1,000,000.
func thousands(n int) string {
	s := strconv.Itoa(n)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}
