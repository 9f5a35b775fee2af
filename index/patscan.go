package index

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"runtime"

	"github.com/plateau/plateau/index/internal/criteria"
	"github.com/plateau/plateau/index/internal/pattern"
	"github.com/plateau/plateau/internal/pipeline"
	"github.com/plateau/plateau/rules"
)

// Pattern search scans the candidate games in id order, testing each one's
// stored move list (internal/pattern), through an ordered fan-out
// (internal/pipeline): the producer reads the rows (id, start, final key,
// moves only) in batches (readBatches), one worker per CPU tests whole
// batches, and the consumer takes them in order, matches stale games from
// their records, and stops the scan once a page is full unless a count is
// asked (matchCollector). The hits' columns are read at the end, for the
// page only (patternHits).

// patBatch is a run of consecutive candidate games; the move lists are
// slices of arena. Batches are recycled.
type patBatch struct {
	cands []pattern.Cand
	arena []byte
}

const patBatchGames = 256

// patternMatch is a game of a page of matches, and where it first matched.
type patternMatch struct {
	id   int64
	ply  int
	vari bool
}

// errPageFull stops a scan whose page is full.
var errPageFull = errors.New("page full")

// patternSearch answers a query with a pattern (patscan.go's stages).
func (db *DB) patternSearch(ctx context.Context, q *Query, w where) (Result, error) {
	res := Result{Total: -1}
	g, m, err := db.patternMatcher(ctx, q, &w)
	if err != nil {
		return res, err
	}
	workers := max(runtime.GOMAXPROCS(0), 1)
	nbatch := 2*workers + 2
	free := make(chan *patBatch, nbatch) // batches the consumer is done with
	c := &matchCollector{db: db, ctx: ctx, pw: pattern.NewWorker(g, m), q: q, want: q.Offset + q.PageLimit()}
	err = pipeline.Run(ctx, pipeline.Options{Workers: workers, Window: nbatch},
		func(ctx context.Context, emit func(*patBatch) error) error {
			return db.readBatches(ctx, w, free, emit)
		},
		func(context.Context) func(*patBatch) *patBatch {
			pw := pattern.NewWorker(g, m)
			return func(b *patBatch) *patBatch {
				for i := range b.cands {
					pw.MatchGame(&b.cands[i])
				}
				return b
			}
		},
		func(b *patBatch) error {
			err := c.take(b)
			select {
			case free <- b:
			default:
			}
			if err == nil && c.stopped {
				err = errPageFull
			}
			return err
		})
	switch {
	case errors.Is(err, errPageFull):
	case err != nil:
		return res, err
	default:
		res.Total = c.matched
	}
	res.Hits, err = db.patternHits(ctx, c.page)
	return res, err
}

// patternMatcher checks the query's pattern against its ruleset
// (checkPattern) and compiles it; a position criterion narrows w to the
// games that hold the position.
func (db *DB) patternMatcher(ctx context.Context, q *Query, w *where) (rules.Game, *pattern.Matcher, error) {
	g, err := rules.Lookup(q.Game)
	if err != nil {
		return nil, nil, err
	}
	if err := db.checkPattern(ctx, q.Pattern, g); err != nil { // pattern_check.go
		return nil, nil, err
	}
	m, err := pattern.Compile(q.Pattern, g)
	if err != nil {
		return nil, nil, criteria.PatternError(err)
	}
	if q.Position != nil {
		ids, err := db.positionGames(ctx, saltKey(g.ID(), q.Position.Key()))
		if err != nil {
			return nil, nil, err
		}
		w.Add("g.id IN (SELECT value FROM json_each(?))", jsonIDs(ids))
	}
	return g, m, nil
}

// readBatches reads the candidate games of w in id order into batches,
// taken from free when the consumer gave some back, and emits them.
func (db *DB) readBatches(ctx context.Context, w where, free <-chan *patBatch, emit func(*patBatch) error) error {
	rows, err := db.sql.QueryContext(ctx, `SELECT g.id, g.fen, g.final, g.moves FROM games g WHERE `+w.String()+` ORDER BY g.id`, w.Args()...)
	if err != nil {
		return err
	}
	defer rows.Close()
	// The scan's destinations, allocated once.
	var id int64
	var fen sql.NullString
	var final sql.NullInt64
	var moves sql.RawBytes
	dst := []any{&id, &fen, &final, &moves}
	for more := true; more; {
		var b *patBatch
		select {
		case b = <-free:
		default:
			b = &patBatch{cands: make([]pattern.Cand, 0, patBatchGames)}
		}
		b.cands, b.arena = b.cands[:0], b.arena[:0]
		for len(b.cands) < patBatchGames {
			if more = rows.Next(); !more {
				break
			}
			if err := rows.Scan(dst...); err != nil {
				return err
			}
			start := len(b.arena)
			b.arena = append(b.arena, moves...)
			b.cands = append(b.cands, pattern.Cand{ID: id, FEN: fen.String, Final: final.Int64,
				Moves: b.arena[start:]}) // sliced again below
		}
		// The arena may have moved while it grew: slice it again.
		off := 0
		for i := range b.cands {
			n := len(b.cands[i].Moves)
			b.cands[i].Moves = b.arena[off : off+n : off+n]
			off += n
		}
		if len(b.cands) > 0 {
			if err := emit(b); err != nil {
				return err
			}
		}
	}
	return rows.Err()
}

// matchCollector takes the tested batches in order: it matches stale
// games from their records, counts the matches and keeps the query's page.
type matchCollector struct {
	db      *DB
	ctx     context.Context
	pw      *pattern.Worker // for stale games
	cache   blockCache
	q       *Query
	want    int // matches wanted: the page's end
	matched int
	page    []patternMatch
	stopped bool // the page is full and no count is asked
}

// take counts the matches of a batch, the next in order.
func (c *matchCollector) take(b *patBatch) error {
	for i := range b.cands {
		cd := &b.cands[i]
		if cd.Stale && cd.Err == nil {
			rec, err := c.db.record(c.ctx, cd.ID, &c.cache)
			if err != nil {
				return fmt.Errorf("game %d: %w", cd.ID, err)
			}
			c.pw.MatchRecord(rec, cd)
		}
		if cd.Err != nil {
			return fmt.Errorf("game %d: %w", cd.ID, cd.Err)
		}
		if !cd.OK {
			continue
		}
		c.matched++
		if c.matched > c.q.Offset && len(c.page) < c.q.PageLimit() {
			c.page = append(c.page, patternMatch{cd.ID, cd.Ply, cd.Var})
		}
		if !c.q.Count && c.matched >= c.want {
			c.stopped = true
			return nil
		}
	}
	return nil
}

// patternHits reads the hits' columns of a page of matches, in its order.
func (db *DB) patternHits(ctx context.Context, page []patternMatch) ([]Hit, error) {
	var hits []Hit
	for len(page) > 0 {
		chunk := page[:min(len(page), 500)]
		page = page[len(chunk):]
		ids := make([]int64, len(chunk))
		for i, mt := range chunk {
			ids[i] = mt.id
		}
		rows, err := db.sql.QueryContext(ctx, `SELECT `+hitCols+` FROM `+hitJoin+` WHERE g.id IN (SELECT value FROM json_each(?)) ORDER BY g.id`, jsonIDs(ids))
		if err != nil {
			return hits, err
		}
		k := 0
		for rows.Next() {
			h, err := scanHit(rows)
			if err != nil {
				rows.Close()
				return hits, err
			}
			if k >= len(chunk) || h.ID != chunk[k].id {
				rows.Close()
				return hits, fmt.Errorf("game %d vanished during the search", chunk[min(k, len(chunk)-1)].id)
			}
			h.Ply, h.Variation = chunk[k].ply, chunk[k].vari
			hits = append(hits, h)
			k++
		}
		if err := errors.Join(rows.Err(), rows.Close()); err != nil {
			return hits, err
		}
		if k != len(chunk) {
			return hits, fmt.Errorf("game %d vanished during the search", chunk[k].id)
		}
	}
	return hits, nil
}
