package index

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/plateau/plateau/index/internal/posrun"
	"github.com/plateau/plateau/rules"
)

// Hit is one match.
type Hit struct {
	ID      int64
	Game    string
	Date    string
	Players [2]string
	Result  string
	Event   string
	Site    string
	Plies   int
	// Ply of the matching position (position and pattern searches); -1
	// otherwise.
	Ply       int
	Variation bool // the match is inside a variation
}

// Result is a page of hits.
type Result struct {
	Hits  []Hit
	Total int // total matches; -1 when not counted
}

const hitCols = `g.id, g.game, g.date, a.name, b.name, g.result, g.event, g.site, g.plies`
const hitJoin = `games g LEFT JOIN players a ON a.id = g.p0 LEFT JOIN players b ON b.id = g.p1`

func scanHit(rows *sql.Rows, extra ...any) (Hit, error) {
	var h Hit
	var date, a, b, res, ev, site sql.NullString
	dst := append([]any{&h.ID, &h.Game, &date, &a, &b, &res, &ev, &site, &h.Plies}, extra...)
	err := rows.Scan(dst...)
	h.Date, h.Players, h.Result, h.Event, h.Site = date.String, [2]string{a.String, b.String}, res.String, ev.String, site.String
	h.Ply = -1
	return h, err
}

// Search finds games.
func (db *DB) Search(ctx context.Context, q Query) (Result, error) {
	if (q.Position != nil || q.Pattern != nil) && q.Game == "" {
		g, err := db.OnlyGame(ctx)
		if err != nil {
			return Result{}, err
		}
		q.Game = g
	}
	if q.Position != nil || q.Pattern != nil {
		if _, err := rules.Lookup(q.Game); err != nil {
			return Result{}, &CriterionError{Name: "game", Value: q.Game, Err: err}
		}
	}
	w, empty, err := db.filters(ctx, &q)
	if err != nil {
		return Result{}, err
	}
	if empty {
		return Result{Total: 0}, nil
	}
	if q.Pattern != nil {
		return db.patternSearch(ctx, &q, w)
	}
	if q.Position != nil {
		return db.positionSearch(ctx, &q, w)
	}
	res := Result{Total: -1}
	query, args := pageSQL(&w, q.PageLimit(), q.Offset)
	if query == "" {
		ids, err := db.playerPage(ctx, &w, q.PageLimit(), q.Offset)
		if err != nil {
			return res, err
		}
		query, args = `SELECT `+hitCols+` FROM `+hitJoin+` WHERE g.id IN (SELECT value FROM json_each(?)) ORDER BY g.id`, []any{jsonIDs(ids)}
	}
	rows, err := db.sql.QueryContext(ctx, query, args...)
	if err != nil {
		return res, err
	}
	defer rows.Close()
	for rows.Next() {
		h, err := scanHit(rows)
		if err != nil {
			return res, err
		}
		res.Hits = append(res.Hits, h)
	}
	if err := rows.Err(); err != nil {
		return res, err
	}
	if q.Count {
		if err := db.sql.QueryRowContext(ctx, `SELECT COUNT(*) FROM games g WHERE `+w.String(), w.Args()...).Scan(&res.Total); err != nil {
			return res, err
		}
	}
	return res, nil
}

func (db *DB) positionSearch(ctx context.Context, q *Query, w where) (Result, error) {
	res := Result{Total: -1}
	salted := saltKey(q.Game, q.Position.Key())
	want := q.Offset + q.PageLimit()
	if want < 0 { // overflow: no limit
		want = 1 << 62
	}
	r, err := db.pos.Snapshot(ctx)
	if err != nil {
		return res, err
	}
	defer r.Close()
	// Hits in (game, ply, var) order; counting goes on past the page when
	// asked, unless the occurrences can be counted without their games:
	// when the filters hold for every game with occurrences and no deleted
	// game left any (countOccurrences).
	counted := false
	if q.Count && w.OnlyValidGame() {
		deleted, err := posrun.Deleted(ctx, r.Conn())
		if err != nil {
			return res, err
		}
		counted = deleted == 0
	}
	n := 0
	err = joinGames(ctx, r, r.Occurrences(ctx, db.positionKeys(salted)...), w.String(), w.Args(),
		`g.game, g.date, a.name, b.name, g.result, g.event, g.site, g.plies`,
		func(rows *sql.Rows) (int64, any, error) {
			h, err := scanHit(rows)
			return h.ID, h, err
		},
		func(at int64, row any) bool {
			if n >= q.Offset && n < want {
				h := row.(Hit)
				_, ply, v := posrun.UnpackAt(at)
				h.Ply, h.Variation = ply, v == 1
				res.Hits = append(res.Hits, h)
			}
			n++
			return n < want || q.Count && !counted
		})
	if err != nil {
		return res, err
	}
	if counted {
		total, err := r.Count(ctx, db.positionKeys(salted)...)
		res.Total = int(total)
		return res, err
	}
	if q.Count {
		res.Total = n
	}
	return res, nil
}

// OnlyGame is the ruleset of the database when it holds only one; an error
// wrapping ErrQuery otherwise.
func (db *DB) OnlyGame(ctx context.Context) (string, error) {
	rows, err := db.sql.QueryContext(ctx, `SELECT DISTINCT game FROM games WHERE valid = 1 LIMIT 2`)
	if err != nil {
		return "", err
	}
	defer rows.Close()
	var gs []string
	for rows.Next() {
		var g string
		if err := rows.Scan(&g); err != nil {
			return "", err
		}
		gs = append(gs, g)
	}
	if len(gs) != 1 {
		return "", fmt.Errorf("%w: say which game the position is of (--game)", ErrQuery)
	}
	return gs[0], rows.Err()
}
