package index

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/plateau/plateau/index/internal/gamerows"
	"github.com/plateau/plateau/replay"
)

// Warnings: faults of a game's metadata that do not make it invalid (a
// Result tag that disagrees with the movetext or with an unfinished final
// position) and how an untagged record's ruleset was chosen (see package
// replay). They are kept in their own table, one row per warning, since
// layout version 3; a trigger removes a game's warnings with the game.
func init() {
	schema = append(schema,
		`CREATE TABLE IF NOT EXISTS warnings(
			game INTEGER NOT NULL, kind TEXT NOT NULL, msg TEXT NOT NULL, line INTEGER)`,
		`CREATE INDEX IF NOT EXISTS warnings_game ON warnings(game)`,
		`CREATE TRIGGER IF NOT EXISTS games_delete_warnings AFTER DELETE ON games
			BEGIN DELETE FROM warnings WHERE game = old.id; END`,
	)
}

// addWarnings stores a game's warnings in the writer's transaction.
func (w *writer) addWarnings(ctx context.Context, id int64, ws []gamerows.Warning) error {
	for _, r := range ws {
		if _, err := w.tx.ExecContext(ctx, `INSERT INTO warnings(game, kind, msg, line) VALUES(?,?,?,?)`, id, r.Kind, r.Msg, r.Line); err != nil {
			return fmt.Errorf("store warning: %w", err)
		}
	}
	return nil
}

// WarningEntry is one warning of a stored game.
type WarningEntry struct {
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
func (db *DB) Warnings(ctx context.Context, kind string, limit, offset int) ([]WarningEntry, int, error) {
	if limit <= 0 {
		limit = 1 << 62
	}
	var total int
	if err := db.sql.QueryRowContext(ctx, `SELECT COUNT(*) FROM warnings WHERE ? = '' OR kind = ?`, kind, kind).Scan(&total); err != nil {
		return nil, 0, err
	}
	rows, err := db.sql.QueryContext(ctx, `SELECT w.game, g.game, s.path, w.line, w.kind, w.msg
		FROM warnings w JOIN games g ON g.id = w.game LEFT JOIN sources s ON s.id = g.source
		WHERE ? = '' OR w.kind = ? ORDER BY w.game, w.rowid LIMIT ? OFFSET ?`, kind, kind, limit, offset)
	if err != nil {
		return nil, 0, err
	}
	defer rows.Close()
	var out []WarningEntry
	for rows.Next() {
		var e WarningEntry
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
func (db *DB) GameWarnings(ctx context.Context, ids []int64) (map[int64][]string, error) {
	out := map[int64][]string{}
	if len(ids) == 0 {
		return out, nil
	}
	rows, err := db.sql.QueryContext(ctx, `SELECT game, kind, msg FROM warnings
		WHERE game IN (SELECT value FROM json_each(?)) ORDER BY game, rowid`, jsonIDs(ids))
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

// StoredWarnings are the warnings stored for game id at its import, in the
// JSON export's form.
func (db *DB) StoredWarnings(ctx context.Context, id int64) ([]replay.JSONWarning, error) {
	out := []replay.JSONWarning{}
	rows, err := db.sql.QueryContext(ctx, `SELECT kind, msg, line FROM warnings WHERE game = ? ORDER BY rowid`, id)
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

// GameErrors are the first errors of the invalid games among ids, as
// stored at their import: the message and the line it names (0 when none).
func (db *DB) GameErrors(ctx context.Context, ids []int64) (map[int64]ErrorEntry, error) {
	out := map[int64]ErrorEntry{}
	if len(ids) == 0 {
		return out, nil
	}
	rows, err := db.sql.QueryContext(ctx, `SELECT id, err, err_line FROM games
		WHERE id IN (SELECT value FROM json_each(?)) AND valid = 0`, jsonIDs(ids))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var e ErrorEntry
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
