package bench

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime/pprof"
	"strings"
	"time"

	"github.com/plateau/plateau/index"
	"github.com/plateau/plateau/internal/ingest"
	"github.com/plateau/plateau/internal/nice"
	"github.com/plateau/plateau/replay"
	"github.com/plateau/plateau/replay/generate"
	"github.com/plateau/plateau/rules"
)

// runDB measures the imports and the queries in a database.
func (r *run) runDB(ctx context.Context, file string, gs generate.Stats, smp *sampler) error {
	cfg, rep := r.cfg, r.rep
	dir := cfg.DBDir
	if dir == "" {
		dir = filepath.Join(r.tmp, "db")
	}

	// The queries run during the measured import look for positions of
	// games already stored: the base's when there is one.
	probeSmp := smp
	if cfg.Base > 0 {
		bfile, bgs, err := r.generate(ctx, "generate (base)", ", games after the measured ones", cfg.Games, cfg.Base)
		rep.BaseTextBytes = bgs.Bytes
		if err != nil {
			return err
		}
		if probeSmp, err = r.sampleBase(); err != nil {
			return err
		}
		if _, err := r.importFile(ctx, dir, "import (base)", bfile, bgs, "replay + SQLite + Bleve, all cores; into an empty database", profileName(cfg.CPUProfile, "-base"), nil); err != nil {
			return err
		}
	}

	var pr *probe
	if cfg.QueryEvery > 0 {
		pr = &probe{game: rep.Game, every: cfg.QueryEvery, positions: probeSmp.positions, trees: probeSmp.openings}
	}
	note := "replay + SQLite + Bleve, all cores; into an empty database"
	if cfg.Base > 0 {
		note = fmt.Sprintf("replay + SQLite + Bleve, all cores; into a database of %s games", thousands(cfg.Base))
	}
	if pr != nil {
		defer func() {
			if pr.proc != nil {
				pr.proc.close()
			}
		}()
	}
	if _, err := r.importFile(ctx, dir, "import", file, gs, note, cfg.CPUProfile, pr); err != nil {
		return err
	}
	if cfg.CPUProfile != "" {
		p := cfg.CPUProfile
		if cfg.Base > 0 {
			p += " (base import: " + profileName(cfg.CPUProfile, "-base") + ")"
		}
		rep.Notes = append(rep.Notes, "CPU profile of the import: "+p+"; read it with `go tool pprof -top -cum FILE`; the queries run during the import are labelled bench=queries (`-tagignore bench=queries` leaves them out).")
	}
	if cfg.Compact {
		if err := r.compact(ctx, dir, cfg.Games+cfg.Base); err != nil {
			return err
		}
	}
	// The size is that of the closed database: every file of its directory
	// (SQLite, a WAL if any remains, the text index), as a user sees it.
	var err error
	if rep.DBBytes, err = index.DiskSize(dir); err != nil {
		return err
	}
	db, err := index.Open(ctx, dir, index.Options{ReadOnly: true})
	if err != nil {
		return err
	}
	defer db.Close()

	if pr != nil {
		if err := r.probeAfter(ctx, dir, pr, probeSmp == smp); err != nil {
			return err
		}
	}

	if err := r.queries(ctx, db, smp); err != nil {
		return err
	}
	return r.saves(ctx, dir, cfg.Games+cfg.Base)
}

// queries measures the queries of a database: exact-position lookup,
// player search, opening trees, pattern scan.
func (r *run) queries(ctx context.Context, db *index.DB, smp *sampler) error {
	rep := r.rep
	cfg := r.cfg
	game := rep.Game
	// Exact position lookup.
	r.logf("position lookups…")
	lookup := func(pos rules.Position) error {
		_, err := db.Search(ctx, index.Query{Game: game, Position: pos, Limit: 50})
		return err
	}
	if err := latency(rep, "position lookup", "first 50 games, main lines and variations", smp.positions, lookup); err != nil {
		return err
	}
	// The same lookups again: the first pass reads the position blocks from
	// disk when the database is larger than the page cache (or the pattern
	// scan of an earlier run filled it), the second finds them in memory, as
	// a user looking at the same positions again does.
	if err := latency(rep, "position lookup (again)", "the same positions a second time: their blocks in the page cache", smp.positions, lookup); err != nil {
		return err
	}
	if err := r.popular(ctx, db, smp); err != nil {
		return err
	}
	r.logf("player searches…")
	if err := latency(rep, "player search", "fuzzy, either side, first 50 games", smp.players, func(name string) error {
		_, err := db.Search(ctx, index.Query{Game: game, Player: name, Limit: 50})
		return err
	}); err != nil {
		return err
	}
	r.logf("opening trees…")
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
	if err := r.filteredTrees(ctx, db, smp, start); err != nil {
		return err
	}
	// A pattern no position matches (more than 999 pieces on the board):
	// every game's signature rules it out (internal/patsig); a database
	// without signatures tests every position of every game.
	r.logf("pattern searches…")
	pat, err := index.ParsePattern("*>999")
	if err != nil {
		return err
	}
	if err := latency(rep, "pattern search (full scan)", "no position matches: every game skipped by its signature (without signatures, every position of every game tested)", repeat(pat, 3), func(p *index.Pattern) error {
		res, err := db.Search(ctx, index.Query{Game: game, Pattern: p, Count: true})
		if err == nil && res.Total != 0 {
			err = fmt.Errorf("pattern %q matched %d games", p.Text, res.Total)
		}
		return err
	}); err != nil {
		return err
	}
	return r.patternScans(ctx, db, start) // patterns.go
}

// popularPositions is how many of the most frequent positions the
// popular-position stages ask for, and popularPasses how many times.
const popularPositions, popularPasses = 20, 3

// popular measures the games of the most frequent positions (the start
// position, those of the commonest openings): their exact count and first
// 50 games, then what the "games with this position" pane of plateau serve
// asks (its first 50 games and a count that stops at 1,000).
func (r *run) popular(ctx context.Context, db *index.DB, smp *sampler) error {
	game := r.rep.Game
	r.logf("popular positions…")
	pos := smp.popular(popularPositions)
	items := make([]rules.Position, 0, popularPasses*len(pos))
	for range popularPasses {
		items = append(items, pos...)
	}
	note := fmt.Sprintf("the %d positions the sampled games reach most, %d times each: ", len(pos), popularPasses)
	if err := latency(r.rep, "popular positions", note+"exact count and first 50 games", items, func(p rules.Position) error {
		_, err := db.Search(ctx, index.Query{Game: game, Position: p, Limit: 50, Count: true})
		return err
	}); err != nil {
		return err
	}
	return latency(r.rep, "popular positions (pane)", note+"first 50 games and a count up to 1,000, as plateau serve's pane", items, func(p rules.Position) error {
		q := index.Query{Game: game, Position: p, Limit: 50}
		if _, err := db.Search(ctx, q); err != nil {
			return err
		}
		_, _, err := db.PositionCount(ctx, q, 1000)
		return err
	})
}

// profileName inserts suffix before the extension of name: cpu.pprof →
// cpu-base.pprof.
func profileName(name, suffix string) string {
	if name == "" {
		return ""
	}
	ext := filepath.Ext(name)
	return strings.TrimSuffix(name, ext) + suffix + ext
}

// sampleBase picks the query material of the probe from the base
// collection, generating only the sampled games.
func (r *run) sampleBase() (*sampler, error) {
	cfg := r.cfg
	smp := newSampler(cfg.Base, cfg.Queries)
	w := r.gen.NewWorker()
	for i := 0; i < cfg.Base; i += smp.every {
		g, err := w.Game(cfg.Games + i)
		if err != nil {
			return nil, err
		}
		rg := replay.Replay(g, replay.Options{})
		if rg.Err != nil {
			return nil, fmt.Errorf("%w: game %d: %v", ErrInvalid, cfg.Games+i+1, rg.Err)
		}
		smp.take(i, rg)
	}
	return smp, nil
}

// importFile opens the database for writing, imports file into it (with a
// CPU profile when prof is set and the probe running when pr is set),
// closes it and records the import's stage and its curve.
func (r *run) importFile(ctx context.Context, dir, name, file string, gs generate.Stats, note, prof string, pr *probe) (_ index.ImportStats, err error) {
	db, err := index.Open(ctx, dir, index.Options{})
	if err != nil {
		return index.ImportStats{}, err
	}
	defer func() {
		if db != nil {
			db.Close()
		}
	}()
	stopProbe, undo, err := r.startProbe(ctx, dir, pr)
	if err != nil {
		return index.ImportStats{}, err
	}
	defer func() { undo(err != nil) }()
	if prof != "" {
		f, err := os.Create(prof)
		if err != nil {
			return index.ImportStats{}, err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return index.ImportStats{}, fmt.Errorf("CPU profile: %w", err)
		}
	}
	r.logf("%s of %s into %s…", name, file, dir)
	cv := newCurve(name, r.cfg.Curve)
	cv.log = r.logf
	st := Stage{Name: name, Bytes: gs.Bytes, Plies: gs.Plies, Note: note}
	m := startMeter()
	is, err := ingest.Files(ctx, db, []string{file}, ingest.Options{ImportOptions: index.ImportOptions{Progress: cv.progress}})
	m.stop(&st)
	if prof != "" {
		pprof.StopCPUProfile()
		if sec, perr := stageCPU(prof); perr != nil {
			r.rep.Notes = append(r.rep.Notes, fmt.Sprintf("CPU by stage, %s: %v", name, perr))
		} else {
			r.rep.Notes = append(r.rep.Notes, fmt.Sprintf("CPU by stage, %s (profile labels): %s.", name, stageNote(sec, is.Stored)))
		}
	}
	var perr error
	if stopProbe != nil {
		perr = stopProbe()
	}
	st.Count = is.Stored
	if is.Duplicates > 0 || is.Invalid > 0 {
		st.Note += fmt.Sprintf("; %d duplicates, %d invalid", is.Duplicates, is.Invalid)
	}
	r.rep.Stages = append(r.rep.Stages, st)
	if err != nil {
		return is, err
	}
	if perr != nil {
		return is, fmt.Errorf("queries during the import: %w", perr)
	}
	cv.end(is)
	r.rep.Stages = append(r.rep.Stages, cv.rows...)
	err = db.Close()
	db = nil
	return is, err
}

// startProbe starts the queries during the import when pr is set: in a
// process of their own (the import then at Config.Nice) or on a second,
// read-only handle of the database. stop ends them and returns their
// error; undo, after the import, puts back what startProbe changed (the
// priority, the handle) and, when the import failed, ends the process.
func (r *run) startProbe(ctx context.Context, dir string, pr *probe) (stop func() error, undo func(failed bool), err error) {
	var undos []func(failed bool)
	undo = func(failed bool) {
		for i := len(undos) - 1; i >= 0; i-- {
			undos[i](failed)
		}
	}
	switch {
	case pr != nil && r.cfg.ProbeCommand != nil:
		proc, err := startProbeProc(ctx, r.cfg.ProbeCommand(ctx), dir, pr)
		if err != nil {
			return nil, nil, err
		}
		pr.proc = proc
		stop = proc.stop
		undos = append(undos, func(failed bool) {
			if failed {
				proc.close()
			}
		})
	case pr != nil:
		// A second handle, read-only, as another process would open it.
		rdb, err := index.Open(ctx, dir, index.Options{ReadOnly: true})
		if err != nil {
			return nil, nil, err
		}
		undos = append(undos, func(bool) { rdb.Close() })
		pr.db = rdb
		stop = pr.start(ctx)
	}
	if pr != nil && pr.proc != nil && r.cfg.Nice.Changes() {
		// The measured import yields to the queries, as `plateau import`
		// does to a server (internal/nice); the stages after it run at the
		// priority before, where the process may take it back.
		was := nice.Current()
		if err := r.cfg.Nice.Apply(); err != nil {
			undo(true)
			return nil, nil, err
		}
		undos = append(undos, func(bool) {
			if err := nice.Restore(was); err != nil {
				now := nice.Setting{Idle: nice.IsIdle(), Nice: nice.Current()}
				r.rep.Notes = append(r.rep.Notes, fmt.Sprintf("The stages after the import ran at %v: %v.", now, err))
			}
		})
	}
	return stop, undo, nil
}

// curve cuts an import into segments at cumulative game counts, from its
// progress reports.
type curve struct {
	name string
	cuts []int
	next int
	last point
	rows []Stage
	// log, if set, tells each segment as it ends, so that a run stopped
	// before its report (a 10M-game import cut short) still says its curve.
	log func(format string, args ...any)
}

type point struct {
	stored  int
	elapsed time.Duration
	cpu     time.Duration
}

func newCurve(name string, cuts []int) *curve {
	return &curve{name: name, cuts: cuts, last: point{cpu: CPUTime()}}
}

// progress is the import's Progress callback.
func (c *curve) progress(st index.ImportStats) {
	if c.next >= len(c.cuts) || st.Stored < c.cuts[c.next] {
		return
	}
	for c.next < len(c.cuts) && c.cuts[c.next] <= st.Stored {
		c.next++
	}
	c.cut(st.Stored, st.Elapsed)
}

// end closes the last segment. A curve of one segment (no cut, or only
// the import's last progress report) would repeat the import's row: it is
// dropped.
func (c *curve) end(st index.ImportStats) {
	if len(c.rows) > 0 && st.Stored > c.last.stored {
		c.cut(st.Stored, st.Elapsed)
	}
	if len(c.rows) == 1 {
		c.rows = nil
	}
}

func (c *curve) cut(stored int, elapsed time.Duration) {
	p := point{stored: stored, elapsed: elapsed, cpu: CPUTime()}
	c.rows = append(c.rows, Stage{
		Name:    fmt.Sprintf("%s, games %s–%s", c.name, thousands(c.last.stored), thousands(stored)),
		Count:   stored - c.last.stored,
		Wall:    elapsed - c.last.elapsed,
		CPU:     p.cpu - c.last.cpu,
		PeakRSS: peakRSS(),
		Note:    fmt.Sprintf("cumulative: %.0f games/s", float64(stored)/max(elapsed.Seconds(), 1e-9)),
	})
	if c.log != nil {
		st := c.rows[len(c.rows)-1]
		c.log("%s: %.0f games/s (%s, %.0f s CPU); %s", st.Name, float64(st.Count)/max(st.Wall.Seconds(), 1e-9),
			st.Wall.Round(time.Second), st.CPU.Seconds(), st.Note)
	}
	c.last = p
}
