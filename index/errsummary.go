package index

import (
	"context"
	"database/sql"
	"regexp"
	"sort"
	"strings"
)

// ErrorGroup is one kind of error among the invalid games: a ruleset and a
// reason, how many games have it and the first of them.
type ErrorGroup struct {
	Game   string
	Reason string // "illegal move (RULE)" or the message's kind, without its particulars
	Games  int
	First  int64 // the smallest game id with it
}

var (
	errPlyPrefix = regexp.MustCompile(`^ply \d+ "[^"]*": `)
	errQuoted    = regexp.MustCompile(`"[^"]*"`)
	errPos       = regexp.MustCompile(`^[^:]*:\d+(:\d+)?: `)
	errSpaces    = regexp.MustCompile(`\s+`)
)

// errorReason is the kind of an error: the rule an illegal move breaks, or
// the message up to its first colon with quoted particulars (moves,
// positions) and a trailing parenthesis left out: "cannot read move",
// "result does not match the game", "move after the end of the game".
func errorReason(msg, rule string) string {
	if rule != "" {
		return "illegal move (" + rule + ")"
	}
	m := errPos.ReplaceAllString(msg, "")
	m = errPlyPrefix.ReplaceAllString(m, "")
	if i := strings.Index(m, ": "); i >= 0 {
		m = m[:i]
	}
	m = errQuoted.ReplaceAllString(m, "")
	if i := strings.LastIndex(m, " ("); i > 0 && strings.HasSuffix(m, ")") {
		m = m[:i]
	}
	m = strings.TrimSpace(errSpaces.ReplaceAllString(m, " "))
	if m == "" {
		return "unreadable record"
	}
	return m
}

// ErrorSummary groups the invalid games by ruleset and reason, the most
// frequent first.
func (db *DB) ErrorSummary(ctx context.Context) ([]ErrorGroup, error) {
	rows, err := db.sql.QueryContext(ctx, `SELECT id, game, err, err_rule FROM games WHERE valid = 0 ORDER BY id`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	byKey := map[[2]string]*ErrorGroup{}
	for rows.Next() {
		var id int64
		var game string
		var msg, rule sql.NullString
		if err := rows.Scan(&id, &game, &msg, &rule); err != nil {
			return nil, err
		}
		k := [2]string{game, errorReason(msg.String, rule.String)}
		g := byKey[k]
		if g == nil {
			g = &ErrorGroup{Game: k[0], Reason: k[1], First: id}
			byKey[k] = g
		}
		g.Games++
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	out := make([]ErrorGroup, 0, len(byKey))
	for _, g := range byKey {
		out = append(out, *g)
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Games != b.Games {
			return a.Games > b.Games
		}
		if a.Game != b.Game {
			return a.Game < b.Game
		}
		return a.Reason < b.Reason
	})
	return out, nil
}
