package index

import (
	"context"
	"database/sql"
	"strings"

	"github.com/plateau/plateau/index/internal/criteria"
	"github.com/plateau/plateau/index/internal/openings"
)

// byOpeningSegments reports whether List reads q's list by opening in
// segments (criteria.Order.Segments): the layout has the folded names
// and their index, and q has no criterion but the ruleset, the validity
// and the opening (which the segments select by their openings). A
// narrower list is sorted whole: its criteria's own index finds its
// games, fewer than the segments would walk past.
func (db *DB) byOpeningSegments(q Query, ord criteria.Order) bool {
	if !criteria.JoinsOpenings(ord.Col) || !db.openingsFolded {
		return false
	}
	q.Game, q.Invalid, q.Opening = "", false, ""
	return !q.HasCriteria()
}

// listSegments is a page of q's list by opening after seek (nil: from
// the start), read segment by segment; cond and args are q's conditions
// on games g but its opening, which selects the openings of the named
// segments (and leaves out the unnamed one). Query.Offset counts from
// seek across segments: a segment that holds fewer games than are left
// to skip is counted.
func (db *DB) listSegments(ctx context.Context, q Query, cond string, args []any, ord criteria.Order, seek *ListCursor) ([]ListHit, []ListCursor, error) {
	need, off := q.PageLimit(), max(q.Offset, 0)
	var out []ListHit
	var cursors []ListCursor
	for _, s := range ord.Segments(seek) {
		if need <= 0 {
			break
		}
		from, value := criteria.UnnamedFrom, "NULL"
		c, a := "("+cond+") AND "+s.Cond, append(append([]any(nil), args...), s.Args...)
		switch {
		case s.Named:
			from, value = criteria.NamedFrom, criteria.SortValue(ord.Col)
			if q.Game != "" {
				// The openings of other rulesets hold none of its games.
				c, a = c+" AND op.game = ?", append(a, criteria.GameID(q.Game))
			}
			if q.Opening != "" {
				m, ma := openings.MatchName("op", strings.TrimSpace(q.Opening))
				c, a = c+" AND "+m, append(a, ma...)
			}
		case q.Opening != "":
			continue // no game without an opening has one
		}
		got := 0
		err := db.scanList(ctx, `SELECT `+hitCols+`, g.valid, `+value+` FROM `+from+` WHERE `+c+
			` ORDER BY `+s.By+` LIMIT ? OFFSET ?`, append(a, need, off), func(h ListHit, v sql.NullString) {
			out, cursors = append(out, h), append(cursors, criteria.CursorOf(ord.Col, h.ID, v))
			got++
		})
		if err != nil {
			return nil, nil, err
		}
		if got == 0 && off > 0 {
			var n int
			if err := db.sql.QueryRowContext(ctx, `SELECT COUNT(*) FROM `+from+` WHERE `+c, a...).Scan(&n); err != nil {
				return nil, nil, err
			}
			off -= n
		} else {
			off = 0
		}
		need -= got
	}
	return out, cursors, nil
}

// scanList runs a list query selecting hitCols, the validity and the
// sort value, and gives each game to fn.
func (db *DB) scanList(ctx context.Context, query string, args []any, fn func(ListHit, sql.NullString)) error {
	rows, err := db.sql.QueryContext(ctx, query, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var valid bool
		var v sql.NullString
		h, err := scanHit(rows, &valid, &v)
		if err != nil {
			return err
		}
		fn(ListHit{h, valid}, v)
	}
	return rows.Err()
}
