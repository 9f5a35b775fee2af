package stats

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	_ "github.com/mattn/go-sqlite3"
)

// open returns a database of the tables counted, in dir/t.sqlite, with
// games 1-3 (ogi: two valid of 10 and 20 plies, one invalid) and 4
// (sauts, valid, 5 plies).
func open(t *testing.T, dir string) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite3", filepath.Join(dir, "t.sqlite"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	for _, q := range []string{
		`CREATE TABLE meta(k TEXT PRIMARY KEY, v) WITHOUT ROWID`,
		`CREATE TABLE games(id INTEGER PRIMARY KEY, game TEXT NOT NULL, valid INTEGER NOT NULL, plies INTEGER NOT NULL)`,
		`CREATE TABLE players(id INTEGER PRIMARY KEY)`,
		`CREATE TABLE sources(id INTEGER PRIMARY KEY, size INTEGER)`,
		`INSERT INTO games VALUES(1, 'ogi', 1, 10), (2, 'ogi', 0, 3), (3, 'ogi', 1, 20), (4, 'sauts', 1, 5)`,
		`INSERT INTO players VALUES(1), (2), (3)`,
		`INSERT INTO sources VALUES(1, 100), (2, 23)`,
		`INSERT INTO meta VALUES('text_hw', 3)`,
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	return db
}

// TestGameCounts: the counts are the rows' without stored counts; with
// them, the stored ones plus the games after, until an edit is made.
func TestGameCounts(t *testing.T) {
	ctx := context.Background()
	db := open(t, t.TempDir())
	exec := func(q string) {
		t.Helper()
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	check := func(when string, want Counts) {
		t.Helper()
		got, err := GameCounts(ctx, db, "edits")
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Fatalf("%s: %+v, %v; want %+v", when, got, err, want)
		}
	}
	all := []GameCount{{Game: "ogi", Valid: 2, Invalid: 1, Plies: 30}, {Game: "sauts", Valid: 1, Plies: 5}}
	check("nothing stored", Counts{Last: 4, Games: all})
	if err := StoreCounts(ctx, db, "edits"); err != nil {
		t.Fatal(err)
	}
	var blob string
	db.QueryRow(`SELECT v FROM meta WHERE k = 'counts'`).Scan(&blob)
	if !strings.Contains(blob, `"last":4`) || !strings.Contains(blob, `{"Game":"sauts","Valid":1,"Invalid":0,"Plies":5}`) {
		t.Fatalf("stored: %s", blob)
	}
	// Stored counts made wrong on purpose show through: the games up to
	// last are not counted again; a game after is.
	exec(`UPDATE meta SET v = replace(v, '"Valid":1,', '"Valid":7,') WHERE k = 'counts'`)
	exec(`INSERT INTO games VALUES(5, 'dames', 0, 0), (6, 'sauts', 1, 1)`)
	check("stored, and games after", Counts{Last: 6, Games: []GameCount{
		{Game: "dames", Invalid: 1}, {Game: "ogi", Valid: 2, Invalid: 1, Plies: 30}, {Game: "sauts", Valid: 8, Plies: 6}}})
	// An edit since: every game is counted again.
	exec(`DELETE FROM games WHERE id = 5`)
	exec(`INSERT INTO meta VALUES('edits', 1)`)
	check("after an edit", Counts{Last: 6, Edits: 1, Games: []GameCount{
		{Game: "ogi", Valid: 2, Invalid: 1, Plies: 30}, {Game: "sauts", Valid: 2, Plies: 6}}})
	// Stored counts past the last game (the last games deleted without an
	// edit counted) are not used.
	exec(`UPDATE meta SET v = '{"last":99,"edits":1,"games":[]}' WHERE k = 'counts'`)
	check("stored counts past the last game", Counts{Last: 6, Edits: 1, Games: []GameCount{
		{Game: "ogi", Valid: 2, Invalid: 1, Plies: 30}, {Game: "sauts", Valid: 2, Plies: 6}}})
}

func TestDescribe(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	db := open(t, dir)
	text := filepath.Join(dir, "text.bleve")
	if err := os.MkdirAll(filepath.Join(text, "store"), 0o755); err != nil {
		t.Fatal(err)
	}
	for name, size := range map[string]int{"text.bleve/a": 7, "text.bleve/store/b": 5, "t.sqlite.old": 11, "other": 13} {
		if err := os.WriteFile(filepath.Join(dir, name), make([]byte, size), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	in, err := Describe(ctx, db, Files{Dir: dir, SQLite: "t.sqlite", Text: text}, "edits")
	if err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(filepath.Join(dir, "t.sqlite"))
	if err != nil {
		t.Fatal(err)
	}
	want := Info{Dir: dir, Games: []GameCount{{Game: "ogi", Valid: 2, Invalid: 1, Plies: 30}, {Game: "sauts", Valid: 1, Plies: 5}},
		Players: 3, Sources: 2, SourceBytes: 123, SQLiteBytes: fi.Size() + 11, TextBytes: 12, TextIndexed: 3}
	if !reflect.DeepEqual(in, want) {
		t.Fatalf("Describe: %+v, want %+v", in, want)
	}
	if got := DirSize(dir, nil); got != fi.Size()+11+12+13 {
		t.Errorf("DirSize: %d, want %d", got, fi.Size()+11+12+13)
	}
	if _, err := db.Exec(`DROP TABLE players`); err != nil {
		t.Fatal(err)
	}
	if in, err := Describe(ctx, db, Files{Dir: dir}, "edits"); err == nil || !reflect.DeepEqual(in, Info{Dir: dir}) {
		t.Fatalf("without a players table: %+v, %v; want an error and the Dir only", in, err)
	}
}

// TestReplaced: stored counts right before an edit of one game are moved
// with it and labelled with the edit, so that they equal a full count;
// counts that were stale, or made before the game, are left alone.
func TestReplaced(t *testing.T) {
	ctx := context.Background()
	db := open(t, t.TempDir())
	if err := StoreCounts(ctx, db, "edits"); err != nil {
		t.Fatal(err)
	}
	stored := func() string {
		var v string
		db.QueryRow(`SELECT v FROM meta WHERE k = 'counts'`).Scan(&v)
		return v
	}
	// An edit: game 4 (sauts, valid, 5 plies) becomes an invalid dames game.
	edit := func(id int64, before, after Game, q string) {
		t.Helper()
		for _, q := range []string{q, `INSERT INTO meta(k, v) VALUES('edits', 1) ON CONFLICT(k) DO UPDATE SET v = v + 1`} {
			if _, err := db.Exec(q); err != nil {
				t.Fatal(err)
			}
		}
		if err := Replaced(ctx, db, "edits", id, before, after); err != nil {
			t.Fatal(err)
		}
	}
	edit(4, Game{"sauts", true, 5}, Game{"dames", false, 2}, `UPDATE games SET game = 'dames', valid = 0, plies = 2 WHERE id = 4`)
	want := `{"last":4,"edits":1,"games":[{"Game":"dames","Valid":0,"Invalid":1,"Plies":0},{"Game":"ogi","Valid":2,"Invalid":1,"Plies":30}]}`
	if got := stored(); got != want {
		t.Errorf("after the edit: %s\nwant %s", got, want)
	}
	full, err := addCounts(ctx, db, nil, 0, 4)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := GameCounts(ctx, db, "edits"); err != nil || !reflect.DeepEqual(got.Games, full) {
		t.Errorf("counts %+v (%v), a full count %+v", got.Games, err, full)
	}
	// Stale counts (an edit not told) are left to be counted again.
	if _, err := db.Exec(`UPDATE meta SET v = v + 1 WHERE k = 'edits'`); err != nil {
		t.Fatal(err)
	}
	edit(1, Game{"ogi", true, 10}, Game{"ogi", true, 12}, `UPDATE games SET plies = 12 WHERE id = 1`)
	if got := stored(); got != want {
		t.Errorf("stale counts were moved: %s", got)
	}
}
