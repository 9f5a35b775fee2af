package tree

import (
	"context"
	"database/sql"

	"github.com/plateau/plateau/index/internal/posrun"
	"github.com/plateau/plateau/index/internal/treeagg"
	"github.com/plateau/plateau/rules"
)

// Period is a period of the games' dates: its bounds as the date criteria
// compare them (g.date >= From, g.date <= To+"~"; "" for none), each of
// whole months (treeagg.MonthsBound), and their condition over games g
// with its arguments.
type Period struct {
	From, To string
	Cond     string
	Args     []any
	// ShortDates: tree_months holds its dates in their stored form
	// (treeagg.StoredDate, layout 17), not whole.
	ShortDates bool
}

// ReadMonths lists the moves played from pos (of ruleset rg) in the main
// lines of the games of a period, most played first, as Read does for
// every game: the aggregate's months of the period (tree_months) under
// key, and the deeper occurrences (main-line ones from ply depth on, the
// aggregate's depth: see Read), stored under deepKey, joined with their
// games under the period's condition. The aggregate's months keep no
// players: the moves of a period name none (Top is empty).
func ReadMonths(ctx context.Context, r *posrun.Snapshot, rg rules.Game, pos rules.Position, key, deepKey int64, p Period, depth int) ([]Move, error) {
	c := newValueCount(rg, pos)
	it := r.Occurrences(ctx, deepKey).Keep(deepAt(depth))
	if err := c.join(ctx, r, it, p.Cond, p.Args); err != nil {
		return nil, err
	}
	if err := c.addMonths(posrun.Quiet(ctx), r, key, p); err != nil {
		return nil, err
	}
	moves, err := c.moves(posrun.Quiet(ctx), r)
	for i := range moves {
		moves[i].Top = nil
	}
	return moves, err
}

// addMonths adds the aggregate's rows of the months of p under key.
func (c *valueCount) addMonths(q context.Context, r *posrun.Snapshot, key int64, p Period) error {
	first, last := "first", "last"
	if p.ShortDates {
		first, last = treeagg.ShortDate("month", first), treeagg.ShortDate("month", last)
	}
	query := `SELECT move, sum(n), sum(scored), sum(s0), sum(s1), sum(w0), sum(w1), min(NULLIF(` + first + `, '')), max(` + last + `)
		FROM tree_months WHERE key = ? AND month > ''`
	args := []any{key}
	if p.From != "" {
		query += ` AND month >= ?`
		args = append(args, p.From)
	}
	if p.To != "" {
		query += ` AND month <= ?`
		args = append(args, p.To+"~")
	}
	st, err := r.Stmt(q, query+` GROUP BY move`)
	if err != nil {
		return err
	}
	rows, err := st.QueryContext(q, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		m := &valueMove{players: map[int64]int{}}
		var first sql.NullString
		if err := rows.Scan(&m.Move.Move, &m.Games, &m.Scored, &m.Score[0], &m.Score[1], &m.Wins[0], &m.Wins[1], &first, &m.Last); err != nil {
			return err
		}
		m.First = first.String
		if o := c.byText[m.Move.Move]; o != nil {
			merge(o, m)
		} else {
			c.byText[m.Move.Move] = m
		}
	}
	return rows.Err()
}
