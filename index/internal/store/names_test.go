package store

import (
	"context"
	"database/sql"
	"path/filepath"
	"strings"
	"testing"
)

// TestNames: a game is listed under every word of each of its players'
// folded names, a word shared by two players once in name_words; Remove
// deletes one game's entries of one player and no other.
func TestNames(t *testing.T) {
	ctx := context.Background()
	db, err := sql.Open("sqlite3", filepath.Join(t.TempDir(), "t.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(`CREATE TABLE players(id INTEGER PRIMARY KEY, name TEXT, folded TEXT);
		CREATE TABLE name_words(id INTEGER PRIMARY KEY, word TEXT NOT NULL UNIQUE);
		CREATE TABLE name_games(word INTEGER NOT NULL, game INTEGER NOT NULL, player INTEGER NOT NULL,
			PRIMARY KEY(word, game, player)) WITHOUT ROWID;
		INSERT INTO players VALUES(1, 'Habu Yoshiharu', 'habu yoshiharu'), (2, 'Habu Taro', 'habu taro')`); err != nil {
		t.Fatal(err)
	}
	tx, err := db.Begin()
	if err != nil {
		t.Fatal(err)
	}
	var s Stmts
	p := txPreparer{&s, tx}
	n := NewNames(strings.ToLower)
	names := [2]string{"Habu Yoshiharu", "Habu Taro"}
	if _, err := n.Add(ctx, p, 10, [2]any{int64(1), int64(2)}, names); err != nil {
		t.Fatal(err)
	}
	held, err := n.Add(ctx, p, 11, [2]any{int64(1), nil}, names)
	if err != nil || held != 48 {
		t.Fatalf("second game: held %d, %v; want 48 (two words)", held, err)
	}
	if err := n.Flush(ctx, p); err != nil {
		t.Fatal(err)
	}
	count := func(q string, args ...any) int {
		t.Helper()
		var c int
		if err := tx.QueryRow(q, args...).Scan(&c); err != nil {
			t.Fatal(err)
		}
		return c
	}
	if c := count(`SELECT count(*) FROM name_words`); c != 3 {
		t.Errorf("%d name words, want 3 (habu, yoshiharu, taro)", c)
	}
	if c := count(`SELECT count(*) FROM name_games`); c != 6 {
		t.Errorf("%d entries, want 6 (four of game 10, two of game 11)", c)
	}
	if c := count(`SELECT count(*) FROM name_games g JOIN name_words w ON w.id = g.word WHERE w.word = 'habu' AND g.game = 10`); c != 2 {
		t.Errorf("game 10 under habu %d times, want 2 (both players)", c)
	}
	if err := n.Remove(ctx, tx, p, 10, 1); err != nil {
		t.Fatal(err)
	}
	if c := count(`SELECT count(*) FROM name_games WHERE game = 10 AND player = 1`); c != 0 {
		t.Errorf("%d entries of player 1 in game 10 after Remove", c)
	}
	if c := count(`SELECT count(*) FROM name_games`); c != 4 {
		t.Errorf("%d entries after Remove, want 4", c)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
}
