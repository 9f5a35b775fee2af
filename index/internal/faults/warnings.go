package faults

import (
	"context"
	"database/sql"

	"github.com/plateau/plateau/index/internal/store"
	"github.com/plateau/plateau/replay"
)

// Warning is one warning of a stored game: a fault of its metadata that
// does not make it invalid, or how its ruleset was chosen (replay.Warning).
type Warning struct {
	ID   int64 // the game
	Game string
	File string
	Line int // of the warning (the record's first line, or its last move)
	Kind string
	Msg  string
}

// Warnings lists the warnings of the stored games, in import order, and
// how many there are; kind filters them ("" for all: replay.WarnResult,
// replay.WarnRuleset).
func Warnings(ctx context.Context, q Querier, kind string, limit, offset int) ([]Warning, int, error) {
	if limit <= 0 {
		limit = 1 << 62
	}
	var total int
	if err := q.QueryRowContext(ctx, `SELECT COUNT(*) FROM warnings WHERE ? = '' OR kind = ?`, kind, kind).Scan(&total); err != nil {
		return nil, 0, err
	}
	rows, err := q.QueryContext(ctx, `SELECT w.game, g.game, s.path, w.line, w.kind, w.msg
		FROM warnings w JOIN games g ON g.id = w.game LEFT JOIN sources s ON s.id = g.source
		WHERE ? = '' OR w.kind = ? ORDER BY w.game, w.rowid LIMIT ? OFFSET ?`, kind, kind, limit, offset)
	if err != nil {
		return nil, 0, err
	}
	defer rows.Close()
	var out []Warning
	for rows.Next() {
		var e Warning
		var file sql.NullString
		var line sql.NullInt64
		if err := rows.Scan(&e.ID, &e.Game, &file, &line, &e.Kind, &e.Msg); err != nil {
			return nil, 0, err
		}
		e.File, e.Line = file.String, int(line.Int64)
		out = append(out, e)
	}
	return out, total, rows.Err()
}

// GameWarnings returns the warnings ("kind: text") of the given games.
func GameWarnings(ctx context.Context, q Querier, ids []int64) (map[int64][]string, error) {
	out := map[int64][]string{}
	if len(ids) == 0 {
		return out, nil
	}
	rows, err := q.QueryContext(ctx, `SELECT game, kind, msg FROM warnings
		WHERE game IN (SELECT value FROM json_each(?)) ORDER BY game, rowid`, store.JSONIDs(ids))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		var kind, msg string
		if err := rows.Scan(&id, &kind, &msg); err != nil {
			return nil, err
		}
		out[id] = append(out[id], kind+": "+msg)
	}
	return out, rows.Err()
}

// Stored are the warnings stored for game id at its import, in the JSON
// export's form.
func Stored(ctx context.Context, q Querier, id int64) ([]replay.JSONWarning, error) {
	out := []replay.JSONWarning{}
	rows, err := q.QueryContext(ctx, `SELECT kind, msg, line FROM warnings WHERE game = ? ORDER BY rowid`, id)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var w replay.JSONWarning
		var line sql.NullInt64
		if err := rows.Scan(&w.Kind, &w.Text, &line); err != nil {
			return nil, err
		}
		w.Line = int(line.Int64)
		out = append(out, w)
	}
	return out, rows.Err()
}
