package index_test

import (
	"context"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/plateau/plateau/index"
	"github.com/plateau/plateau/record"
	"github.com/plateau/plateau/rules"

	_ "github.com/plateau/plateau/rules/ogi"
)

// TestTagSearch compares tag criteria with the records' own tags, in a
// database of two rulesets: player tags (answered from the players
// columns) and other tags (the tags table), with and without a ruleset.
func TestTagSearch(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	texts := map[string][]byte{"ogi": genText(t, "ogi", 60, 4), "draughts": genText(t, "draughts", 60, 5)}
	var files []string
	var recs []*record.Game
	for _, g := range []string{"ogi", "draughts"} {
		files = append(files, writeFile(t, dir, g+".pdn", texts[g]))
		recs = append(recs, readAll(t, texts[g])...)
	}
	db := openDB(t, filepath.Join(dir, "db"))
	if _, err := importFiles(ctx, db, files, index.ImportOptions{}); err != nil {
		t.Fatal(err)
	}
	count := func(game string, tag record.Tag) int {
		n := 0
		for _, r := range recs {
			g, err := rules.Lookup(r.Tag("Game"))
			if err != nil {
				t.Fatal(err)
			}
			if (game == "" || g.ID() == game) && r.Tag(tag.Name) == tag.Value {
				n++
			}
		}
		return n
	}
	tags := []record.Tag{
		{Name: "Sente", Value: recs[0].Tag("Sente")},
		{Name: "Gote", Value: recs[1].Tag("Gote")},
		{Name: "White", Value: recs[60].Tag("White")},
		{Name: "Black", Value: recs[61].Tag("Black")},
		{Name: "Round", Value: recs[2].Tag("Round")},
		{Name: "Round", Value: recs[62].Tag("Round")},
	}
	for _, tag := range tags {
		if tag.Value == "" {
			t.Fatalf("generated records have no %s tag", tag.Name)
		}
		for _, game := range []string{"", "ogi", "draughts"} {
			want := count(game, tag)
			if game == "" && want == 0 {
				t.Fatalf("no record has %s=%q", tag.Name, tag.Value)
			}
			res, err := db.Search(ctx, index.Query{Game: game, Tags: []record.Tag{tag}, Limit: -1, Count: true})
			if err != nil {
				t.Fatal(err)
			}
			if res.Total != want || len(res.Hits) != want {
				t.Errorf("%s=%q in %q: %d games (%d hits), want %d", tag.Name, tag.Value, game, res.Total, len(res.Hits), want)
			}
		}
	}
}

// TestOldLayoutRefused: a database of layout version 1 (positions with
// four columns, no version in meta) is refused with ErrSchema, writable or
// read-only, and left as it was.
func TestOldLayoutRefused(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	sdb, err := sql.Open("sqlite3", filepath.Join(dir, "plateau.sqlite"))
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{
		`CREATE TABLE meta(k TEXT PRIMARY KEY, v) WITHOUT ROWID`,
		`CREATE TABLE games(id INTEGER PRIMARY KEY, hash BLOB NOT NULL UNIQUE)`,
		`CREATE TABLE positions(key INTEGER NOT NULL, ply INTEGER NOT NULL, game INTEGER NOT NULL, var INTEGER NOT NULL,
			PRIMARY KEY(key, ply, game, var)) WITHOUT ROWID`,
	} {
		if _, err := sdb.Exec(s); err != nil {
			t.Fatal(err)
		}
	}
	sdb.Close()
	for _, ro := range []bool{false, true} {
		db, err := index.Open(ctx, dir, index.Options{ReadOnly: ro})
		if !errors.Is(err, index.ErrSchema) {
			if db != nil {
				db.Close()
			}
			t.Fatalf("read-only %v: %v, want ErrSchema", ro, err)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "text.bleve")); err == nil {
		t.Fatal("a text index was created beside the refused database")
	}
}

// TestPositionRows checks the position occurrences (every main-line ply
// of every game, once) and the paging of a position search across the two
// stored keys of a position.
func TestPositionRows(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	file := writeFile(t, dir, "d.pdn", genText(t, "draughts", 40, 8))
	db := openDB(t, filepath.Join(dir, "db"))
	if _, err := importFiles(ctx, db, []string{file}, index.ImportOptions{}); err != nil {
		t.Fatal(err)
	}
	type span struct{ count, lo, hi int }
	main := map[int64]*span{}
	plies := map[int64]map[int]bool{}
	if err := db.ScanPositions(ctx, func(key, game int64, ply, vari int) error {
		if vari != 0 {
			return nil
		}
		sp := main[game]
		if sp == nil {
			sp = &span{lo: ply, hi: ply}
			main[game], plies[game] = sp, map[int]bool{}
		}
		sp.count++
		sp.lo, sp.hi = min(sp.lo, ply), max(sp.hi, ply)
		plies[game][ply] = true
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	rows, err := db.SQL().QueryContext(ctx, `SELECT id, plies FROM games`)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for rows.Next() {
		var id int64
		var np int
		if err := rows.Scan(&id, &np); err != nil {
			t.Fatal(err)
		}
		sp := main[id]
		if sp == nil {
			t.Errorf("game %d: no position occurrences", id)
			continue
		}
		if sp.count != np+1 || len(plies[id]) != np+1 || sp.lo != 0 || sp.hi != np {
			t.Errorf("game %d of %d plies: %d main-line occurrences, %d plies, from %d to %d", id, np, sp.count, len(plies[id]), sp.lo, sp.hi)
		}
		n++
	}
	rows.Close()
	if n != 40 || len(main) != 40 {
		t.Fatalf("%d games, %d with positions, want 40", n, len(main))
	}
	start, err := index.Position("draughts", "")
	if err != nil {
		t.Fatal(err)
	}
	res, err := db.Search(ctx, index.Query{Game: "draughts", Position: start, Offset: 5, Limit: 7, Count: true})
	if err != nil {
		t.Fatal(err)
	}
	if res.Total != 40 || len(res.Hits) != 7 {
		t.Fatalf("start position: total %d, %d hits", res.Total, len(res.Hits))
	}
	for i, h := range res.Hits {
		if h.ID != int64(6+i) || h.Ply != 0 || h.Variation {
			t.Fatalf("start position, hit %d: game %d ply %d variation %v", i, h.ID, h.Ply, h.Variation)
		}
	}
}

// TestLayout4Refused: a database of layout version 4 (tree rows without
// their top players) is refused with ErrSchema: its trees would show no
// players.
func TestLayout4Refused(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	db, err := index.Open(ctx, dir, index.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.SQL().ExecContext(ctx, `UPDATE meta SET v = 4 WHERE k = 'schema'`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	for _, ro := range []bool{false, true} {
		db, err := index.Open(ctx, dir, index.Options{ReadOnly: ro})
		if !errors.Is(err, index.ErrSchema) {
			if db != nil {
				db.Close()
			}
			t.Fatalf("read-only %v: %v, want ErrSchema", ro, err)
		}
	}
}
