package bench

import (
	"context"
	"fmt"
	"runtime/pprof"
	"time"

	"github.com/plateau/plateau/index"
	"github.com/plateau/plateau/rules"
)

// maxAfter bounds the queries run again after the import (both kinds): at
// the default pace, 60 s. The slowdown's p99 compares with the p99 of
// these: with 1000 (500 of each kind) it rested on their 5 slowest, and
// moved between runs of one bench from 0.9 to 6.2 ms.
const maxAfter = 3000

// probe runs exact-position lookups and opening trees in turn, at a fixed
// pace, on its own read-only handle while an import runs. Query i is a
// position lookup when i is even, a tree when it is odd, each on the next
// item of its sample, so that run(n) after the import repeats the same
// queries.
type probe struct {
	db        *index.DB
	game      string
	every     time.Duration
	positions []rules.Position
	trees     []rules.Position

	n       int // queries run during the import
	wall    time.Duration
	lat     [2][]time.Duration // position lookups, trees
	started time.Time
	err     error

	proc *probeProc // the probe's process (Config.ProbeCommand), nil: in this one

	// runs are the position runs of the database, read every runsEvery
	// queries during the import; afterRuns, before the queries after it.
	runs      []int
	afterRuns int
}

// runsEvery is how often the probe reads the number of position runs
// during the import (a lookup reads a block of each): every second at the
// default pace.
const runsEvery = 50

var probeKinds = [2]string{"position lookup", "opening tree"}

// query runs query i and returns its kind, or -1 when its sample is empty.
func (p *probe) query(ctx context.Context, db *index.DB, i int) (int, time.Duration, error) {
	k := i % 2
	list := p.positions
	if k == 1 {
		list = p.trees
	}
	if len(list) == 0 {
		return -1, 0, nil
	}
	pos := list[(i/2)%len(list)]
	t := time.Now()
	var err error
	if k == 0 {
		_, err = db.Search(ctx, index.Query{Game: p.game, Position: pos, Limit: 50})
	} else {
		_, err = db.Tree(ctx, p.game, pos)
	}
	return k, time.Since(t), err
}

// start runs the queries on a goroutine until the returned stop is called;
// stop waits for the query under way and returns the first error. The
// first query has begun when start returns.
func (p *probe) start(ctx context.Context) (stop func() error) {
	quit, done, begun := make(chan struct{}), make(chan struct{}), make(chan struct{})
	go pprof.Do(ctx, pprof.Labels("bench", "queries"), func(ctx context.Context) {
		defer close(done)
		t := time.NewTicker(p.every)
		defer t.Stop()
		p.started = time.Now()
		for i := 0; ; i++ {
			if i == 0 {
				close(begun)
			}
			k, d, err := p.query(ctx, p.db, i)
			if err != nil {
				p.err = err
				return
			}
			if k >= 0 {
				p.lat[k] = append(p.lat[k], d)
			}
			p.n = i + 1
			if i%runsEvery == 0 {
				if n, err := p.db.PositionRuns(ctx); err == nil {
					p.runs = append(p.runs, n)
				}
			}
			select {
			case <-quit:
				return
			case <-ctx.Done():
				return
			case <-t.C:
			}
		}
	})
	<-begun
	return func() error {
		close(quit)
		<-done
		p.wall = time.Since(p.started)
		return p.err
	}
}

// again runs the probe's first queries (at most maxAfter) once more, the
// import done, as they ran during it: at the same pace, on a new read-only
// handle of dir (whose cache holds no page yet). Run one after the other on
// the handle that had just run them, they took a quarter of the time they
// take paced on a new handle with no import at all (1M Ōgi games, idle
// machine: position lookup p50 0.44 ms against 2.1–2.5 ms), and the
// comparison measured the warm cache, not the import.
func (p *probe) again(ctx context.Context, dir string) ([2][]time.Duration, Stage, error) {
	var after [2][]time.Duration
	var st Stage
	db, err := index.Open(ctx, dir, index.Options{ReadOnly: true})
	if err != nil {
		return after, st, err
	}
	defer db.Close()
	if p.afterRuns, err = db.PositionRuns(ctx); err != nil {
		return after, st, err
	}
	t := time.NewTicker(p.every)
	defer t.Stop()
	m := startMeter()
	for i := 0; i < min(p.n, maxAfter); i++ {
		if i > 0 {
			select {
			case <-ctx.Done():
				return after, st, ctx.Err()
			case <-t.C:
			}
		}
		k, d, err := p.query(ctx, db, i)
		if err != nil {
			return after, st, fmt.Errorf("queries after the import: %w", err)
		}
		if k >= 0 {
			after[k] = append(after[k], d)
		}
	}
	m.stop(&st)
	return after, st, nil
}

// probeAfter runs the probe's queries again — on db, or in the probe's
// process — and records both sets of rows and the slowdowns.
func (r *run) probeAfter(ctx context.Context, dir string, p *probe, ownCollection bool) error {
	r.logf("the queries of the import, again…")
	var after [2][]time.Duration
	var st Stage
	where := "on a second read-only handle"
	if p.proc != nil {
		res, err := p.proc.again()
		if err != nil {
			return err
		}
		p.n, p.wall, p.lat = res.N, res.Wall, res.During
		p.runs, p.afterRuns = res.Runs, res.AfterRuns
		after, st = res.After, Stage{Wall: res.AfterWall, CPU: res.AfterCPU, PeakRSS: res.AfterRSS}
		where = "in a process of its own"
	} else {
		var err error
		if after, st, err = p.again(ctx, dir); err != nil {
			return err
		}
	}
	var during, again []Stage
	for k, kind := range probeKinds {
		d := Stage{Name: kind + " during import", Count: len(p.lat[k]), Wall: p.wall,
			Note: fmt.Sprintf("one query every %v, in turn with the other kind, %s", p.every, where)}
		percentiles(&d, p.lat[k])
		a := Stage{Name: kind + " after import", Count: len(after[k]), Wall: st.Wall, CPU: st.CPU, PeakRSS: st.PeakRSS,
			Note: fmt.Sprintf("the same queries (the first %d at most), at the same pace on a new handle, %s", maxAfter, where)}
		percentiles(&a, after[k])
		if d.Count == 0 {
			d.Note = "no query completed during the import"
		} else if a.P50 > 0 && a.P99 > 0 {
			s := Slowdown{Query: kind, P50: float64(d.P50) / float64(a.P50), P99: float64(d.P99) / float64(a.P99)}
			r.rep.Slowdowns = append(r.rep.Slowdowns, s)
			d.Note += fmt.Sprintf("; %.2f× (p50) and %.2f× (p99) the times after the import", s.P50, s.P99)
		}
		during, again = append(during, d), append(again, a)
	}
	r.rep.Stages = append(append(r.rep.Stages, during...), again...)
	if len(r.rep.Slowdowns) > 0 {
		n := "Queries during the import (goal: at most 2× slower than after it):"
		for _, s := range r.rep.Slowdowns {
			n += fmt.Sprintf(" %s p50 %.2f×, p99 %.2f×;", s.Query, s.P50, s.P99)
		}
		if ownCollection {
			n += " their positions are from the games being imported, so the early ones find few games."
		} else {
			n += " their positions are from the games stored before it."
		}
		if p.proc != nil {
			n += fmt.Sprintf(" The queries ran in a process of their own; the import at %v.", r.cfg.Nice)
		}
		if len(p.runs) > 0 {
			lo, hi, sum := p.runs[0], p.runs[0], 0
			for _, x := range p.runs {
				lo, hi, sum = min(lo, x), max(hi, x), sum+x
			}
			n += fmt.Sprintf(" Position runs (a lookup reads a block of each): %d–%d during the import (mean %.1f, read every %d queries), %d after it.",
				lo, hi, float64(sum)/float64(len(p.runs)), runsEvery, p.afterRuns)
		}
		r.rep.Notes = append(r.rep.Notes, n)
	}
	return nil
}
