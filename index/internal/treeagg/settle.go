package treeagg

import (
	"context"
)

// A group of the spool is settled on two goroutines: one merges the
// group's rows (a heap of their cursors) and does the Go work of each
// batch's Flush that reads no stored row (prepare: aggregate, the month
// rows); the caller's runs the SQL of each batch on the transaction
// (apply), in order, while the next batch is prepared. The statements are
// those a serial settle runs, in the same order, so the tree comes out
// the same. The batches of a group are cut between moves, so no two of
// them touch one row of tree, tree_players or tree_months. At most two
// prepared batches are held: the one applied and the next, waiting to be
// handed over. A group settled into empty tables (the first of an import
// into an empty database) reads nothing and inserts its rows (fresh):
// its counts are merged on the merging goroutine too.

// batch is a prepared batch of a group's entries, or the error that
// stopped the merge.
type batch struct {
	f   *flush
	err error
}

// settleGroup adds a group of spool rows to the tree and deletes them;
// more reports rows left. The rows, each sorted, are merged and given to
// Flush batchLen entries at a time or a little more (cut between moves):
// a group's memory is its rows as stored and two prepared batches.
func settleGroup(ctx context.Context, tx Tx, st Stmts, group, batchLen int, texts map[string]string) (more bool, err error) {
	h, last, err := openGroup(ctx, tx, group, texts)
	if err != nil || last < 0 {
		return false, err
	}
	fresh, err := treeEmpty(ctx, tx)
	if err != nil {
		return false, err
	}
	batches, stop := make(chan batch), make(chan struct{})
	go mergeGroup(h, batchLen, fresh, batches, stop)
	defer func() {
		close(stop)
		for range batches { // until the merge stops
		}
	}()
	for b := range batches {
		if b.err != nil {
			return false, b.err
		}
		if err := b.f.apply(ctx, st); err != nil {
			return false, err
		}
	}
	_, err = tx.ExecContext(ctx, `DELETE FROM tree_spool WHERE id <= ?`, last)
	return h.more, err
}

// treeEmpty reports whether the tree's tables hold no row: then none of a
// group's rows is stored before it, and each of its batches (cut between
// moves) writes rows no other batch writes, so that they are inserted
// without reading anything (prepare's fresh).
func treeEmpty(ctx context.Context, tx Tx) (bool, error) {
	rows, err := tx.QueryContext(ctx, `SELECT EXISTS(SELECT 1 FROM tree) OR EXISTS(SELECT 1 FROM tree_players) OR EXISTS(SELECT 1 FROM tree_months)`)
	if err != nil {
		return false, err
	}
	defer rows.Close()
	var stored bool
	if rows.Next() {
		err = rows.Scan(&stored)
	}
	if err == nil {
		err = rows.Err()
	}
	return !stored, err
}

// mergeGroup merges the cursors of h into batches of batchLen entries or
// a little more, cut between moves, each prepared (fresh: into an empty
// tree) and sent on out, until the last or until stop is closed; it
// closes out.
func mergeGroup(h *cursors, batchLen int, fresh bool, out chan<- batch, stop <-chan struct{}) {
	defer close(out)
	send := func(b batch) bool {
		select {
		case out <- b:
			return true
		case <-stop:
			return false
		}
	}
	// prepare keeps no reference to es and games: they are reused. The
	// months of the rows' games are numbered once a game, not once a
	// move (monthScratch.number).
	es := make([]Entry, 0, batchLen+64)
	games := make([]Game, 0, batchLen+64)
	sc := &monthScratch{}
	for _, c := range h.cs {
		c.mids = sc.number(c.games)
	}
	mids := make([]int32, 0, batchLen+64)
	for len(h.cs) > 0 {
		c := h.cs[0]
		e := c.e
		if n := len(es); n >= batchLen && (es[n-1].Pos != e.Pos || es[n-1].Move != e.Move) {
			sc.gameMonth = mids
			if !send(batch{f: prepare(es, games, fresh, sc)}) {
				return
			}
			es, games, mids = es[:0], games[:0], mids[:0]
		}
		games = append(games, c.games[e.Game])
		mids = append(mids, c.mids[e.Game])
		e.Game = int32(len(games) - 1)
		es = append(es, e)
		ok, err := c.next()
		if err != nil {
			send(batch{err: err})
			return
		}
		if ok {
			h.fixTop()
		} else {
			h.popTop()
		}
	}
	sc.gameMonth = mids
	send(batch{f: prepare(es, games, fresh, sc)})
}
