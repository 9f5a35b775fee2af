package index

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

	"github.com/plateau/plateau/index/internal/movelist"
)

// upgrade21 turns a layout-21 database into layout 22 in one transaction
// (a kill leaves it at 21): every stored move list packed
// (movelist.Repack), which a layout-21 program cannot read. The games
// table is written again, in id order, into a new table that replaces it,
// so that its pages hold the shorter rows (rows shrunk in place would
// leave the same pages, part empty); its indexes and trigger are made
// again as they were. The old pages are given back after the commit, as
// upgrade18 does.
func (db *DB) upgrade21(ctx context.Context) error {
	if err := db.upgradeTx(ctx, 21, "packed move lists", func(tx *sql.Tx) error {
		if err := repackGames(ctx, tx); err != nil {
			return fmt.Errorf("upgrade to layout 22: %w", err)
		}
		return nil
	}); err != nil {
		return err
	}
	return db.giveBack(ctx)
}

// repackGames writes the games table again with its move lists packed
// (the SQL function plateau_pack_moves), keeping its columns, indexes and
// trigger.
func repackGames(ctx context.Context, tx *sql.Tx) error {
	var table string
	if err := tx.QueryRowContext(ctx, `SELECT sql FROM sqlite_schema WHERE type = 'table' AND name = 'games'`).Scan(&table); err != nil {
		return err
	}
	deps, err := gamesDependents(ctx, tx)
	if err != nil {
		return err
	}
	cols, err := gamesColumns(ctx, tx)
	if err != nil {
		return err
	}
	stmts := make([]string, 0, 2*len(deps)+4)
	for _, d := range deps {
		stmts = append(stmts, `DROP `+strings.ToUpper(d.kind)+` `+d.name)
	}
	stmts = append(stmts, `ALTER TABLE games RENAME TO games_old`, table,
		`INSERT INTO games SELECT `+strings.Join(cols, ", ")+` FROM games_old ORDER BY id`,
		`DROP TABLE games_old`)
	for _, d := range deps {
		stmts = append(stmts, d.sql)
	}
	for _, q := range stmts {
		if _, err := tx.ExecContext(ctx, q); err != nil {
			return fmt.Errorf("%s: %w", strings.Fields(q)[0]+" "+strings.Fields(q)[1], err)
		}
	}
	return nil
}

// schemaObject is an index or trigger of the games table.
type schemaObject struct{ kind, name, sql string }

// gamesDependents are the indexes and triggers made on the games table
// (not the one of its UNIQUE column, which the table makes).
func gamesDependents(ctx context.Context, tx *sql.Tx) ([]schemaObject, error) {
	rows, err := tx.QueryContext(ctx, `SELECT type, name, sql FROM sqlite_schema
		WHERE tbl_name = 'games' AND type IN ('index', 'trigger') AND sql IS NOT NULL ORDER BY rowid`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []schemaObject
	for rows.Next() {
		var o schemaObject
		if err := rows.Scan(&o.kind, &o.name, &o.sql); err != nil {
			return nil, err
		}
		out = append(out, o)
	}
	return out, rows.Err()
}

// gamesColumns are the games table's columns in order, as the copy
// selects them: the move list packed.
func gamesColumns(ctx context.Context, tx *sql.Tx) ([]string, error) {
	rows, err := tx.QueryContext(ctx, `SELECT name FROM pragma_table_info('games') ORDER BY cid`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var cols []string
	for rows.Next() {
		var c string
		if err := rows.Scan(&c); err != nil {
			return nil, err
		}
		if c == "moves" {
			c = `CASE WHEN moves IS NULL THEN NULL ELSE plateau_pack_moves(moves) END`
		}
		cols = append(cols, c)
	}
	if len(cols) == 0 {
		return nil, fmt.Errorf("no games table")
	}
	return cols, rows.Err()
}

// packMoves is the SQL function plateau_pack_moves: a stored move list
// packed (movelist.Repack); a list that does not decode is kept as it is
// (its reader reports it, as before).
func packMoves(b []byte) []byte {
	p, err := movelist.Repack(b)
	if err != nil {
		return b
	}
	return p
}
