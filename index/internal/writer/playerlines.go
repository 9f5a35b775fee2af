package writer

import (
	"context"
	"database/sql"

	"github.com/plateau/plateau/index/internal/playerlines"
)

// holdPlayerLines keeps the rows of valid game id (players pls: ids or
// nil; ratings elo, playerlines.Elo) in the table of players' lines (internal/playerlines), and its
// event among event_names' (with a player or not), for the
// transaction's flush.
func (w *txn) holdPlayerLines(id int64, p *prepared, elo [2]string, pls [2]any) {
	var ids [2]int64
	for i, pl := range pls {
		if pl != nil {
			ids[i] = pl.(int64)
		}
	}
	if p.Event != "" {
		if w.events == nil {
			w.events = map[string]bool{}
		}
		w.events[p.Event] = true
	}
	if ids == [2]int64{} {
		return
	}
	l := playerlines.Line{Game: p.Game, Result: p.Result, Date: p.Date, FEN: p.FEN, Moves: p.TreeLine,
		Elo: elo}
	w.playerLines = playerlines.Rows(w.playerLines, id, ids, p.Event, &l)
	w.held += 96
}

// flushPlayerLines stores the events and the players' lines held.
func (w *txn) flushPlayerLines(ctx context.Context) error {
	if err := playerlines.PutEvents(ctx, txStmts{w}, w.events); err != nil {
		return err
	}
	clear(w.events)
	if len(w.playerLines) == 0 {
		return nil
	}
	if err := playerlines.Put(ctx, txStmts{w}, w.playerLines); err != nil {
		return err
	}
	clear(w.playerLines) // their lines' memory is the garbage collector's
	w.playerLines = w.playerLines[:0]
	return nil
}

// forgetPlayerLines deletes the players' lines of game g, those held
// first stored (a game of this transaction removed).
func (w *txn) forgetPlayerLines(ctx context.Context, g *oldGame) error {
	if err := w.flushPlayerLines(ctx); err != nil {
		return err
	}
	return playerlines.Forget(ctx, txStmts{w}, g.id, [2]sql.NullInt64{g.p0, g.p1})
}
