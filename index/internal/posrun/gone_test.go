package posrun

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"testing"
)

// goneFixture is TestGone's database and its steps.
type goneFixture struct {
	t   *testing.T
	ctx context.Context
	db  *testDB
}

// lookup lists the games of the occurrences of key, in order.
func (f goneFixture) lookup(key int64) string {
	r, err := f.db.Snapshot(f.ctx)
	if err != nil {
		f.t.Fatal(err)
	}
	defer r.Close()
	var games []int64
	it := r.Occurrences(f.ctx, key)
	for it.Next() {
		g, _, _ := UnpackAt(it.At())
		games = append(games, g)
	}
	if it.Err() != nil {
		f.t.Fatal(it.Err())
	}
	return fmt.Sprint(games)
}

// replace stores a game again: its occurrences old become cur.
func (f goneFixture) replace(old, cur []Pos) {
	f.t.Helper()
	tx, err := f.db.sql.BeginTx(f.ctx, nil)
	if err != nil {
		f.t.Fatal(err)
	}
	fresh, err := Replace(f.ctx, tx, old, cur)
	if err == nil && len(fresh) > 0 {
		err = Write(f.ctx, tx, fresh)
	}
	if err == nil {
		err = tx.Commit()
	}
	if err != nil {
		f.t.Fatal(err)
	}
}

// check compares the games found at keys with want.
func (f goneFixture) check(stage string, want map[int64]string) {
	f.t.Helper()
	for key, w := range want {
		if got := f.lookup(key); got != w {
			f.t.Errorf("%s: key %d in games %s, want %s", stage, key, got, w)
		}
	}
}

// count is the rows of a table.
func (f goneFixture) count(table string) int {
	var n int
	f.db.sql.QueryRow(`SELECT COUNT(*) FROM ` + table).Scan(&n)
	return n
}

// TestGone: a game stored again with other occurrences (Replace) is found
// under its new ones only; an occurrence made true again is found again;
// Scan agrees; a compaction of every run drops the gone ones and empties
// the list.
func TestGone(t *testing.T) {
	ctx := context.Background()
	f := goneFixture{t, ctx, openTemp(t)}
	addGames(t, f.db, 3, func(int64) bool { return true })
	at := func(g int64, ply int) int64 { return PackAt(g, ply, 0) }
	// Version 1 of every game: keys 10, 11, 12 at plies 0–2.
	gameV1 := func(g int64) []Pos { return []Pos{{10, at(g, 0)}, {11, at(g, 1)}, {12, at(g, 2)}} }
	commitRun(t, f.db, slices.Concat(gameV1(1), gameV1(2), gameV1(3)))
	// Game 2 now reaches key 20 at ply 2 instead of 12 (its ply-1
	// occurrence given twice: a set).
	gameV2 := []Pos{{10, at(2, 0)}, {11, at(2, 1)}, {11, at(2, 1)}, {20, at(2, 2)}}
	f.replace(gameV1(2), gameV2)
	f.check("after the edit", map[int64]string{10: "[1 2 3]", 11: "[1 2 3]", 12: "[1 3]", 20: "[2]"})
	if n := f.count("pos_runs"); n != 2 {
		t.Errorf("%d runs: the edit's run should hold only its new occurrence", n)
	}
	// The edit undone: key 12 is true of game 2 again.
	f.replace(gameV2, gameV1(2))
	f.check("undone", map[int64]string{12: "[1 2 3]", 20: "[]"})
	// Game 3 loses every occurrence (it became invalid).
	f.replace(gameV1(3), nil)
	f.check("game 3 gone", map[int64]string{10: "[1 2]", 11: "[1 2]", 12: "[1 2]", 20: "[]"})
	if n := f.count("pos_gone"); n != 4 { // game 2's key 20, game 3's three
		t.Errorf("%d gone occurrences listed, want 4", n)
	}
	if got, want := fmt.Sprint(sortPos(scanAll(t, f.db))), fmt.Sprint(sortPos(slices.Concat(gameV1(1), gameV1(2)))); got != want {
		t.Errorf("Scan %s, want %s", got, want)
	}
	st, err := f.db.Compact(ctx, nil)
	if err != nil || st.Runs != 3 || st.Occurrences != 6 {
		t.Fatalf("compaction: %+v %v; want 3 runs merged into 6 occurrences", st, err)
	}
	if n := f.count("pos_gone"); n != 0 {
		t.Errorf("%d gone occurrences listed after a merge of every run", n)
	}
	f.check("compacted", map[int64]string{10: "[1 2]", 11: "[1 2]", 12: "[1 2]", 20: "[]"})
	// A game made valid again after the compaction is found again.
	f.replace(nil, gameV1(3))
	f.check("game 3 back", map[int64]string{10: "[1 2 3]", 12: "[1 2 3]"})
	checkRuns(t, f.db, "end")
}

// sortPos sorts occurrences in (key, at) order.
func sortPos(ps []Pos) []Pos {
	slices.SortFunc(ps, func(a, b Pos) int {
		if a.Key != b.Key {
			return cmp.Compare(a.Key, b.Key)
		}
		return cmp.Compare(a.At, b.At)
	})
	return ps
}

// TestGoneMergeLevels: a merge of a level in one transaction drops the
// gone occurrences and, having merged every run, empties their list.
func TestGoneMergeLevels(t *testing.T) {
	ctx := context.Background()
	f := goneFixture{t, ctx, openTemp(t)}
	addGames(t, f.db, 9, func(int64) bool { return true })
	old := []Pos{{10, PackAt(1, 0, 0)}, {11, PackAt(1, 1, 0)}}
	commitRun(t, f.db, old)
	f.replace(old, []Pos{{10, PackAt(1, 0, 0)}, {21, PackAt(1, 1, 0)}})
	for g := int64(3); f.count("pos_runs") < MaxRunsPerLevel; g++ {
		commitRun(t, f.db, []Pos{{11, PackAt(g, 1, 0)}})
	}
	if err := f.db.MergeLevels(ctx, 0); err != nil {
		t.Fatal(err)
	}
	if runs, gone := f.count("pos_runs"), f.count("pos_gone"); runs != 1 || gone != 0 {
		t.Errorf("after the merge: %d runs, %d gone occurrences listed", runs, gone)
	}
	f.check("merged", map[int64]string{10: "[1]", 11: "[3 4 5 6 7 8]", 21: "[1]"})
}
