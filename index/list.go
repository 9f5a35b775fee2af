package index

import (
	"context"
	"database/sql"
	"fmt"
	"slices"

	"github.com/plateau/plateau/index/internal/criteria"
	"github.com/plateau/plateau/index/internal/openings"
)

// ListOptions tune List, the game list of a browser (plateau serve).
type ListOptions struct {
	// Sort is the column the list is ordered by: "id" (default), "game",
	// "white" (side 0's player), "black" (side 1's player), "result",
	// "event", "site", "date", "plies", "opening" (the name of the game's
	// opening, case and accents aside; the games without one last in
	// both directions). Ties are in id order.
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
// Its String is a token for a URL (ParseListCursor reads it).
type ListCursor = criteria.Cursor

// ParseListCursor reads a cursor written by its String.
func ParseListCursor(s string) (ListCursor, error) { return criteria.ParseCursor(s) }

// ListHit is one line of List: a Hit and whether the game is valid.
type ListHit struct {
	Hit
	Valid bool
}

// List is a page of the games matching the game-level criteria of q (not
// Position or Pattern: see Search), in the order asked, each with its
// cursor (for ListOptions.After and Before). Total is not counted here
// (see Count).
func (db *DB) List(ctx context.Context, q Query, o ListOptions) ([]ListHit, []ListCursor, error) {
	ord, err := db.listOrder(o)
	if err != nil {
		return nil, nil, err
	}
	segments := db.byOpeningSegments(q, ord)
	where := q
	if segments {
		where.Opening = "" // the segments select the openings themselves
	}
	cond, args, empty, err := db.listWhere(ctx, &where, o)
	if err != nil || empty {
		return nil, nil, err
	}
	seek := o.After
	if o.Before != nil {
		// The page before: read backwards from the cursor, then turn round.
		ord.Back, seek = true, o.Before
	}
	var out []ListHit
	var cursors []ListCursor
	if segments {
		out, cursors, err = db.listSegments(ctx, q, cond, args, ord, seek) // listopening.go
	} else {
		if seek != nil {
			c, a := ord.Seek(*seek)
			cond, args = "("+cond+") AND "+c, append(args, a...)
		}
		err = db.scanList(ctx, `SELECT `+hitCols+`, g.valid, `+criteria.SortValue(ord.Col)+` FROM `+hitJoin+ord.Join()+` WHERE `+cond+
			` ORDER BY `+ord.By()+` LIMIT ? OFFSET ?`, append(args, q.PageLimit(), max(q.Offset, 0)), func(h ListHit, v sql.NullString) {
			out, cursors = append(out, h), append(cursors, criteria.CursorOf(ord.Col, h.ID, v))
		})
	}
	if err != nil {
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
	ord, err := db.listOrder(o)
	if err != nil {
		return nil, 0, err
	}
	from := "games g" // the filters are on games' columns
	if criteria.JoinsPlayers(ord.Col) {
		from = hitJoin
	}
	rows, err := db.sql.QueryContext(ctx, `SELECT g.id, `+criteria.SortValue(ord.Col)+` FROM `+from+ord.Join()+` WHERE `+cond+` ORDER BY `+ord.By(), args...)
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
		var id int64
		var v sql.NullString
		if err := rows.Scan(&id, &v); err != nil {
			return nil, 0, err
		}
		out = append(out, criteria.CursorOf(ord.Col, id, v))
	}
	return out, n, rows.Err()
}

// listOrder is the order of o's sort (read forwards). A layout without
// opening names lists by id when asked to sort by opening (no game has
// one); one without their folded form folds them as it sorts.
func (db *DB) listOrder(o ListOptions) (criteria.Order, error) {
	col, err := criteria.SortColumn(o.Sort)
	if err != nil {
		return criteria.Order{}, err
	}
	if criteria.JoinsOpenings(col) && !db.openings {
		col = "g.id"
	}
	return criteria.Order{Col: col, Desc: o.Desc, Folded: openings.Folded("op", db.openingsFolded)}, nil
}

// Count is the number of games List would list without a limit.
func (db *DB) Count(ctx context.Context, q Query, o ListOptions) (int, error) {
	cond, args, empty, err := db.listWhere(ctx, &q, o)
	if err != nil || empty {
		return 0, err
	}
	key := cond + "\x00" + fmt.Sprint(args...)
	query := `SELECT COUNT(*) FROM games g WHERE ` + cond
	if cond == "g.valid = ?" && len(args) == 1 && args[0] == true {
		// Every valid game: the table's count (SQLite counts the entries
		// of its smallest index) less the invalid games (a partial
		// index). Counting the valid rows reads the whole games table
		// (docs/queries.md).
		query, args = `SELECT (SELECT COUNT(*) FROM games) - (SELECT COUNT(*) FROM games WHERE valid = 0)`, nil
	}
	return db.count(ctx, key, func() (n int, err error) {
		err = db.sql.QueryRowContext(ctx, query, args...).Scan(&n)
		return n, err
	})
}

// count is the count of key (db.counts), made by count when the database
// changed since it was kept.
func (db *DB) count(ctx context.Context, key string, count func() (int, error)) (int, error) {
	// The database's state: its last game id (imports) and its edit
	// count (deletions and re-stored games, edit.go).
	var id, edits sql.NullInt64
	if err := db.sql.QueryRowContext(ctx, `SELECT (SELECT MAX(id) FROM games), (SELECT v FROM meta WHERE k = '`+editsKey+`')`).Scan(&id, &edits); err != nil {
		return 0, err
	}
	return db.counts.Get(criteria.State{id.Int64, edits.Int64}, key, count)
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
		cond, args := w.Without(0) // filters' first condition is g.valid
		return cond, args, false, nil
	}
	return w.String(), append([]any(nil), w.Args()...), false, nil
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
	cond, args := w.String(), w.Args()
	n, err = db.count(ctx, fmt.Sprint("position ", salted, cond, args, limit), func() (int, error) {
		return db.countOccurrences(ctx, salted, cond, args, limit, w.OnlyValidGame())
	})
	if err != nil {
		return 0, false, err
	}
	if n > limit {
		return limit, true, nil
	}
	return n, false, nil
}
