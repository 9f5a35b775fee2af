package index

import (
	"context"
	"encoding/binary"

	"github.com/plateau/plateau/index/internal/movelist"
	"github.com/plateau/plateau/rules"
)

// StoredMoves are the stored move lists of the valid games, by id.
func StoredMoves(ctx context.Context, db *DB) (map[int64][]byte, error) {
	rows, err := db.sql.QueryContext(ctx, `SELECT id, moves FROM games WHERE valid = 1`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[int64][]byte{}
	for rows.Next() {
		var id int64
		var b []byte
		if err := rows.Scan(&id, &b); err != nil {
			return nil, err
		}
		out[id] = b
	}
	return out, rows.Err()
}

// legacyMoves writes a decoded move list in the legacy form.
func legacyMoves(b []byte, ml *movelist.List, line []int) []byte {
	b = binary.AppendUvarint(b, uint64(len(line)))
	for _, k := range line {
		st := ml.Steps[k]
		b = binary.AppendUvarint(b, uint64(st.Move))
		b = binary.AppendUvarint(b, uint64(len(st.Vars)))
		for _, v := range st.Vars {
			b = legacyMoves(b, ml, v)
		}
	}
	return b
}

// DowngradeToLayout21 writes every stored move list in its legacy form
// and marks the database layout 21, for the upgrade's tests.
func DowngradeToLayout21(ctx context.Context, db *DB) error {
	all, err := StoredMoves(ctx, db)
	if err != nil {
		return err
	}
	for id, b := range all {
		ml, err := movelist.Decode(b)
		if err != nil {
			return err
		}
		if _, err := db.sql.ExecContext(ctx, `UPDATE games SET moves = ? WHERE id = ?`, legacyMoves(nil, ml, ml.Main), id); err != nil {
			return err
		}
	}
	return setMeta(ctx, db.sql, "schema", 21)
}

// GamesSchema is the definition of the games table and of its indexes
// and triggers, in the order made.
func GamesSchema(ctx context.Context, db *DB) ([]string, error) {
	rows, err := db.sql.QueryContext(ctx, `SELECT COALESCE(sql, name) FROM sqlite_schema WHERE tbl_name = 'games' ORDER BY type, name`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, rows.Err()
}

// MainPosition is the position after the first plies steps of a stored
// move list's main line, from the standard start of game.
func MainPosition(game string, moves []byte, plies int) (rules.Position, error) {
	g, err := rules.Lookup(game)
	if err != nil {
		return nil, err
	}
	pos, err := g.NewPosition("")
	if err != nil {
		return nil, err
	}
	ml, err := movelist.Decode(moves)
	if err != nil {
		return nil, err
	}
	for _, k := range ml.Main[:min(plies, len(ml.Main))] {
		pos.Play(ml.Steps[k].Move)
	}
	return pos, nil
}
