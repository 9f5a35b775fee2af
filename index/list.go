package index

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// ListOptions tune List, the game list of a browser (plateau serve).
type ListOptions struct {
	// Sort is the column the list is ordered by: "id" (default), "game",
	// "white" (side 0's player), "black" (side 1's player), "result",
	// "event", "site", "date", "plies". Ties are in id order.
	Sort string
	Desc bool
	// AnyValidity lists valid and invalid games alike (Query.Invalid is
	// then ignored).
	AnyValidity bool
	// After, when set, is where the page starts: the games that come after
	// this one in the list's order (a seek: the cost does not grow with the
	// depth of the page; Query.Offset then counts from there). Before
	// asks for the page that ends just before it instead.
	After, Before *ListCursor
}

// ListCursor is a place in a list: a game's id and its value of the
// sort column (Null when it has none). List gives the cursor of each of
// its games; ListIndex gives one every so many games of a whole list.
type ListCursor struct {
	ID    int64
	Value string
	Null  bool
}

// String writes the cursor as a token for a URL: the id, then the value
// ("7", "7:n" for no value, "7:vMori, Daichi").
func (c ListCursor) String() string {
	switch {
	case c.Null:
		return strconv.FormatInt(c.ID, 10) + ":n"
	case c.Value == "":
		return strconv.FormatInt(c.ID, 10)
	}
	return strconv.FormatInt(c.ID, 10) + ":v" + c.Value
}

// ParseListCursor reads a cursor written by String.
func ParseListCursor(s string) (ListCursor, error) {
	idText, rest, _ := strings.Cut(s, ":")
	id, err := strconv.ParseInt(idText, 10, 64)
	if err != nil {
		return ListCursor{}, fmt.Errorf("%w: bad list cursor %q", ErrQuery, s)
	}
	c := ListCursor{ID: id}
	switch {
	case rest == "n":
		c.Null = true
	case strings.HasPrefix(rest, "v"):
		c.Value = rest[1:]
	case rest != "":
		return ListCursor{}, fmt.Errorf("%w: bad list cursor %q", ErrQuery, s)
	}
	return c, nil
}

// ListHit is one line of List: a Hit and whether the game is valid.
type ListHit struct {
	Hit
	Valid bool
}

// listColumns maps ListOptions.Sort to SQL.
var listColumns = map[string]string{
	"id": "g.id", "game": "g.game", "white": "a.name", "black": "b.name", "result": "g.result",
	"event": "g.event", "site": "g.site", "date": "g.date", "plies": "g.plies",
}

// List is a page of the games matching the game-level criteria of q (not
// Position or Pattern: see Search), in the order asked, each with its
// cursor (for ListOptions.After and Before). Total is not counted here
// (see Count).
func (db *DB) List(ctx context.Context, q Query, o ListOptions) ([]ListHit, []ListCursor, error) {
	cond, args, empty, err := db.listWhere(ctx, &q, o)
	if err != nil || empty {
		return nil, nil, err
	}
	col, err := sortColumn(o.Sort)
	if err != nil {
		return nil, nil, err
	}
	desc, seek := o.Desc, o.After
	if o.Before != nil {
		// The page before: read backwards from the cursor, then turn round.
		desc, seek = !desc, o.Before
	}
	if seek != nil {
		c, a := seekCond(col, desc, *seek)
		cond, args = "("+cond+") AND "+c, append(args, a...)
	}
	sortCol := col
	if col == "g.id" {
		sortCol = "NULL"
	}
	rows, err := db.sql.QueryContext(ctx, `SELECT `+hitCols+`, g.valid, `+sortCol+` FROM `+hitJoin+` WHERE `+cond+
		` ORDER BY `+orderBy(col, desc)+` LIMIT ? OFFSET ?`, append(args, q.limit(), max(q.Offset, 0))...)
	if err != nil {
		return nil, nil, err
	}
	defer rows.Close()
	var out []ListHit
	var cursors []ListCursor
	for rows.Next() {
		var valid bool
		var v sql.NullString
		h, err := scanHit(rows, &valid, &v)
		if err != nil {
			return nil, nil, err
		}
		out = append(out, ListHit{h, valid})
		c := ListCursor{ID: h.ID}
		if col != "g.id" {
			c.Value, c.Null = v.String, !v.Valid
		}
		cursors = append(cursors, c)
	}
	if err := rows.Err(); err != nil {
		return nil, nil, err
	}
	if o.Before != nil {
		slices.Reverse(out)
		slices.Reverse(cursors)
	}
	return out, cursors, nil
}

// ListIndex reads the whole list of q in the order of o (its offset,
// limit and cursors ignored) and returns the cursor of every every-th game
// (of games every-1, 2×every-1, …: a page that starts at offset k×every
// starts after the k-th) and the number of games. A list's deep pages are
// then seeks (ListOptions.After) instead of scans of every game before
// them.
func (db *DB) ListIndex(ctx context.Context, q Query, o ListOptions, every int) ([]ListCursor, int, error) {
	cond, args, empty, err := db.listWhere(ctx, &q, o)
	if err != nil || empty {
		return nil, 0, err
	}
	col, err := sortColumn(o.Sort)
	if err != nil {
		return nil, 0, err
	}
	from := "games g" // the filters are on games' columns
	if strings.HasPrefix(col, "a.") || strings.HasPrefix(col, "b.") {
		from = hitJoin
	}
	sortCol := col
	if col == "g.id" {
		sortCol = "NULL"
	}
	rows, err := db.sql.QueryContext(ctx, `SELECT g.id, `+sortCol+` FROM `+from+` WHERE `+cond+` ORDER BY `+orderBy(col, o.Desc), args...)
	if err != nil {
		return nil, 0, err
	}
	defer rows.Close()
	var out []ListCursor
	n := 0
	for rows.Next() {
		n++
		if n%every != 0 {
			continue
		}
		var c ListCursor
		var v sql.NullString
		if err := rows.Scan(&c.ID, &v); err != nil {
			return nil, 0, err
		}
		if col != "g.id" {
			c.Value, c.Null = v.String, !v.Valid
		}
		out = append(out, c)
	}
	return out, n, rows.Err()
}

func sortColumn(sort string) (string, error) {
	if sort == "" {
		return "g.id", nil
	}
	c, ok := listColumns[sort]
	if !ok {
		return "", fmt.Errorf("%w: cannot sort by %q", ErrQuery, sort)
	}
	return c, nil
}

func orderBy(col string, desc bool) string {
	dir := ""
	if desc {
		dir = " DESC"
	}
	if col == "g.id" {
		return "g.id" + dir
	}
	return col + dir + ", g.id" + dir
}

// seekCond is the condition of the games after cursor c in the order of
// col (then id), ascending or descending. SQLite puts NULL first in an
// ascending order, last in a descending one.
func seekCond(col string, desc bool, c ListCursor) (string, []any) {
	if col == "g.id" {
		if desc {
			return "g.id < ?", []any{c.ID}
		}
		return "g.id > ?", []any{c.ID}
	}
	var v any = c.Value
	if col == "g.plies" {
		n, _ := strconv.Atoi(c.Value)
		v = n
	}
	switch {
	case c.Null && !desc:
		return "((" + col + " IS NULL AND g.id > ?) OR " + col + " IS NOT NULL)", []any{c.ID}
	case c.Null && desc:
		return "(" + col + " IS NULL AND g.id < ?)", []any{c.ID}
	case !desc:
		return "(" + col + " > ? OR (" + col + " = ? AND g.id > ?))", []any{v, v, c.ID}
	}
	return "(" + col + " < ? OR (" + col + " = ? AND g.id < ?) OR " + col + " IS NULL)", []any{v, v, c.ID}
}

// Count is the number of games List would list without a limit.
func (db *DB) Count(ctx context.Context, q Query, o ListOptions) (int, error) {
	cond, args, empty, err := db.listWhere(ctx, &q, o)
	if err != nil || empty {
		return 0, err
	}
	key := cond + "\x00" + fmt.Sprint(args...)
	if cond == "g.valid = ?" && len(args) == 1 && args[0] == true {
		// Every valid game: the table's count (SQLite counts the entries
		// of its smallest index) less the invalid games (a partial
		// index). Counting the valid rows reads the whole games table
		// (docs/queries.md).
		return db.counts.get(ctx, db.sql, key, `SELECT (SELECT COUNT(*) FROM games) - (SELECT COUNT(*) FROM games WHERE valid = 0)`, nil)
	}
	return db.counts.get(ctx, db.sql, key, `SELECT COUNT(*) FROM games g WHERE `+cond, args)
}

func (db *DB) listWhere(ctx context.Context, q *Query, o ListOptions) (string, []any, bool, error) {
	if q.Position != nil || q.Pattern != nil {
		return "", nil, false, fmt.Errorf("%w: a position or pattern is searched with Search", ErrQuery)
	}
	w, empty, err := db.filters(ctx, q)
	if err != nil || empty {
		return "", nil, empty, err
	}
	if o.AnyValidity {
		cond, args := w.without(0) // filters' first condition is g.valid
		return cond, args, false, nil
	}
	return w.String(), append([]any(nil), w.args...), false, nil
}

// PositionCount counts the occurrences of q.Position (main lines and
// variations) in the games matching q's filters, up to limit: at most limit
// is returned, and more reports that there are more.
func (db *DB) PositionCount(ctx context.Context, q Query, limit int) (n int, more bool, err error) {
	if q.Position == nil {
		return 0, false, fmt.Errorf("%w: no position", ErrQuery)
	}
	if q.Game == "" {
		if q.Game, err = db.OnlyGame(ctx); err != nil {
			return 0, false, err
		}
	}
	w, empty, err := db.filters(ctx, &q)
	if err != nil || empty {
		return 0, false, err
	}
	salted := saltKey(q.Game, q.Position.Key())
	cond, args := w.String(), w.args
	n, err = db.counts.getFunc(ctx, db.sql, fmt.Sprint("position ", salted, cond, args, limit), func() (int, error) {
		return db.countOccurrences(ctx, salted, cond, args, limit, w.onlyValidGame())
	})
	if err != nil {
		return 0, false, err
	}
	if n > limit {
		return limit, true, nil
	}
	return n, false, nil
}

// countCache keeps counts, which a list asks for on every page and which
// cost a scan: a count is kept while the database has the same last game
// id (a database being imported into grows), for at most maxCounts
// queries.
type countCache struct {
	mu   sync.Mutex
	last [2]int64
	m    map[string]int
}

const maxCounts = 1024

func (c *countCache) get(ctx context.Context, q queryer, key, query string, args []any) (int, error) {
	return c.getFunc(ctx, q, key, func() (n int, err error) {
		err = q.QueryRowContext(ctx, query, args...).Scan(&n)
		return n, err
	})
}

// getFunc is get with the count made by count.
func (c *countCache) getFunc(ctx context.Context, q queryer, key string, count func() (int, error)) (int, error) {
	// The database's state: its last game id (imports) and its edit
	// count (deletions and re-stored games, edit.go).
	var id, edits sql.NullInt64
	if err := q.QueryRowContext(ctx, `SELECT (SELECT MAX(id) FROM games), (SELECT v FROM meta WHERE k = '`+editsKey+`')`).Scan(&id, &edits); err != nil {
		return 0, err
	}
	last := [2]int64{id.Int64, edits.Int64}
	c.mu.Lock()
	if c.m == nil || c.last != last || len(c.m) >= maxCounts {
		c.m, c.last = map[string]int{}, last
	}
	n, ok := c.m[key]
	c.mu.Unlock()
	if ok {
		return n, nil
	}
	n, err := count()
	if err != nil {
		return 0, err
	}
	c.mu.Lock()
	if c.last == last {
		c.m[key] = n
	}
	c.mu.Unlock()
	return n, nil
}
