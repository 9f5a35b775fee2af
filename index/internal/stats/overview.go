package stats

import (
	"context"
	"database/sql"

	"github.com/plateau/plateau/index/internal/gamerows"
)

// Overview is the statistics page of a database: its games by ruleset,
// by year and by outcome, its longest games and its most active players.
type Overview struct {
	Games     int            `json:"games"`   // every game, valid or not
	Invalid   int            `json:"invalid"` // of which invalid
	Rulesets  []RulesetCount `json:"rulesets"`
	Years     []YearCount    `json:"years"` // by year; undated games under ""
	Longest   []LongGame     `json:"longest"`
	MostGames []PlayerGames  `json:"mostGames"`
}

// RulesetCount is the games of a ruleset and how the valid ones ended:
// the first side's win, a draw (equal points), the second side's win, or
// no score ("*").
type RulesetCount struct {
	Game      string `json:"game"`
	Valid     int    `json:"valid"`
	Invalid   int    `json:"invalid"`
	Plies     int64  `json:"plies"` // of the valid games
	FirstWon  int    `json:"firstWon"`
	Drawn     int    `json:"drawn"`
	SecondWon int    `json:"secondWon"`
	Unscored  int    `json:"unscored"`
}

// YearCount is the games dated in a year.
type YearCount struct {
	Year  string `json:"year"`
	Games int    `json:"games"`
}

// LongGame is one of the longest valid games.
type LongGame struct {
	ID      int64     `json:"id"`
	Game    string    `json:"game"`
	Plies   int       `json:"plies"`
	Players [2]string `json:"players"`
	Date    string    `json:"date,omitempty"`
	Result  string    `json:"result"`
}

// PlayerGames is a player and the number of their games (valid or not).
type PlayerGames struct {
	Name  string `json:"name"`
	Games int    `json:"games"`
}

// MaxLongest and MaxActive bound the longest games and the players an
// Overview lists.
const (
	MaxLongest = 10
	MaxActive  = 20
)

// NewOverview reads the statistics of the database. The counts per
// ruleset are GameCounts' (editsKey as there); the outcomes, years,
// longest games and players read the games table and its indexes once
// each, which on a large database takes seconds: a server keeps the
// answer while the database does not change.
func NewOverview(ctx context.Context, q Querier, editsKey string) (Overview, error) {
	var o Overview
	c, err := GameCounts(ctx, q, editsKey)
	if err != nil {
		return o, err
	}
	at := map[string]int{}
	for _, g := range c.Games {
		at[g.Game] = len(o.Rulesets)
		o.Rulesets = append(o.Rulesets, RulesetCount{Game: g.Game, Valid: g.Valid, Invalid: g.Invalid, Plies: g.Plies})
		o.Games += g.Valid + g.Invalid
		o.Invalid += g.Invalid
	}
	err = eachRow(ctx, q, `SELECT game, result, COUNT(*) FROM games WHERE valid = 1 GROUP BY game, result`, func(r *sql.Rows) error {
		var game string
		var res sql.NullString
		var n int
		if err := r.Scan(&game, &res, &n); err != nil {
			return err
		}
		i, ok := at[game]
		if !ok {
			return nil // added since the counts were read
		}
		rc := &o.Rulesets[i]
		s0, s1, scored := gamerows.Scores(res.String)
		switch {
		case !scored:
			rc.Unscored += n
		case s0 > s1:
			rc.FirstWon += n
		case s0 < s1:
			rc.SecondWon += n
		default:
			rc.Drawn += n
		}
		return nil
	})
	if err != nil {
		return o, err
	}
	if err := o.readRest(ctx, q); err != nil {
		return o, err
	}
	return o, nil
}

// readRest reads the years, the longest games and the most active players.
func (o *Overview) readRest(ctx context.Context, q Querier) error {
	o.Years, o.Longest, o.MostGames = []YearCount{}, []LongGame{}, []PlayerGames{}
	err := eachRow(ctx, q, `SELECT CASE WHEN substr(date, 1, 4) GLOB '[0-9][0-9][0-9][0-9]' THEN substr(date, 1, 4) ELSE '' END y,
		COUNT(*) FROM games GROUP BY y ORDER BY y = '', y`, func(r *sql.Rows) error {
		var y YearCount
		err := r.Scan(&y.Year, &y.Games)
		o.Years = append(o.Years, y)
		return err
	})
	if err != nil {
		return err
	}
	err = eachRow(ctx, q, `SELECT g.id, g.game, g.plies, a.name, b.name, g.date, g.result FROM games g
		LEFT JOIN players a ON a.id = g.p0 LEFT JOIN players b ON b.id = g.p1
		WHERE g.valid = 1 ORDER BY g.plies DESC, g.id LIMIT ?`, func(r *sql.Rows) error {
		var l LongGame
		var a, b, date, res sql.NullString
		err := r.Scan(&l.ID, &l.Game, &l.Plies, &a, &b, &date, &res)
		l.Players, l.Date, l.Result = [2]string{a.String, b.String}, date.String, res.String
		o.Longest = append(o.Longest, l)
		return err
	}, MaxLongest)
	if err != nil {
		return err
	}
	return eachRow(ctx, q, `SELECT pl.name, t.n FROM (SELECT p, COUNT(*) n FROM
		(SELECT p0 p FROM games WHERE p0 IS NOT NULL UNION ALL SELECT p1 FROM games WHERE p1 IS NOT NULL)
		GROUP BY p ORDER BY n DESC, p LIMIT ?) t JOIN players pl ON pl.id = t.p ORDER BY t.n DESC, pl.name`, func(r *sql.Rows) error {
		var p PlayerGames
		err := r.Scan(&p.Name, &p.Games)
		o.MostGames = append(o.MostGames, p)
		return err
	}, MaxActive)
}

// eachRow runs query and calls fn on each of its rows.
func eachRow(ctx context.Context, q Querier, query string, fn func(*sql.Rows) error, args ...any) error {
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		if err := fn(rows); err != nil {
			return err
		}
	}
	return rows.Err()
}
