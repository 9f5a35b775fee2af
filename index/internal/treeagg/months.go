package treeagg

import (
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
// position key, month and move, in that order: a position's rows are made
// a move after the other (es's order), each move's found by its month's
// rank among the months of games (a slot a rank), then put in month order
// by a sort of their ranks that keeps the moves' order within a month.
// The rows and the work space are sc's when not nil, reused by the next
// call.
func monthRows(es []Entry, games []Game, sc *monthScratch) []monthRow {
	if sc == nil {
		sc = &monthScratch{}
	}
	months, rank := sc.rankMonths(games)
	out, rowRank := sc.rows[:0], sc.rowRank[:0]
	slot := slices.Grow(sc.slot[:0], len(months))[:len(months)]
	for r := range slot {
		slot[r] = -1
	}
	for i := 0; i < len(es); {
		start := len(out)
		j := i
		for j < len(es) && es[j].Pos == es[i].Pos {
			// The entries of a move, es[j:k]; its rows, out[first:].
			first, k := len(out), j
			for ; k < len(es) && es[k].Pos == es[j].Pos && es[k].Move == es[j].Move; k++ {
				e := &es[k]
				r := rank[e.Game]
				if slot[r] < 0 {
					slot[r] = int32(len(out))
					out = append(out, monthRow{k: monthKey{e.Pos, months[r], e.Move}})
					rowRank = append(rowRank, r)
				}
				out[slot[r]].a.add(&games[e.Game])
			}
			for _, r := range rowRank[first:] {
				slot[r] = -1
			}
			j = k
		}
		sc.byMonth(out[start:], rowRank[start:])
		i = j
	}
	sc.rows, sc.rowRank, sc.slot = out, rowRank, slot
	return out
}

// monthScratch is monthRows' memory, kept from a call to the next.
type monthScratch struct {
	rows    []monthRow
	rowRank []int32 // each row's month's rank
	slot    []int32 // by month rank, the row of the move at hand (-1: none)
	rank    []int32 // by game, its month's rank
	months  []string
	ids     map[string]int32
	order   []int32
	keys    []uint64
	tmp     []monthRow
	// A settle's merge numbers the months of its spool rows' games once
	// (number): names by number, and the numbers of the games of the
	// next call (gameMonth[i] is games[i]'s), if set.
	names     []string
	numbers   map[string]int32
	gameMonth []int32
	seen      []int32
}

// number gives the numbers of the months of games (names[n] is month n),
// numbering those not seen before.
func (sc *monthScratch) number(games []Game) []int32 {
	if sc.numbers == nil {
		sc.numbers = map[string]int32{}
	}
	out := make([]int32, len(games))
	for i := range games {
		m := Month(games[i].Date)
		n, ok := sc.numbers[m]
		if !ok {
			n = int32(len(sc.names))
			sc.numbers[m] = n
			sc.names = append(sc.names, m)
		}
		out[i] = n
	}
	return out
}

// rankNumbered is rankMonths for games whose months are numbered
// (gameMonth).
func (sc *monthScratch) rankNumbered() (months []string, rank []int32) {
	seen := slices.Grow(sc.seen[:0], len(sc.names))[:len(sc.names)] // number → rank, -1: none
	for i := range seen {
		seen[i] = -1
	}
	order := sc.order[:0]
	for _, n := range sc.gameMonth {
		if seen[n] < 0 {
			seen[n] = 0
			order = append(order, n)
		}
	}
	slices.SortFunc(order, func(x, y int32) int { return strings.Compare(sc.names[x], sc.names[y]) })
	months = sc.months[:0]
	for r, n := range order {
		seen[n] = int32(r)
		months = append(months, sc.names[n])
	}
	rank = sc.rank[:0]
	for _, n := range sc.gameMonth {
		rank = append(rank, seen[n])
	}
	sc.months, sc.rank, sc.order, sc.seen = months, rank, order, seen
	return months, rank
}

// rankMonths lists the months of games in order, and gives each game's
// month's rank among them.
func (sc *monthScratch) rankMonths(games []Game) (months []string, rank []int32) {
	if len(sc.gameMonth) == len(games) && sc.names != nil {
		return sc.rankNumbered()
	}
	if sc.ids == nil {
		sc.ids = map[string]int32{}
	}
	clear(sc.ids)
	months, rank = sc.months[:0], sc.rank[:0]
	for i := range games {
		m := Month(games[i].Date)
		id, ok := sc.ids[m]
		if !ok {
			id = int32(len(months))
			sc.ids[m] = id
			months = append(months, m)
		}
		rank = append(rank, id)
	}
	// The ids in order of appearance, then the ranks in the months' order.
	order := sc.order[:0]
	for id := range months {
		order = append(order, int32(id))
	}
	slices.SortFunc(order, func(x, y int32) int { return strings.Compare(months[x], months[y]) })
	byID := slices.Grow(sc.keys[:0], len(order))[:len(order)] // id → rank
	for r, id := range order {
		byID[id] = uint64(r)
	}
	for i, id := range rank {
		rank[i] = int32(byID[id])
	}
	slices.Sort(months)
	sc.months, sc.rank, sc.order, sc.keys = months, rank, order, byID
	return months, rank
}

// byMonth sorts a position's rows (made a move after the other) by their
// months' ranks, the moves' order kept within a month.
func (sc *monthScratch) byMonth(rows []monthRow, ranks []int32) {
	if len(rows) < 2 {
		return
	}
	keys := sc.keys[:0]
	for i, r := range ranks {
		keys = append(keys, uint64(r)<<32|uint64(i))
	}
	sc.keys = keys
	if slices.IsSorted(keys) {
		return
	}
	slices.Sort(keys)
	tmp := append(sc.tmp[:0], rows...)
	for i, k := range keys {
		rows[i] = tmp[uint32(k)]
		ranks[i] = int32(k >> 32)
	}
	sc.tmp = tmp
}

// monthsToWrite is the rows of tree_months that the entries es (sorted
// by EntryCmp) of games add up (monthRows), their first and last dates
// in their stored form (StoredDate), as writeMonths writes them.
func monthsToWrite(es []Entry, games []Game, sc *monthScratch) []monthRow {
	rows := monthRows(es, games, sc)
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

// writeMonths upserts rows of tree_months (packMonths of monthsToWrite:
// rows that add up), rowsPerStmt rows a statement (store.PartLen);
// inserts them when fresh (none of them stored).
func writeMonths(ctx context.Context, st Stmts, parts []store.Values, fresh bool) error {
	return execParts(ctx, st, `INSERT INTO tree_months(key, month, move, n, scored, s0, s1, w0, w1, first, last)`, `(?,?,?,?,?,?,?,?,?,?,?)`,
		upsert(monthsUpsert, fresh), 11, parts)
}

// packMonths packs the values of rows of tree_months to write.
func packMonths(rows []monthRow) []store.Values {
	return packParts(len(rows), 11, 24, func(i int, v *store.Values) {
		r := &rows[i]
		v.Int(r.k.pos)
		v.Text(r.k.month)
		v.Text(r.k.move)
		r.a.pack(v)
	})
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
	return writeMonths(ctx, st, packMonths(monthsToWrite(es, games, nil)), false)
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
