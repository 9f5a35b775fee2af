package faults

import (
	"context"
	"database/sql"
	"path/filepath"
	"reflect"
	"testing"

	_ "github.com/mattn/go-sqlite3"

	"github.com/plateau/plateau/replay"
)

// open returns a database with the tables the faults are read from (as
// index creates them, the columns read here) and these games: 1 valid
// with two warnings, 2 and 4 invalid by one rule, 3 invalid unreadable,
// 5 invalid without a source.
func open(t *testing.T) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite3", filepath.Join(t.TempDir(), "t.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	for _, q := range []string{
		`CREATE TABLE sources(id INTEGER PRIMARY KEY, path TEXT NOT NULL UNIQUE)`,
		`CREATE TABLE games(id INTEGER PRIMARY KEY, game TEXT NOT NULL, valid INTEGER NOT NULL,
			source INTEGER, line INTEGER,
			err TEXT, err_line INTEGER, err_col INTEGER, err_ply INTEGER, err_move TEXT, err_rule TEXT)`,
		`CREATE TABLE warnings(game INTEGER NOT NULL, kind TEXT NOT NULL, msg TEXT NOT NULL, line INTEGER)`,
		`INSERT INTO sources VALUES(1, 'a.pdn')`,
		`INSERT INTO games VALUES
			(1, 'dames', 1, 1, 1, NULL, NULL, NULL, NULL, NULL, NULL),
			(2, 'dames', 0, 1, 9, 'ply 3 "H28": illegal move "H28" (huff): no', 12, 5, 3, 'H28', 'huff'),
			(3, 'ogi', 0, 1, 20, 'a.pdn:21:3: ''{'' inside a comment', 21, 3, 0, NULL, NULL),
			(4, 'dames', 0, 1, 30, 'ply 1 "H2": illegal move "H2" (huff): no', 31, 1, 1, 'H2', 'huff'),
			(5, 'ogi', 0, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)`,
		`INSERT INTO warnings VALUES(1, 'result', 'the movetext ends with 1-0', 1), (1, 'ruleset', 'chosen: dames', NULL)`,
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	return db
}

func TestSummary(t *testing.T) {
	got, err := Summary(context.Background(), open(t))
	want := []Group{
		{Game: "dames", Reason: "illegal move (huff)", Games: 2, First: 2},
		{Game: "ogi", Reason: "'{' inside a comment", Games: 1, First: 3},
		{Game: "ogi", Reason: "unreadable record", Games: 1, First: 5},
	}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("Summary: %+v, %v; want %+v", got, err, want)
	}
}

func TestList(t *testing.T) {
	ctx := context.Background()
	db := open(t)
	got, total, err := List(ctx, db, 0, 0)
	if err != nil || total != 4 || len(got) != 4 {
		t.Fatalf("List: %d of %d, %v", len(got), total, err)
	}
	want := Entry{ID: 2, Game: "dames", File: "a.pdn", Line: 12, Col: 5, Ply: 3, Move: "H28", Rule: "huff",
		Err: `ply 3 "H28": illegal move "H28" (huff): no`, Record: 9}
	if got[0] != want {
		t.Errorf("first: %+v, want %+v", got[0], want)
	}
	if got[3] != (Entry{ID: 5, Game: "ogi"}) {
		t.Errorf("a game without source or message: %+v", got[3])
	}
	page, total, err := List(ctx, db, 2, 1)
	if err != nil || total != 4 || len(page) != 2 || page[0].ID != 3 || page[1].ID != 4 {
		t.Fatalf("List(2, 1): %+v of %d, %v", page, total, err)
	}
	errs, err := GameErrors(ctx, db, []int64{1, 3, 5, 9})
	wantErrs := map[int64]Entry{3: {ID: 3, Err: "a.pdn:21:3: '{' inside a comment", Line: 21}, 5: {ID: 5}}
	if err != nil || !reflect.DeepEqual(errs, wantErrs) {
		t.Fatalf("GameErrors: %+v, %v; want %+v", errs, err, wantErrs)
	}
	if errs, err := GameErrors(ctx, db, nil); err != nil || errs == nil || len(errs) != 0 {
		t.Fatalf("GameErrors of no game: %v, %v", errs, err)
	}
}

func TestWarnings(t *testing.T) {
	ctx := context.Background()
	db := open(t)
	all, total, err := Warnings(ctx, db, "", 0, 0)
	want := []Warning{
		{ID: 1, Game: "dames", File: "a.pdn", Line: 1, Kind: "result", Msg: "the movetext ends with 1-0"},
		{ID: 1, Game: "dames", File: "a.pdn", Kind: "ruleset", Msg: "chosen: dames"},
	}
	if err != nil || total != 2 || !reflect.DeepEqual(all, want) {
		t.Fatalf("Warnings: %+v of %d, %v", all, total, err)
	}
	kind, total, err := Warnings(ctx, db, "ruleset", 0, 0)
	if err != nil || total != 1 || !reflect.DeepEqual(kind, want[1:]) {
		t.Fatalf("Warnings(ruleset): %+v of %d, %v", kind, total, err)
	}
	page, total, err := Warnings(ctx, db, "", 1, 1)
	if err != nil || total != 2 || !reflect.DeepEqual(page, want[1:]) {
		t.Fatalf("Warnings(1, 1): %+v of %d, %v", page, total, err)
	}
	gw, err := GameWarnings(ctx, db, []int64{1, 2})
	wantGW := map[int64][]string{1: {"result: the movetext ends with 1-0", "ruleset: chosen: dames"}}
	if err != nil || !reflect.DeepEqual(gw, wantGW) {
		t.Fatalf("GameWarnings: %v, %v", gw, err)
	}
	st, err := Stored(ctx, db, 1)
	wantSt := []replay.JSONWarning{{Kind: "result", Text: "the movetext ends with 1-0", Line: 1}, {Kind: "ruleset", Text: "chosen: dames"}}
	if err != nil || !reflect.DeepEqual(st, wantSt) {
		t.Fatalf("Stored: %+v, %v", st, err)
	}
	if st, err := Stored(ctx, db, 2); err != nil || st == nil || len(st) != 0 {
		t.Fatalf("Stored of a game without warnings: %#v, %v (want an empty list, not null)", st, err)
	}
}
