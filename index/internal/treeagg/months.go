package treeagg

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/plateau/plateau/index/internal/store"
)

// Table holds the tree's rows: a position's moves with their counts,
// scores, first and last dates and most frequent players.
const Table = `CREATE TABLE IF NOT EXISTS tree(
	key INTEGER NOT NULL, move TEXT NOT NULL,
	n INTEGER NOT NULL, scored INTEGER NOT NULL, s0 REAL NOT NULL, s1 REAL NOT NULL,
	first TEXT NOT NULL, last TEXT NOT NULL,
	np INTEGER NOT NULL, top BLOB,
	w0 INTEGER NOT NULL DEFAULT 0, w1 INTEGER NOT NULL DEFAULT 0,
	PRIMARY KEY(key, move)) WITHOUT ROWID`

// PlayersTable holds the players of the moves of more than TopLen
// players, in chunks.
const PlayersTable = `CREATE TABLE IF NOT EXISTS tree_players(
	key INTEGER NOT NULL, move TEXT NOT NULL, chunk INTEGER NOT NULL, data BLOB NOT NULL,
	PRIMARY KEY(key, move, chunk)) WITHOUT ROWID`

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

// StoredDate is the form a date of month takes in tree_months' first and
// last (layout 17): without its month but the month's last byte when the
// month is a cut ASCII prefix of MonthLen bytes, whole otherwise. The
// dates of one row share its month, so they compare as they did whole,
// and a dated game's is never "" (a row's first "" is none). ShortDate
// reads it back.
func StoredDate(month, date string) string {
	if date != "" && cutMonth(month) {
		return date[MonthLen-1:]
	}
	return date
}

// cutMonth reports whether the dates of month are stored cut
// (StoredDate): whether it is MonthLen bytes of ASCII.
func cutMonth(month string) bool {
	if len(month) != MonthLen {
		return false
	}
	for i := 0; i < len(month); i++ {
		if month[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// ShortDate is the SQL expression of a date column col of tree_months
// (first or last) whole again (StoredDate) for a row of month column
// month: SQLite's length counts characters, the blob's bytes.
func ShortDate(month, col string) string {
	return `(CASE WHEN ` + col + ` <> '' AND length(` + month + `) = ` + monthLenSQL + ` AND length(CAST(` + month + ` AS BLOB)) = ` + monthLenSQL +
		` THEN substr(` + month + `, 1, ` + monthLenSQL + ` - 1) || ` + col + ` ELSE ` + col + ` END)`
}

// ShortenDates rewrites, in tx, the dates of every row of tree_months in
// their stored form (StoredDate), for a database whose rows hold them
// whole (layout 16 and older; their dates start with their month): the
// rows are written to a new table in
// key order, which replaces the old one (an update in place would leave
// each page as large as before).
func ShortenDates(ctx context.Context, tx Tx) error {
	// Only a date that starts with its month is cut: a row a newer
	// program wrote (an older layout's upgrade, countMonths) is left as
	// it is.
	cut := func(col string) string {
		return `CASE WHEN length(month) = ` + monthLenSQL + ` AND length(CAST(month AS BLOB)) = ` + monthLenSQL +
			` AND substr(` + col + `, 1, ` + monthLenSQL + `) = month` +
			` THEN substr(` + col + `, ` + monthLenSQL + `) ELSE ` + col + ` END`
	}
	for _, q := range []string{
		strings.Replace(MonthsTable, "tree_months(", "tree_months_short(", 1),
		`INSERT INTO tree_months_short SELECT key, month, move, n, scored, s0, s1, w0, w1, ` + cut("first") + `, ` + cut("last") +
			` FROM tree_months ORDER BY key, month, move`,
		`DROP TABLE tree_months`,
		`ALTER TABLE tree_months_short RENAME TO tree_months`,
	} {
		if _, err := tx.ExecContext(ctx, q); err != nil {
			return err
		}
	}
	return nil
}

// monthLenSQL is MonthLen in SQL.
const monthLenSQL = "7"

// MonthsBound reports whether a period bound (as the date criteria
// compare it: g.date >= from, g.date <= to+"~") holds every date of a
// month or none: whether it is a year or a month, or shorter.
func MonthsBound(bound string) bool { return len(bound) <= MonthLen }

// monthKey is a row of tree_months.
type monthKey struct {
	pos         int64
	month, move string
}

// monthRow is what entries add to a row of tree_months.
type monthRow struct {
	k monthKey
	a agg
}

// monthRows adds up the entries es (sorted by EntryCmp) of games by
// position key, month and move, in that order: the rows of each position
// found by a look through them (a few, but at the first plies: by a map),
// then sorted by month and move.
func monthRows(es []Entry, games []Game) []monthRow {
	months := make([]string, len(games))
	for i := range games {
		months[i] = Month(games[i].Date)
	}
	out := make([]monthRow, 0, len(es))
	type mm struct{ month, move string }
	var at map[mm]int
	for i := 0; i < len(es); {
		j := i + 1
		for j < len(es) && es[j].Pos == es[i].Pos {
			j++
		}
		start, many := len(out), j-i > 16
		if many {
			if at == nil {
				at = map[mm]int{}
			}
			clear(at)
		}
		for k := i; k < j; k++ {
			e := &es[k]
			m := months[e.Game]
			r := -1
			if many {
				if x, ok := at[mm{m, e.Move}]; ok {
					r = x
				}
			} else {
				for x := start; x < len(out); x++ {
					if out[x].k.month == m && out[x].k.move == e.Move {
						r = x
						break
					}
				}
			}
			if r < 0 {
				r = len(out)
				out = append(out, monthRow{k: monthKey{e.Pos, m, e.Move}})
				if many {
					at[mm{m, e.Move}] = r
				}
			}
			out[r].a.add(&games[e.Game])
		}
		slices.SortFunc(out[start:], func(x, y monthRow) int {
			return cmp.Or(strings.Compare(x.k.month, y.k.month), strings.Compare(x.k.move, y.k.move))
		})
		i = j
	}
	return out
}

// monthsToWrite is the rows of tree_months that the entries es (sorted
// by EntryCmp) of games add up (monthRows), their first and last dates
// in their stored form (StoredDate), as writeMonths writes them.
func monthsToWrite(es []Entry, games []Game) []monthRow {
	rows := monthRows(es, games)
	for i := range rows {
		r := &rows[i]
		r.a.first, r.a.last = StoredDate(r.k.month, r.a.first), StoredDate(r.k.month, r.a.last)
	}
	return rows
}

// monthsUpsert is what makes writeMonths' insert an upsert.
const monthsUpsert = `ON CONFLICT(key, month, move) DO UPDATE SET n = n + excluded.n, scored = scored + excluded.scored,
		s0 = s0 + excluded.s0, s1 = s1 + excluded.s1, w0 = w0 + excluded.w0, w1 = w1 + excluded.w1,
		first = CASE WHEN first = '' OR (excluded.first <> '' AND excluded.first < first) THEN excluded.first ELSE first END,
		last = CASE WHEN excluded.last > last THEN excluded.last ELSE last END`

// writeMonths upserts rows of tree_months (monthsToWrite: rows that add
// up), rowsPerStmt rows a statement (store.PartLen); inserts them when
// fresh (none of them stored).
func writeMonths(ctx context.Context, st Stmts, rows []monthRow, fresh bool) error {
	args := make([]any, 0, 11*rowsPerStmt)
	for i := 0; i < len(rows); {
		part := rows[i : i+store.PartLen(len(rows)-i, rowsPerStmt)]
		i += len(part)
		ins, err := rowsExec(ctx, st, `INSERT INTO tree_months(key, month, move, n, scored, s0, s1, w0, w1, first, last)`, `(?,?,?,?,?,?,?,?,?,?,?)`,
			upsert(monthsUpsert, fresh), len(part))
		if err != nil {
			return err
		}
		args = args[:0]
		for _, r := range part {
			a := &r.a
			args = append(args, r.k.pos, r.k.month, r.k.move, a.n, a.scored, a.s0, a.s1, a.w[0], a.w[1], a.first, a.last)
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
	es = slices.Clone(es)
	slices.SortFunc(es, EntryCmp)
	return writeMonths(ctx, st, monthsToWrite(es, games), false)
}

// txStmts prepares each statement once in a transaction; the writes
// through raw when it is set (ExecStmt).
type txStmts struct {
	tx    Tx
	stmts map[string]*sql.Stmt
	raw   *store.RawStmts
}

// ExecStmt is a statement that returns no rows: a RawStmt when raw is
// set, prepared in the transaction otherwise.
func (t *txStmts) ExecStmt(ctx context.Context, query string) (store.Prepared, error) {
	if t.raw != nil {
		return t.raw.Stmt(ctx, query)
	}
	return t.Stmt(ctx, query)
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
