package index

import (
	"context"
	"database/sql"

	"github.com/plateau/plateau/index/internal/treeagg"
)

// DowngradeToLayout15 turns db into a layout-15 database: the opening
// tree without the moves of plies TreeDepth to TreeAggDepth-1.
func DowngradeToLayout15(ctx context.Context, db *DB) error {
	if err := downgradeTree(ctx, db); err != nil {
		return err
	}
	return setMeta(ctx, db.sql, "schema", 15)
}

// DowngradeToLayout17 turns db into a layout-17 database: tree_months'
// dates whole.
func DowngradeToLayout17(ctx context.Context, db *DB) error {
	if err := wholeMonthDates(ctx, db.sql); err != nil {
		return err
	}
	return setMeta(ctx, db.sql, "schema", 17)
}

// wholeMonthDates writes tree_months' dates whole again
// (treeagg.ShortDate).
func wholeMonthDates(ctx context.Context, q interface {
	ExecContext(context.Context, string, ...any) (sql.Result, error)
}) error {
	_, err := q.ExecContext(ctx, `UPDATE tree_months SET first = `+treeagg.ShortDate("month", "first")+`, last = `+treeagg.ShortDate("month", "last"))
	return err
}

// downgradeTree takes the tree back to layout 15: tree_months' dates
// whole, and the moves of plies TreeDepth to TreeAggDepth-1 of every
// valid game out (treeagg.Remove), which a database of layout 15 or older
// never counted. Every downgrade to an older layout starts with it.
func downgradeTree(ctx context.Context, db *DB) error {
	tx, err := db.sql.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := wholeMonthDates(ctx, tx); err != nil {
		return err
	}
	st := &testStmts{tx: tx, stmts: map[string]*sql.Stmt{}}
	rows, err := tx.QueryContext(ctx, `SELECT game, result, date, fen, moves, p0, p1 FROM games WHERE valid = 1`)
	if err != nil {
		return err
	}
	type gone struct {
		k      treeagg.Key
		player int64
		g      treeagg.Game
	}
	var all []gone
	for rows.Next() {
		var game string
		var res, date, fen sql.NullString
		var blob []byte
		var p [2]sql.NullInt64
		if err := rows.Scan(&game, &res, &date, &fen, &blob, &p[0], &p[1]); err != nil {
			rows.Close()
			return err
		}
		moves, err := deepTreeMoves(game, fen.String, blob)
		if err != nil {
			rows.Close()
			return err
		}
		s0, s1, scored := scores(res.String)
		for _, m := range moves {
			all = append(all, gone{treeagg.Key{Pos: saltKey(game, m.key), Move: m.text}, p[m.mover].Int64,
				treeagg.Game{Date: date.String, S0: s0, S1: s1, Scored: scored}})
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	for _, g := range all {
		if err := treeagg.Remove(ctx, st, g.k, g.player, g.g); err != nil {
			return err
		}
	}
	return tx.Commit()
}

// testStmts prepares each statement once in a transaction.
type testStmts struct {
	tx    *sql.Tx
	stmts map[string]*sql.Stmt
}

func (t *testStmts) Stmt(ctx context.Context, query string) (*sql.Stmt, error) {
	if st := t.stmts[query]; st != nil {
		return st, nil
	}
	st, err := t.tx.PrepareContext(ctx, query)
	if err == nil {
		t.stmts[query] = st
	}
	return st, err
}
