package store

import (
	"context"
	"database/sql"
	"path/filepath"
	"strings"
	"testing"
)

// TestIDs: a name gets one id, the same in a later transaction; a player
// is stored with its folded name; no name is no player; after Forget an
// id is read again from the table.
func TestIDs(t *testing.T) {
	ctx := context.Background()
	db, err := sql.Open("sqlite3", filepath.Join(t.TempDir(), "t.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(`CREATE TABLE players(id INTEGER PRIMARY KEY, name TEXT UNIQUE, folded TEXT);
		CREATE TABLE tag_names(id INTEGER PRIMARY KEY, name TEXT UNIQUE);
		CREATE TABLE sources(id INTEGER PRIMARY KEY, path TEXT UNIQUE)`); err != nil {
		t.Fatal(err)
	}
	var s Stmts
	ids := NewIDs(strings.ToLower)
	first := map[string]int64{}
	for round := range 3 {
		tx, err := db.Begin()
		if err != nil {
			t.Fatal(err)
		}
		p := txPreparer{&s, tx}
		if pl, err := ids.Player(ctx, p, ""); pl != nil || err != nil {
			t.Fatalf("no name: player %v, %v", pl, err)
		}
		for _, c := range []struct {
			kind, name string
			get        func() (int64, error)
		}{
			{"player", "Habu", func() (int64, error) { pl, err := ids.Player(ctx, p, "Habu"); id, _ := pl.(int64); return id, err }},
			{"player", "Taro", func() (int64, error) { pl, err := ids.Player(ctx, p, "Taro"); id, _ := pl.(int64); return id, err }},
			{"tag", "Event", func() (int64, error) { return ids.Tag(ctx, p, "Event") }},
			{"tag", "Site", func() (int64, error) { return ids.Tag(ctx, p, "Site") }},
			{"source", "a.kif", func() (int64, error) { return ids.Source(ctx, p, "a.kif") }},
		} {
			id, err := c.get()
			if err != nil || id == 0 {
				t.Fatalf("round %d, %s %q: id %d, %v", round, c.kind, c.name, id, err)
			}
			if round == 0 {
				first[c.kind+c.name] = id
			} else if id != first[c.kind+c.name] {
				t.Errorf("round %d, %s %q: id %d, was %d", round, c.kind, c.name, id, first[c.kind+c.name])
			}
		}
		if err := tx.Commit(); err != nil {
			t.Fatal(err)
		}
		if round == 1 {
			ids.Forget()
		}
	}
	var folded string
	if err := db.QueryRow(`SELECT folded FROM players WHERE name = 'Habu'`).Scan(&folded); err != nil || folded != "habu" {
		t.Fatalf("folded %q, %v; want habu", folded, err)
	}
	var n int
	if err := db.QueryRow(`SELECT (SELECT count(*) FROM players) + (SELECT count(*) FROM tag_names) + (SELECT count(*) FROM sources)`).Scan(&n); err != nil || n != 5 {
		t.Fatalf("%d rows, %v; want 5", n, err)
	}
}
