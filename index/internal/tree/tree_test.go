package tree

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/binary"
	"errors"
	"io"
	"path/filepath"
	"reflect"
	"testing"

	_ "github.com/mattn/go-sqlite3"

	"github.com/plateau/plateau/index/internal/gamerows"
	"github.com/plateau/plateau/index/internal/movelist"
	"github.com/plateau/plateau/index/internal/posrun"
	"github.com/plateau/plateau/record"
	"github.com/plateau/plateau/replay"
	"github.com/plateau/plateau/replay/generate"
	"github.com/plateau/plateau/rules"
	_ "github.com/plateau/plateau/rules/all"
)

// testTables are the tables a tree reads (as the database makes them,
// with the columns the tree reads).
var testTables = []string{
	`CREATE TABLE meta(k TEXT PRIMARY KEY, v) WITHOUT ROWID`,
	`CREATE TABLE players(id INTEGER PRIMARY KEY, name TEXT NOT NULL)`,
	`CREATE TABLE games(id INTEGER PRIMARY KEY, valid INTEGER NOT NULL, plies INTEGER, result TEXT, date TEXT,
		p0 INTEGER, p1 INTEGER, moves BLOB, fen TEXT)`,
	`CREATE TABLE tree(key INTEGER NOT NULL, move TEXT NOT NULL,
		n INTEGER NOT NULL, scored INTEGER NOT NULL, s0 REAL NOT NULL, s1 REAL NOT NULL,
		first TEXT NOT NULL, last TEXT NOT NULL, np INTEGER NOT NULL, top BLOB,
		w0 INTEGER NOT NULL DEFAULT 0, w1 INTEGER NOT NULL DEFAULT 0,
		PRIMARY KEY(key, move)) WITHOUT ROWID`,
}

// testGames are two generated Ōgi games, replayed.
func testGames(t *testing.T) (rules.Game, []*replay.Game) {
	t.Helper()
	g, err := rules.Lookup("ogi")
	if err != nil {
		t.Fatal(err)
	}
	gen, err := generate.New(g, 5)
	if err != nil {
		t.Fatal(err)
	}
	var text bytes.Buffer
	if _, err := gen.Write(context.Background(), &text, 2, generate.Options{}); err != nil {
		t.Fatal(err)
	}
	var out []*replay.Game
	r := record.NewReader(&text, "ogi")
	for {
		rec, err := r.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		rg := replay.Replay(rec, replay.Options{})
		if rg.Err != nil || len(rg.Main) <= gamerows.TreeDepth+2 {
			t.Fatalf("generated game: %v, %d plies", rg.Err, len(rg.Main))
		}
		out = append(out, rg)
	}
	if len(out) != 2 || out[0].Main[9].Text == out[1].Main[9].Text {
		t.Fatal("want two games of different 10th moves")
	}
	return g, out
}

func exec(t *testing.T, db *sql.DB, query string, args ...any) {
	t.Helper()
	if _, err := db.Exec(query, args...); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
}

// top is a tree row's top blob: (player, count) uvarint pairs.
func top(pairs ...uint64) []byte {
	var b []byte
	for _, v := range pairs {
		b = binary.AppendUvarint(b, v)
	}
	return b
}

// testDB is a database of the tables a tree reads with its position runs.
func testDB(t *testing.T) (*sql.DB, *posrun.Store) {
	t.Helper()
	ctx := context.Background()
	dir := t.TempDir()
	db, err := sql.Open("sqlite3", filepath.Join(dir, "tree.sqlite"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	for _, q := range append(testTables, posrun.Tables...) {
		exec(t, db, q)
	}
	if err := posrun.Create(ctx, db); err != nil {
		t.Fatal(err)
	}
	store, err := posrun.Open(ctx, db, posrun.Config{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(store.Close)
	return db, store
}

// writeRun stores ps as a run.
func writeRun(t *testing.T, db *sql.DB, ps []posrun.Pos) {
	t.Helper()
	tx, err := db.Begin()
	if err != nil {
		t.Fatal(err)
	}
	if err := posrun.Write(context.Background(), tx, ps); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
}

// TestRead: a tree adds the aggregate's rows (their top players named) and
// the deeper main-line occurrences read from their games' move lists,
// merges the two for a move (games, points, wins), keeps three players,
// and sorts the moves; without the aggregate's wins (an older layout),
// the moves it counts have their wins unknown.
func TestRead(t *testing.T) {
	ctx := context.Background()
	db, store := testDB(t)
	g, games := testGames(t)
	a, b := games[0], games[1]
	m1, m3 := a.Main[9].Text, b.Main[9].Text
	exec(t, db, `INSERT INTO players VALUES (1, 'Ann'), (2, 'Bob'), (3, 'Cid'), (4, 'Dee'), (5, 'Eve'), (6, 'Fay')`)
	for _, row := range [][]any{
		{1, len(a.Main), "1-0", "2026.07.01", 6, 2, movelist.Encode(a.Main)},
		{2, len(a.Main), "0-1", "2025.01.01", 6, 3, movelist.Encode(a.Main)},
		{3, len(b.Main), "*", nil, 6, 4, movelist.Encode(b.Main)},
		{4, len(a.Main), "1-0", "2026", 6, 5, []byte{0xff, 0xff}}, // moves that cannot be read
	} {
		exec(t, db, `INSERT INTO games VALUES (?, 1, ?, ?, ?, ?, ?, ?, NULL)`, row...)
	}
	const key = 12345
	exec(t, db, `INSERT INTO tree VALUES (?, ?, 5, 4, 2.5, 1.5, '2020.01.01', '2021.??.??', 3, ?, 2, 1)`, key, m1, top(1, 3, 2, 2, 5, 1))
	exec(t, db, `INSERT INTO tree VALUES (?, 'zz', 1, 0, 0, 0, '', '', 0, NULL, 0, 0)`, key)
	exec(t, db, `INSERT INTO tree VALUES (?, 'other key', 1, 0, 0, 0, '', '', 0, NULL, 0, 0)`, key+1)
	deep := store.Key(key, false)
	writeRun(t, db, []posrun.Pos{
		{Key: deep, At: posrun.PackAt(1, 9, 0)},
		{Key: deep, At: posrun.PackAt(2, 9, 0)},
		{Key: deep, At: posrun.PackAt(3, 9, 0)},
		{Key: deep, At: posrun.PackAt(1, 3, 0)},                 // counted by the aggregate
		{Key: deep, At: posrun.PackAt(2, 9, 1)},                 // in a variation
		{Key: deep, At: posrun.PackAt(3, len(b.Main), 0)},       // the final position: no move
		{Key: deep, At: posrun.PackAt(4, 9, 0)},                 // moves that cannot be read
		{Key: deep, At: posrun.PackAt(9, 9, 0)},                 // a game gone
		{Key: store.Key(key, true), At: posrun.PackAt(3, 9, 0)}, // the aggregate's own key
	})

	r, err := store.Snapshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	got, err := Read(ctx, r, g, key, deep, 1, 0, true, 8) // no huff: the rules' key is not read
	if err != nil {
		t.Fatal(err)
	}
	want := []Move{
		{Move: m1, Games: 7, Scored: 6, Score: [2]float64{3.5, 2.5}, Wins: [2]int{3, 2}, First: "2020.01.01", Last: "2026.07.01",
			Top: []PlayerCount{{"Ann", 3}, {"Bob", 3}, {"Cid", 1}}},
		{Move: m3, Games: 1, Top: []PlayerCount{{"Dee", 1}}},
		{Move: "zz", Games: 1},
	}
	if m3 > "zz" {
		t.Fatalf("move %q sorts after zz", m3)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("tree\n%+v\nwant\n%+v", got, want)
	}

	got, err = Read(ctx, r, g, key, deep, 1, 0, false, 8)
	if err != nil {
		t.Fatal(err)
	}
	want[0].Wins, want[0].WinsUnknown = [2]int{1, 1}, true // the deep games' only
	want[2].WinsUnknown = true
	if !reflect.DeepEqual(got, want) {
		t.Errorf("tree without the aggregate's wins\n%+v\nwant\n%+v", got, want)
	}

	// An aggregate of 10 plies counts the occurrences at ply 9: the tree
	// is its rows alone.
	got, err = Read(ctx, r, g, key, deep, 1, 0, true, 10)
	if err != nil {
		t.Fatal(err)
	}
	want = []Move{
		{Move: m1, Games: 5, Scored: 4, Score: [2]float64{2.5, 1.5}, Wins: [2]int{2, 1}, First: "2020.01.01", Last: "2021.??.??",
			Top: []PlayerCount{{"Ann", 3}, {"Bob", 2}, {"Eve", 1}}},
		{Move: "zz", Games: 1},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("tree of a 10-ply aggregate\n%+v\nwant\n%+v", got, want)
	}
}
