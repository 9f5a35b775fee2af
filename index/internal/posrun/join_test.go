package posrun

import (
	"context"
	"database/sql"
	"errors"
	"reflect"
	"testing"
)

// TestJoin: the occurrences of a key whose game has a row, in at order,
// with that row, over batches that grow past the first; fn stops it, and
// an ended context ends it between batches.
func TestJoin(t *testing.T) {
	ctx := context.Background()
	db := openTemp(t)
	const games = 3000 // past maxJoinBatch occurrences
	addGames(t, db, games, func(int64) bool { return true })
	var ps []Pos
	var want []int64
	for g := int64(1); g <= games; g++ {
		for ply := range 2 {
			ps = append(ps, Pos{42, PackAt(g, ply, 0)}, Pos{43, PackAt(g, ply, 1)})
			if g%3 == 0 {
				want = append(want, PackAt(g, ply, 0))
			}
		}
	}
	sortPositions(ps, nil)
	commitRun(t, db, ps)
	const query = `SELECT id, id * 10 FROM games WHERE id IN (SELECT value FROM json_each(?)) AND id % ? = 0`
	scan := func(rows *sql.Rows) (int64, any, error) {
		var id, v int64
		err := rows.Scan(&id, &v)
		return id, v, err
	}
	join := func(ctx context.Context, fn func(at int64, row any) bool) error {
		r, err := db.Snapshot(ctx)
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		return r.Join(ctx, r.Occurrences(ctx, 42), query, []any{3}, scan, fn)
	}
	var got []int64
	err := join(ctx, func(at int64, row any) bool {
		if g, _, _ := UnpackAt(at); row.(int64) != 10*g {
			t.Fatalf("game %d joined with row %v", g, row)
		}
		got = append(got, at)
		return true
	})
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("joined %d occurrences (%v), want %d", len(got), err, len(want))
	}
	n := 0
	if err := join(ctx, func(int64, any) bool { n++; return n < 5 }); err != nil || n != 5 {
		t.Errorf("stopped at 5: %d calls, %v", n, err)
	}
	cctx, cancel := context.WithCancel(ctx)
	defer cancel()
	n = 0
	err = join(cctx, func(int64, any) bool { n++; cancel(); return true })
	if !errors.Is(err, context.Canceled) || n > joinBatch {
		t.Errorf("cancelled in the first batch: %d calls, %v", n, err)
	}
}
