package index

import (
	"context"
	"database/sql"
	"strconv"
)

// Queries on position occurrences (posruns.go): the occurrences of a key
// are read from the runs in at order (game, ply, var) and joined with the
// games table in batches, so that a page of a popular position (the start
// position is in every game) reads a few blocks and a few games, not every
// occurrence.

// joinBatch is the first batch of occurrences joined with the games
// table; later batches double up to maxJoinBatch.
const (
	joinBatch    = 64
	maxJoinBatch = 4096
)

// joinGames walks it and calls fn, in at order, for each occurrence whose
// game matches cond (SQL over games g, players a and b) with that game's row
// as scanned by scan from the columns cols; fn returns false to stop.
func (r *posReader) joinGames(ctx context.Context, it *occIter, cond string, args []any, cols string,
	scan func(*sql.Rows) (int64, any, error), fn func(at int64, row any) bool) error {
	query := `SELECT g.id, ` + cols + ` FROM games g LEFT JOIN players a ON a.id = g.p0 LEFT JOIN players b ON b.id = g.p1
		WHERE g.id IN (SELECT value FROM json_each(?)) AND ` + cond
	done := ctx
	ctx = quiet(ctx) // occurrences: the loop checks done
	stmt, err := r.stmt(ctx, query)
	if err != nil {
		return err
	}
	size := joinBatch
	ats := make([]int64, 0, maxJoinBatch)
	ids := make([]byte, 0, 16*maxJoinBatch)
	rowOf := map[int64]any{}
	for {
		ats = ats[:0]
		for len(ats) < size && it.next() {
			ats = append(ats, it.at)
		}
		if it.err != nil {
			return it.err
		}
		if len(ats) == 0 {
			return nil
		}
		if err := done.Err(); err != nil {
			return err
		}
		ids = append(ids[:0], '[')
		prev := int64(-1)
		for _, at := range ats {
			g, _, _ := unpackAt(at)
			if g == prev {
				continue
			}
			if prev >= 0 {
				ids = append(ids, ',')
			}
			ids = strconv.AppendInt(ids, g, 10)
			prev = g
		}
		ids = append(ids, ']')
		clear(rowOf)
		rows, err := stmt.QueryContext(ctx, append([]any{string(ids)}, args...)...)
		if err != nil {
			return err
		}
		for rows.Next() {
			id, row, err := scan(rows)
			if err != nil {
				rows.Close()
				return err
			}
			rowOf[id] = row
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		for _, at := range ats {
			g, _, _ := unpackAt(at)
			if row, ok := rowOf[g]; ok && !fn(at, row) {
				return nil
			}
		}
		size = min(2*size, maxJoinBatch)
	}
}

// positionKeys are the stored keys of a salted key: the tree aggregate's
// occurrences and the others.
func (db *DB) positionKeys(salted int64) []int64 { return []int64{salted, salted ^ db.deepSalt} }

// countOccurrences counts the occurrences of a salted key in games
// matching cond, up to limit+1. implied says that cond holds for every game
// with occurrences: the occurrences are then counted without reading the
// games, unless a deleted game may have left some behind (meta
// pos_deleted, reset by a merge of every run).
func (db *DB) countOccurrences(ctx context.Context, salted int64, cond string, args []any, limit int, implied bool) (int, error) {
	r, err := openPosReader(ctx, db)
	if err != nil {
		return 0, err
	}
	defer r.close()
	n := 0
	if implied {
		deleted, err := db.metaInt(ctx, r.q, posDeletedKey)
		if err != nil {
			return 0, err
		}
		if deleted == 0 {
			it := r.occurrences(ctx, db.positionKeys(salted)...)
			for n <= limit && it.next() {
				n++
			}
			return n, it.err
		}
	}
	err = r.joinGames(ctx, r.occurrences(ctx, db.positionKeys(salted)...), cond, args, `1`,
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
	r, err := openPosReader(ctx, db)
	if err != nil {
		return nil, err
	}
	defer r.close()
	var ids []int64
	it := r.occurrences(ctx, db.positionKeys(salted)...)
	for it.next() {
		if g, _, _ := unpackAt(it.at); len(ids) == 0 || ids[len(ids)-1] != g {
			ids = append(ids, g)
		}
	}
	return ids, it.err
}
