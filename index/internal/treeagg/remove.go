package treeagg

import (
	"context"
	"database/sql"
	"errors"
	"slices"
)

// Remove takes a game's move k out of the tree: its row counts one game
// less (and g's points and win, when it scored), and player (0: none), who made
// the move, one game less; so does its row of g's month (tree_months).
// The move's last game takes its row and chunks with it.
func Remove(ctx context.Context, st Stmts, k Key, player int64, g Game) error {
	if err := removeMonth(ctx, st, k, g); err != nil {
		return err
	}
	sc, s0, s1, w := 0, 0.0, 0.0, [2]int{}
	if g.Scored {
		sc, s0, s1, w = 1, g.S0, g.S1, Wins(g.S0, g.S1)
	}
	dec, err := st.Stmt(ctx, `UPDATE tree SET n = n - 1, scored = scored - ?, s0 = s0 - ?, s1 = s1 - ?, w0 = w0 - ?, w1 = w1 - ?
		WHERE key = ? AND move = ? RETURNING n, np, top`)
	if err != nil {
		return err
	}
	var n, np int64
	var top []byte
	err = dec.QueryRowContext(ctx, sc, s0, s1, w[0], w[1], k.Pos, k.Move).Scan(&n, &np, &top)
	if errors.Is(err, sql.ErrNoRows) {
		return nil
	}
	if err != nil {
		return err
	}
	if n <= 0 {
		// The move's last game: its row and chunks go.
		if _, err := exec(ctx, st, `DELETE FROM tree WHERE key = ? AND move = ?`, k.Pos, k.Move); err != nil {
			return err
		}
		_, err := exec(ctx, st, `DELETE FROM tree_players WHERE key = ? AND move = ?`, k.Pos, k.Move)
		return err
	}
	if player == 0 {
		return nil
	}
	return removePlayer(ctx, st, k, player, np, top)
}

// exec runs a statement of st.
func exec(ctx context.Context, st Stmts, query string, args ...any) (sql.Result, error) {
	s, err := st.Stmt(ctx, query)
	if err != nil {
		return nil, err
	}
	return s.ExecContext(ctx, args...)
}

// removePlayer lowers by one the count of player for the tree move k,
// whose row holds np players and top; it updates the row's np and top and
// the move's chunks.
func removePlayer(ctx context.Context, st Stmts, k Key, player int64, np int64, topBlob []byte) error {
	top, err := DecodeTop(nil, topBlob)
	if err != nil {
		return err
	}
	inTop := slices.ContainsFunc(top, func(e Count) bool { return e.Player == player })
	if np <= TopLen {
		// Its players are all in top.
		i := slices.IndexFunc(top, func(e Count) bool { return e.Player == player })
		if i < 0 {
			return nil
		}
		top[i].N--
		if top[i].N <= 0 {
			top = slices.Delete(top, i, i+1)
			np--
		}
		slices.SortFunc(top, TopCmp)
		return setPlayers(ctx, st, k, np, top)
	}
	c := playerChunk(player)
	var blob []byte
	sel, err := st.Stmt(ctx, `SELECT data FROM tree_players WHERE key = ? AND move = ? AND chunk = ?`)
	if err != nil {
		return err
	}
	err = sel.QueryRowContext(ctx, k.Pos, k.Move, c).Scan(&blob)
	if errors.Is(err, sql.ErrNoRows) {
		return nil
	}
	if err != nil {
		return err
	}
	es, err := decodeChunk(nil, c, blob)
	if err != nil {
		return err
	}
	i := slices.IndexFunc(es, func(e Count) bool { return e.Player == player })
	if i < 0 {
		return nil
	}
	es[i].N--
	if es[i].N <= 0 {
		es = slices.Delete(es, i, i+1)
		np--
	}
	if len(es) == 0 {
		_, err = exec(ctx, st, `DELETE FROM tree_players WHERE key = ? AND move = ? AND chunk = ?`, k.Pos, k.Move, c)
	} else {
		_, err = exec(ctx, st, `UPDATE tree_players SET data = ? WHERE key = ? AND move = ? AND chunk = ?`, encodeChunk(nil, c, es), k.Pos, k.Move, c)
	}
	if err != nil {
		return err
	}
	if !inTop && np > TopLen {
		_, err = exec(ctx, st, `UPDATE tree SET np = ? WHERE key = ? AND move = ?`, np, k.Pos, k.Move)
		return err
	}
	// The top may change, or the move falls to TopLen players: its top
	// from all its chunks.
	all, err := moveChunks(ctx, st, k)
	if err != nil {
		return err
	}
	top = bestOf(top, all)
	if np <= TopLen {
		if _, err := exec(ctx, st, `DELETE FROM tree_players WHERE key = ? AND move = ?`, k.Pos, k.Move); err != nil {
			return err
		}
	}
	return setPlayers(ctx, st, k, np, top)
}

// moveChunks reads every player count of a move from its chunks.
func moveChunks(ctx context.Context, st Stmts, k Key) ([]Count, error) {
	sel, err := st.Stmt(ctx, `SELECT chunk, data FROM tree_players WHERE key = ? AND move = ?`)
	if err != nil {
		return nil, err
	}
	rows, err := sel.QueryContext(ctx, k.Pos, k.Move)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var all []Count
	for rows.Next() {
		var c int64
		var b []byte
		if err := rows.Scan(&c, &b); err != nil {
			return nil, err
		}
		if all, err = decodeChunk(all, c, b); err != nil {
			return nil, err
		}
	}
	return all, rows.Err()
}

// setPlayers writes a move's number of players and top.
func setPlayers(ctx context.Context, st Stmts, k Key, np int64, top []Count) error {
	var blob any
	if b := encodeTop(nil, top); b != nil {
		blob = b
	}
	_, err := exec(ctx, st, `UPDATE tree SET np = ?, top = ? WHERE key = ? AND move = ?`, np, blob, k.Pos, k.Move)
	return err
}
