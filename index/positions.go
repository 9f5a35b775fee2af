package index

import (
	"context"
	"database/sql"

	"github.com/plateau/plateau/index/internal/posrun"
)

// Queries on position occurrences (internal/posrun): the occurrences of a
// key are read from the runs in at order (game, ply, var) and joined with
// the games table in growing batches (posrun.Snapshot.Join).

// packAt is an occurrence's at (posrun.PackAt).
func packAt(game int64, ply, vari int) int64 { return posrun.PackAt(game, ply, vari) }

// joinGames walks it and calls fn, in at order, for each occurrence whose
// game matches cond (SQL over games g, players a and b) with that game's row
// as scanned by scan from the columns cols; fn returns false to stop
// (posrun.Snapshot.Join).
func joinGames(ctx context.Context, r *posrun.Snapshot, it *posrun.Iter, cond string, args []any, cols string,
	scan func(*sql.Rows) (int64, any, error), fn func(at int64, row any) bool) error {
	query := `SELECT g.id, ` + cols + ` FROM games g LEFT JOIN players a ON a.id = g.p0 LEFT JOIN players b ON b.id = g.p1
		WHERE g.id IN (SELECT value FROM json_each(?)) AND ` + cond
	return r.Join(ctx, it, query, args, scan, fn)
}

// positionKeys are the stored keys of a salted key: the tree aggregate's
// occurrences and the others.
func (db *DB) positionKeys(salted int64) []int64 { return db.pos.Keys(salted) }

// countOccurrences counts the occurrences of a salted key in games
// matching cond, up to limit+1. implied says that cond holds for every game
// with occurrences: the occurrences are then counted without reading the
// games, unless a deleted game may have left some behind (meta
// pos_deleted, reset by a merge of every run).
func (db *DB) countOccurrences(ctx context.Context, salted int64, cond string, args []any, limit int, implied bool) (int, error) {
	r, err := db.pos.Snapshot(ctx)
	if err != nil {
		return 0, err
	}
	defer r.Close()
	n := 0
	if implied {
		deleted, err := posrun.Deleted(ctx, r.Conn())
		if err != nil {
			return 0, err
		}
		if deleted == 0 {
			// The stored counts of the runs (posrun.Snapshot.Count): a
			// popular position's occurrences are not decoded.
			c, err := r.Count(ctx, db.positionKeys(salted)...)
			return int(min(c, int64(limit)+1)), err
		}
	}
	err = joinGames(ctx, r, r.Occurrences(ctx, db.positionKeys(salted)...), cond, args, `1`,
		func(rows *sql.Rows) (int64, any, error) {
			var id int64
			var one int
			err := rows.Scan(&id, &one)
			return id, nil, err
		},
		func(int64, any) bool {
			n++
			return n <= limit
		})
	return n, err
}

// positionGames lists the ids of the games (main lines or variations)
// with a salted key, in order.
func (db *DB) positionGames(ctx context.Context, salted int64) ([]int64, error) {
	r, err := db.pos.Snapshot(ctx)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	var ids []int64
	it := r.Occurrences(ctx, db.positionKeys(salted)...)
	for it.Next() {
		if g, _, _ := posrun.UnpackAt(it.At()); len(ids) == 0 || ids[len(ids)-1] != g {
			ids = append(ids, g)
		}
	}
	return ids, it.Err()
}

// ScanPositions calls fn for every stored occurrence of a position in a
// valid game (main lines and variations), in (stored key, at) order, with
// the salted key (the rules' key mixed with the ruleset). It reads the
// whole index: for tests and consistency checks.
func (db *DB) ScanPositions(ctx context.Context, fn func(key, game int64, ply, vari int) error) error {
	return db.pos.Scan(ctx, func(key, at int64) error {
		g, ply, v := posrun.UnpackAt(at)
		return fn(db.pos.Key(key, v == 0 && ply < TreeDepth), g, ply, v)
	})
}

// storedKey is the key under which an occurrence of a salted key at ply
// (vari 1 in a variation) is stored: the tree aggregate counts the main
// line's first TreeDepth plies (posrun.Store.Key).
func (db *DB) storedKey(salted int64, ply, vari int) int64 {
	return db.pos.Key(salted, vari == 0 && ply < TreeDepth)
}

// validGames reads the ids of the stored valid games (posrun's
// Config.Live: the games whose occurrences a merge keeps) from an index
// (SQLite scans the smallest that covers them), taking the invalid ones
// off (their partial index): reading "valid = 1" scanned the games table
// itself, row by row with its moves, in every merge (docs/storage.md).
func validGames(ctx context.Context, q posrun.Querier) (posrun.IDSet, error) {
	var maxID int64
	if err := q.QueryRowContext(ctx, `SELECT COALESCE(MAX(id), 0) FROM games`).Scan(&maxID); err != nil {
		return nil, err
	}
	s := posrun.NewIDSet(maxID)
	for _, query := range []string{`SELECT id FROM games`, `SELECT id FROM games WHERE valid = 0`} {
		invalid := query != `SELECT id FROM games`
		rows, err := q.QueryContext(ctx, query)
		if err != nil {
			return nil, err
		}
		for rows.Next() {
			var id int64
			if err := rows.Scan(&id); err != nil {
				rows.Close()
				return nil, err
			}
			if invalid {
				s.Remove(id)
			} else {
				s.Add(id)
			}
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, err
		}
	}
	return s, nil
}
