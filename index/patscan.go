package index

import (
	"context"
	"errors"
	"fmt"

	"github.com/plateau/plateau/index/internal/criteria"
	"github.com/plateau/plateau/index/internal/pattern"
	"github.com/plateau/plateau/record"
	"github.com/plateau/plateau/rules"
)

// Pattern search scans the candidate games in id order, testing each
// one's stored move list on every core (pattern.Scanner), keeps the
// query's page of matches and stops once the page is full unless a count
// is asked. The hits' columns are read at the end, for the page only
// (patternHits). A scan of a whole ruleset first reads the games'
// signatures (internal/patsig, layout 14) and skips the games whose
// signature rules the pattern out (pattern.Prefilter); a read-only handle
// on an older layout tests every game.

// patternSearch answers a query with a pattern.
func (db *DB) patternSearch(ctx context.Context, q *Query, w where) (Result, error) {
	res := Result{Total: -1}
	s, err := db.patternScanner(ctx, q, &w)
	if err != nil {
		return res, err
	}
	var qr pattern.Querier = db.sql
	if s.Filter != nil {
		// The signatures and the games are read in turns: in one
		// transaction, so that they are of the same games.
		tx, err := db.sql.BeginTx(ctx, nil)
		if err != nil {
			return res, err
		}
		defer tx.Rollback()
		qr = tx
	}
	want := q.Offset + q.PageLimit() // matches wanted: the page's end
	matched, stopped := 0, false
	var page []pattern.Match
	err = s.Scan(ctx, qr, w.String(), w.Args(), func(m pattern.Match) bool {
		matched++
		if matched > q.Offset && len(page) < q.PageLimit() {
			page = append(page, m)
		}
		stopped = !q.Count && matched >= want
		return !stopped
	})
	if err != nil {
		return res, err
	}
	if !stopped {
		res.Total = matched
	}
	res.Hits, err = db.patternHits(ctx, page)
	return res, err
}

// baseConds is the number of conditions of criteria.Base with a ruleset:
// a scan with no other condition reads every game of the ruleset, and
// reads their signatures first; one with more (a player, a date, a
// position) reads the games its indexes select, as before.
const baseConds = 2

// patternScanner checks the query's pattern against the boards of its
// ruleset's stored games (pattern.Layouts, pattern.Check) and compiles it;
// a position criterion narrows w to the games that hold the position.
func (db *DB) patternScanner(ctx context.Context, q *Query, w *where) (*pattern.Scanner, error) {
	g, err := rules.Lookup(q.Game)
	if err != nil {
		return nil, err
	}
	layouts, err := pattern.Layouts(ctx, db.sql, g)
	if err != nil {
		return nil, err
	}
	if err := pattern.Check(q.Pattern, g, layouts); err != nil {
		return nil, criteria.PatternError(err)
	}
	m, err := pattern.Compile(q.Pattern, g)
	if err != nil {
		return nil, criteria.PatternError(err)
	}
	if q.Position != nil {
		ids, err := db.positionGames(ctx, saltKey(g.ID(), q.Position.Key()))
		if err != nil {
			return nil, err
		}
		w.Add("g.id IN (SELECT value FROM json_each(?))", jsonIDs(ids))
	}
	var cache blockCache
	s := &pattern.Scanner{Game: g, Matcher: m, Record: func(id int64) (*record.Game, error) {
		return db.record(ctx, id, &cache)
	}}
	if db.patSigs && w.Len() <= baseConds {
		s.Filter = m.Prefilter(layouts)
	}
	return s, nil
}

// patternHits reads the hits' columns of a page of matches, in its order.
func (db *DB) patternHits(ctx context.Context, page []pattern.Match) ([]Hit, error) {
	var hits []Hit
	for len(page) > 0 {
		chunk := page[:min(len(page), 500)]
		page = page[len(chunk):]
		ids := make([]int64, len(chunk))
		for i, mt := range chunk {
			ids[i] = mt.ID
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
			if k >= len(chunk) || h.ID != chunk[k].ID {
				rows.Close()
				return hits, fmt.Errorf("game %d vanished during the search", chunk[min(k, len(chunk)-1)].ID)
			}
			h.Ply, h.Variation = chunk[k].Ply, chunk[k].Var
			hits = append(hits, h)
			k++
		}
		if err := errors.Join(rows.Err(), rows.Close()); err != nil {
			return hits, err
		}
		if k != len(chunk) {
			return hits, fmt.Errorf("game %d vanished during the search", chunk[k].ID)
		}
	}
	return hits, nil
}
