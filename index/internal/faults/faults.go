package faults

import (
	"context"
	"database/sql"
	"regexp"
	"sort"
	"strings"

	"github.com/plateau/plateau/index/internal/store"
)

// Querier is what reading the faults needs: the database handle.
type Querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// Group is one kind of error among the invalid games: a ruleset and a
// reason, how many games have it and the first of them.
type Group struct {
	Game   string
	Reason string // "illegal move (RULE)" or the message's kind, without its particulars
	Games  int
	First  int64 // the smallest game id with it
}

// Entry is an invalid game and why.
type Entry struct {
	ID     int64
	Game   string
	File   string
	Line   int // of the error (0 if unknown)
	Col    int
	Ply    int
	Move   string
	Rule   string
	Err    string
	Record int // line where the record starts
}

var (
	errPlyPrefix = regexp.MustCompile(`^ply \d+ "[^"]*": `)
	errQuoted    = regexp.MustCompile(`"[^"]*"`)
	errPos       = regexp.MustCompile(`^[^:]*:\d+(:\d+)?: `)
	errSpaces    = regexp.MustCompile(`\s+`)
)

// reason is the kind of an error: the rule an illegal move breaks, or
// the message up to its first colon with quoted particulars (moves,
// positions) and a trailing parenthesis left out: "cannot read move",
// "result does not match the game", "move after the end of the game".
func reason(msg, rule string) string {
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

// Summary groups the invalid games by ruleset and reason, the most
// frequent first.
func Summary(ctx context.Context, q Querier) ([]Group, error) {
	rows, err := q.QueryContext(ctx, `SELECT id, game, err, err_rule FROM games WHERE valid = 0 ORDER BY id`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	byKey := map[[2]string]*Group{}
	for rows.Next() {
		var id int64
		var game string
		var msg, rule sql.NullString
		if err := rows.Scan(&id, &game, &msg, &rule); err != nil {
			return nil, err
		}
		k := [2]string{game, reason(msg.String, rule.String)}
		g := byKey[k]
		if g == nil {
			g = &Group{Game: k[0], Reason: k[1], First: id}
			byKey[k] = g
		}
		g.Games++
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	out := make([]Group, 0, len(byKey))
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

// List lists the invalid games, in import order, and how many there are.
func List(ctx context.Context, q Querier, limit, offset int) ([]Entry, int, error) {
	if limit <= 0 {
		limit = 1 << 62
	}
	var total int
	if err := q.QueryRowContext(ctx, `SELECT COUNT(*) FROM games WHERE valid = 0`).Scan(&total); err != nil {
		return nil, 0, err
	}
	rows, err := q.QueryContext(ctx, `SELECT g.id, g.game, s.path, g.err_line, g.err_col, g.err_ply, g.err_move, g.err_rule, g.err, g.line
		FROM games g LEFT JOIN sources s ON s.id = g.source WHERE g.valid = 0 ORDER BY g.id LIMIT ? OFFSET ?`, limit, offset)
	if err != nil {
		return nil, 0, err
	}
	defer rows.Close()
	var out []Entry
	for rows.Next() {
		var e Entry
		var file, mv, rule, msg sql.NullString
		var line, col, ply, rline sql.NullInt64
		if err := rows.Scan(&e.ID, &e.Game, &file, &line, &col, &ply, &mv, &rule, &msg, &rline); err != nil {
			return nil, 0, err
		}
		e.File, e.Line, e.Col, e.Ply = file.String, int(line.Int64), int(col.Int64), int(ply.Int64)
		e.Move, e.Rule, e.Err, e.Record = mv.String, rule.String, msg.String, int(rline.Int64)
		out = append(out, e)
	}
	return out, total, rows.Err()
}

// GameErrors are the first errors of the invalid games among ids, as
// stored at their import: the message and the line it names (0 when none).
func GameErrors(ctx context.Context, q Querier, ids []int64) (map[int64]Entry, error) {
	out := map[int64]Entry{}
	if len(ids) == 0 {
		return out, nil
	}
	rows, err := q.QueryContext(ctx, `SELECT id, err, err_line FROM games
		WHERE id IN (SELECT value FROM json_each(?)) AND valid = 0`, store.JSONIDs(ids))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var e Entry
		var msg sql.NullString
		var line sql.NullInt64
		if err := rows.Scan(&e.ID, &msg, &line); err != nil {
			return nil, err
		}
		e.Err, e.Line = msg.String, int(line.Int64)
		out[e.ID] = e
	}
	return out, rows.Err()
}
