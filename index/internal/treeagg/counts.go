package treeagg

import (
	"context"
	"database/sql"
	"fmt"
)

// Querier reads.
type Querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

// Counts reads every player count of every tree move through q: from the
// chunks of the moves that have some, from top for the others; it fails
// when a move's np is not its number of players, or a move of at most
// TopLen players has chunks. For consistency checks and tests.
func Counts(ctx context.Context, q Querier) (map[Key][]Count, error) {
	all := map[Key][]Count{}
	rows, err := q.QueryContext(ctx, `SELECT key, move, chunk, data FROM tree_players ORDER BY key, move, chunk`)
	if err != nil {
		return nil, err
	}
	for rows.Next() {
		var k Key
		var c int64
		var b []byte
		if err := rows.Scan(&k.Pos, &k.Move, &c, &b); err != nil {
			rows.Close()
			return nil, err
		}
		es, err := decodeChunk(nil, c, b)
		if err != nil {
			rows.Close()
			return nil, err
		}
		if len(es) == 0 {
			rows.Close()
			return nil, fmt.Errorf("%d %s: empty chunk %d", k.Pos, k.Move, c)
		}
		all[k] = append(all[k], es...)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	rows, err = q.QueryContext(ctx, `SELECT key, move, np, top FROM tree`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var k Key
		var np int64
		var blob []byte
		if err := rows.Scan(&k.Pos, &k.Move, &np, &blob); err != nil {
			return nil, err
		}
		if np <= TopLen {
			if _, ok := all[k]; ok {
				return nil, fmt.Errorf("%d %s: %d players and chunks", k.Pos, k.Move, np)
			}
			if all[k], err = DecodeTop(nil, blob); err != nil {
				return nil, err
			}
		}
		if int64(len(all[k])) != np {
			return nil, fmt.Errorf("%d %s: np %d, %d players", k.Pos, k.Move, np, len(all[k]))
		}
	}
	return all, rows.Err()
}
