package treeagg

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"maps"
	"slices"
)

// Upgrade5 converts, in tx, the opening tree of a layout-5 database, one
// tree_players row per (key, move, player), into this layout: the tree
// rows gain np and top, and the counts of the moves of more than TopLen
// players go into chunks of a new tree_players, which replaces the old.
func Upgrade5(ctx context.Context, tx Tx) error {
	for _, q := range []string{
		`ALTER TABLE tree ADD COLUMN np INTEGER NOT NULL DEFAULT 0`,
		`CREATE TABLE tree_players6(
		key INTEGER NOT NULL, move TEXT NOT NULL, chunk INTEGER NOT NULL, data BLOB NOT NULL,
		PRIMARY KEY(key, move, chunk)) WITHOUT ROWID`,
	} {
		if _, err := tx.ExecContext(ctx, q); err != nil {
			return fmt.Errorf("upgrade to layout 6: %w", err)
		}
	}
	if err := convert5(ctx, tx); err != nil {
		return err
	}
	for _, q := range []string{
		`DROP TABLE tree_players`,
		`ALTER TABLE tree_players6 RENAME TO tree_players`,
	} {
		if _, err := tx.ExecContext(ctx, q); err != nil {
			return fmt.Errorf("upgrade to layout 6: %w", err)
		}
	}
	return nil
}

// convert5 reads the layout-5 rows of tree_players in key order and
// writes each move's np and top into its tree row, and its counts into
// chunks of tree_players6 when it has more than TopLen players.
func convert5(ctx context.Context, tx Tx) error {
	setTree, err := tx.PrepareContext(ctx, `UPDATE tree SET np = ?, top = ? WHERE key = ? AND move = ?`)
	if err != nil {
		return err
	}
	defer setTree.Close()
	addChunk, err := tx.PrepareContext(ctx, `INSERT INTO tree_players6(key, move, chunk, data) VALUES(?, ?, ?, ?)`)
	if err != nil {
		return err
	}
	defer addChunk.Close()
	rows, err := tx.QueryContext(ctx, `SELECT key, move, player, n FROM tree_players WHERE n > 0 ORDER BY key, move, player`)
	if err != nil {
		return fmt.Errorf("upgrade to layout 6: %w", err)
	}
	defer rows.Close()
	var cur Key
	var es, top []Count
	for rows.Next() {
		var k Key
		var e Count
		if err := rows.Scan(&k.Pos, &k.Move, &e.Player, &e.N); err != nil {
			return fmt.Errorf("upgrade to layout 6: %w", err)
		}
		if k != cur {
			if top, err = writeMove5(ctx, setTree, addChunk, cur, es, top); err != nil {
				return fmt.Errorf("upgrade to layout 6: %w", err)
			}
			es, cur = es[:0], k
		}
		es = append(es, e)
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("upgrade to layout 6: %w", err)
	}
	if _, err := writeMove5(ctx, setTree, addChunk, cur, es, top); err != nil {
		return fmt.Errorf("upgrade to layout 6: %w", err)
	}
	return nil
}

// writeMove5 writes the np and top of move k of players es (none: nothing
// to write) into its row, and its chunks when it has more than TopLen
// players; top is memory it uses again, returned.
func writeMove5(ctx context.Context, setTree, addChunk *sql.Stmt, k Key, es, top []Count) ([]Count, error) {
	if len(es) == 0 {
		return top, nil
	}
	top = bestOf(top, es)
	if _, err := setTree.ExecContext(ctx, len(es), encodeTop(nil, top), k.Pos, k.Move); err != nil {
		return top, err
	}
	if len(es) > TopLen {
		for c, part := range chunksOf(es) {
			if _, err := addChunk.ExecContext(ctx, k.Pos, k.Move, c, encodeChunk(nil, c, part)); err != nil {
				return top, err
			}
		}
	}
	return top, nil
}

// ErrNoRow: AddWins was given a move the tree has no row for (wins
// counted from games the aggregate does not hold).
var ErrNoRow = errors.New("no opening-tree row for the move")

// Upgrade8 gives the tree rows of a layout-8 database, in tx, the games
// won by each side (w0, w1), zero until the caller counts them from the
// stored games (AddWins).
func Upgrade8(ctx context.Context, tx Tx) error {
	for _, q := range []string{
		`ALTER TABLE tree ADD COLUMN w0 INTEGER NOT NULL DEFAULT 0`,
		`ALTER TABLE tree ADD COLUMN w1 INTEGER NOT NULL DEFAULT 0`,
	} {
		if _, err := tx.ExecContext(ctx, q); err != nil {
			return fmt.Errorf("upgrade to layout 9: %w", err)
		}
	}
	return nil
}

// AddWins adds to each move's row of the tree, in tx, its wins: the games
// each side won (Wins) among some games counted in the row. A move
// without a row is an error (ErrNoRow), the rows written so far kept for
// the caller to roll back.
func AddWins(ctx context.Context, tx Tx, wins map[Key][2]int) error {
	st, err := tx.PrepareContext(ctx, `UPDATE tree SET w0 = w0 + ?, w1 = w1 + ? WHERE key = ? AND move = ?`)
	if err != nil {
		return err
	}
	defer st.Close()
	keys := slices.SortedFunc(maps.Keys(wins), func(x, y Key) int {
		return EntryCmp(Entry{Pos: x.Pos, Move: x.Move}, Entry{Pos: y.Pos, Move: y.Move})
	})
	for _, k := range keys {
		w := wins[k]
		res, err := st.ExecContext(ctx, w[0], w[1], k.Pos, k.Move)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil || n != 1 {
			return fmt.Errorf("%w: %q from key %d (%v)", ErrNoRow, k.Move, k.Pos, err)
		}
	}
	return nil
}

// AddGames adds to the aggregate, in tx, the entries es (any order) of
// games, as Flush adds them (rows, players and months): for moves counted
// from the stored games, when the aggregate counts more of their plies.
func AddGames(ctx context.Context, tx Tx, es []Entry, games []Game) error {
	st := &txStmts{tx: tx, stmts: map[string]*sql.Stmt{}}
	defer st.close()
	es = slices.Clone(es)
	slices.SortFunc(es, EntryCmp)
	return Flush(ctx, st, es, games)
}
