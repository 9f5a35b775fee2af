package treeagg

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"slices"
	"strings"
	"unicode/utf8"
)

// MonthsTable is the opening-tree aggregate by month: the rows of tree
// (but its players) once more for each month of the games' dates, so
// that the tree of a period is a sum over its months, as the lichess
// explorer sums its month buckets. A game without a date counts under
// the month "".
const MonthsTable = `CREATE TABLE IF NOT EXISTS tree_months(
	key INTEGER NOT NULL, month TEXT NOT NULL, move TEXT NOT NULL,
	n INTEGER NOT NULL, scored INTEGER NOT NULL, s0 REAL NOT NULL, s1 REAL NOT NULL,
	w0 INTEGER NOT NULL, w1 INTEGER NOT NULL, first TEXT NOT NULL, last TEXT NOT NULL,
	PRIMARY KEY(key, month, move)) WITHOUT ROWID`

// MonthLen is the length of a month ("2026.07") in the date column's form.
const MonthLen = len("2026.07")

// Month is the month a date of the date column counts under: its first
// MonthLen bytes ("2026.07", "2026.??"), a shorter date whole, and a date
// that is not ASCII whole (never cut inside a character). A period whose
// bounds are at most MonthLen long then holds a month's dates all or
// none (see MonthsBound).
func Month(date string) string {
	if len(date) <= MonthLen {
		return date
	}
	for i := 0; i < len(date); i++ {
		if date[i] >= utf8.RuneSelf {
			return date
		}
	}
	return date[:MonthLen]
}

// MonthsBound reports whether a period bound (as the date criteria
// compare it: g.date >= from, g.date <= to+"~") holds every date of a
// month or none: whether it is a year or a month, or shorter.
func MonthsBound(bound string) bool { return len(bound) <= MonthLen }

// monthKey is a row of tree_months.
type monthKey struct {
	pos         int64
	month, move string
}

// flushMonths adds the entries es of games to tree_months, several rows
// to a statement (rows that add up, upserted).
func flushMonths(ctx context.Context, st Stmts, es []Entry, games []Game) error {
	sums := map[monthKey]*agg{}
	for i := range es {
		e := &es[i]
		g := &games[e.Game]
		k := monthKey{e.Pos, Month(g.Date), e.Move}
		a := sums[k]
		if a == nil {
			a = &agg{}
			sums[k] = a
		}
		a.add(g)
	}
	keys := make([]monthKey, 0, len(sums))
	for k := range sums {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(x, y monthKey) int {
		return cmp.Or(cmp.Compare(x.pos, y.pos), strings.Compare(x.month, y.month), strings.Compare(x.move, y.move))
	})
	args := make([]any, 0, 11*rowsPerStmt)
	for i := 0; i < len(keys); i += rowsPerStmt {
		part := keys[i:min(i+rowsPerStmt, len(keys))]
		ins, err := rowsStmt(ctx, st, `INSERT INTO tree_months(key, month, move, n, scored, s0, s1, w0, w1, first, last)`, `(?,?,?,?,?,?,?,?,?,?,?)`,
			`ON CONFLICT(key, month, move) DO UPDATE SET n = n + excluded.n, scored = scored + excluded.scored,
		s0 = s0 + excluded.s0, s1 = s1 + excluded.s1, w0 = w0 + excluded.w0, w1 = w1 + excluded.w1,
		first = CASE WHEN first = '' OR (excluded.first <> '' AND excluded.first < first) THEN excluded.first ELSE first END,
		last = CASE WHEN excluded.last > last THEN excluded.last ELSE last END`, len(part))
		if err != nil {
			return err
		}
		args = args[:0]
		for _, k := range part {
			a := sums[k]
			args = append(args, k.pos, k.month, k.move, a.n, a.scored, a.s0, a.s1, a.w[0], a.w[1], a.first, a.last)
		}
		if _, err := ins.ExecContext(ctx, args...); err != nil {
			return err
		}
	}
	return nil
}

// removeMonth takes a game g's move k out of its month's row, which goes
// with its last game. The first and last dates are not narrowed.
func removeMonth(ctx context.Context, st Stmts, k Key, g Game) error {
	sc, s0, s1 := 0, 0.0, 0.0
	if g.Scored {
		sc, s0, s1 = 1, g.S0, g.S1
	}
	w := Wins(s0, s1)
	dec, err := st.Stmt(ctx, `UPDATE tree_months SET n = n - 1, scored = scored - ?, s0 = s0 - ?, s1 = s1 - ?, w0 = w0 - ?, w1 = w1 - ?
		WHERE key = ? AND month = ? AND move = ? RETURNING n`)
	if err != nil {
		return err
	}
	month := Month(g.Date)
	var n int64
	err = dec.QueryRowContext(ctx, sc, s0, s1, w[0], w[1], k.Pos, month, k.Move).Scan(&n)
	if errors.Is(err, sql.ErrNoRows) {
		return nil
	}
	if err != nil || n > 0 {
		return err
	}
	_, err = exec(ctx, st, `DELETE FROM tree_months WHERE key = ? AND month = ? AND move = ?`, k.Pos, month, k.Move)
	return err
}

// AddMonths adds to tree_months, in tx, the entries es (any order) of
// games, as Flush adds them: for a table built from the stored games.
func AddMonths(ctx context.Context, tx Tx, es []Entry, games []Game) error {
	st := &txStmts{tx: tx, stmts: map[string]*sql.Stmt{}}
	defer st.close()
	return flushMonths(ctx, st, es, games)
}

// txStmts prepares each statement once in a transaction.
type txStmts struct {
	tx    Tx
	stmts map[string]*sql.Stmt
}

func (t *txStmts) Stmt(ctx context.Context, query string) (*sql.Stmt, error) {
	if st := t.stmts[query]; st != nil {
		return st, nil
	}
	st, err := t.tx.PrepareContext(ctx, query)
	if err != nil {
		return nil, err
	}
	t.stmts[query] = st
	return st, nil
}

func (t *txStmts) close() {
	for _, st := range t.stmts {
		st.Close()
	}
}
