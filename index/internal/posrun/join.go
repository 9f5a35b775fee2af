package posrun

import (
	"context"
	"database/sql"
	"strconv"
)

// joinBatch is the first batch of occurrences Join reads the games of;
// later batches double up to maxJoinBatch, so that a page of a popular
// position (the start position is in every game) reads a few blocks and
// a few games, not every occurrence.
const (
	joinBatch    = 64
	maxJoinBatch = 4096
)

// Join walks it and calls fn, in at order, for each occurrence whose game
// has a row: query, run on the snapshot's connection, selects the rows of
// a batch of games, its first parameter the JSON array of their ids (for
// json_each) and args the others; scan reads a row's game id and value.
// fn returns false to stop. The snapshot's statements run under the quiet
// context (Quiet); Join checks ctx between batches.
func (r *Snapshot) Join(ctx context.Context, it *Iter, query string, args []any,
	scan func(*sql.Rows) (int64, any, error), fn func(at int64, row any) bool) error {
	stmt, err := r.Stmt(Quiet(ctx), query)
	if err != nil {
		return err
	}
	j := joiner{stmt: stmt, args: args, scan: scan, rowOf: map[int64]any{},
		ats: make([]int64, 0, maxJoinBatch), ids: make([]byte, 0, 16*maxJoinBatch)}
	for size := joinBatch; ; size = min(2*size, maxJoinBatch) {
		j.ats = j.ats[:0]
		for len(j.ats) < size && it.Next() {
			j.ats = append(j.ats, it.At())
		}
		if err := it.Err(); err != nil {
			return err
		}
		if len(j.ats) == 0 {
			return nil
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := j.read(Quiet(ctx)); err != nil {
			return err
		}
		for _, at := range j.ats {
			g, _, _ := UnpackAt(at)
			if row, ok := j.rowOf[g]; ok && !fn(at, row) {
				return nil
			}
		}
	}
}

// joiner is Join's batch: its occurrences, their games' ids and rows.
type joiner struct {
	stmt  *sql.Stmt
	args  []any
	scan  func(*sql.Rows) (int64, any, error)
	ats   []int64
	ids   []byte // the JSON array of the games of ats
	rowOf map[int64]any
}

// read reads the rows of the games of the batch's occurrences.
func (j *joiner) read(ctx context.Context) error {
	j.ids = append(j.ids[:0], '[')
	prev := int64(-1)
	for _, at := range j.ats {
		g, _, _ := UnpackAt(at)
		if g == prev {
			continue
		}
		if prev >= 0 {
			j.ids = append(j.ids, ',')
		}
		j.ids = strconv.AppendInt(j.ids, g, 10)
		prev = g
	}
	j.ids = append(j.ids, ']')
	clear(j.rowOf)
	rows, err := j.stmt.QueryContext(ctx, append([]any{string(j.ids)}, j.args...)...)
	if err != nil {
		return err
	}
	for rows.Next() {
		id, row, err := j.scan(rows)
		if err != nil {
			rows.Close()
			return err
		}
		j.rowOf[id] = row
	}
	rows.Close()
	return rows.Err()
}
