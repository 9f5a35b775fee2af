package playerlines_test

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"slices"
	"testing"

	_ "github.com/mattn/go-sqlite3"

	"github.com/plateau/plateau/index/internal/playerlines"
	"github.com/plateau/plateau/index/internal/store"
	"github.com/plateau/plateau/rules"
)

// txStmts prepares statements in a transaction.
type txStmts struct {
	tx    *sql.Tx
	stmts store.Stmts
}

func (s *txStmts) Stmt(ctx context.Context, query string) (*sql.Stmt, error) {
	return s.stmts.Stmt(ctx, s.tx, query)
}

// stored is every line of the table as "player/side/game:moves", with
// ":event" after a line's event name, and its number of rows.
func stored(t *testing.T, tx *sql.Tx) ([]string, int) {
	t.Helper()
	rows, err := tx.Query(`SELECT player, side, game, lines FROM player_lines ORDER BY player, side, game`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	n := 0
	for rows.Next() {
		var player, side, first int64
		var blob []byte
		if err := rows.Scan(&player, &side, &first, &blob); err != nil {
			t.Fatal(err)
		}
		n++
		c := playerlines.NewChunk(first, blob)
		for c.Next() {
			var l playerlines.Line
			if err := playerlines.Decode(c.Line(), &l); err != nil {
				t.Fatal(err)
			}
			line := fmt.Sprintf("%d/%d/%d:%v", player, side, c.Game(), l.Moves)
			if l.Event != 0 {
				var name string
				if err := tx.QueryRow(`SELECT name FROM event_names WHERE id = ?`, l.Event).Scan(&name); err != nil {
					t.Fatalf("%s: event %d: %v", line, l.Event, err)
				}
				line += ":" + name
			}
			out = append(out, line)
		}
		if c.Err() != nil {
			t.Fatal(c.Err())
		}
	}
	return out, n
}

// TestChunks: lines are stored in chunks of at most MaxChunk, read back
// in order, and each game forgotten leaves the others, whichever its
// place in its chunk.
func TestChunks(t *testing.T) {
	ctx := context.Background()
	db, err := sql.Open("sqlite3", filepath.Join(t.TempDir(), "t.sqlite"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	tx, err := db.Begin()
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	for _, q := range []string{playerlines.Table, playerlines.EventsTable} {
		if _, err := tx.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	p := &txStmts{tx: tx}
	var rows []playerlines.Row
	var want []string
	n := playerlines.MaxChunk + 10
	event := func(g int64) string { // a game's event, none for every fourth
		if g%4 == 0 {
			return ""
		}
		return fmt.Sprint("Open ", g%3)
	}
	withEvent := func(line string, g int64) string {
		if e := event(g); e != "" {
			return line + ":" + e
		}
		return line
	}
	for g := int64(1); g <= int64(n); g++ {
		l := playerlines.Line{Game: "ogi", Moves: []rules.Move{rules.Move(g)}}
		rows = playerlines.Rows(rows, g*3, [2]int64{7, 9}, event(g), &l)
		want = append(want, withEvent(fmt.Sprintf("7/0/%d:[%d]", g*3, g), g), withEvent(fmt.Sprintf("9/1/%d:[%d]", g*3, g), g))
	}
	if err := playerlines.Put(ctx, p, rows); err != nil {
		t.Fatal(err)
	}
	got, chunks := stored(t, tx)
	slices.Sort(want)
	slices.Sort(got)
	if fmt.Sprint(got) != fmt.Sprint(want) || chunks != 4 {
		t.Fatalf("%d chunks, %d lines %v, want 4 chunks of %d lines", chunks, len(got), got[:4], len(want))
	}
	// The first of a chunk, one inside, the last, a game of none.
	for _, g := range []int64{3, 30, int64(playerlines.MaxChunk * 3), int64(playerlines.MaxChunk*3 + 3), 31} {
		pl := [2]sql.NullInt64{{Int64: 7, Valid: true}, {Int64: 9, Valid: true}}
		if err := playerlines.Forget(ctx, p, g, pl); err != nil {
			t.Fatal(err)
		}
		want = slices.DeleteFunc(want, func(s string) bool {
			return s == withEvent(fmt.Sprintf("7/0/%d:[%d]", g, g/3), g/3) || s == withEvent(fmt.Sprintf("9/1/%d:[%d]", g, g/3), g/3)
		})
	}
	// Every line of the last chunk (10 games).
	for g := int64(playerlines.MaxChunk + 1); g <= int64(n); g++ {
		if err := playerlines.Forget(ctx, p, g*3, [2]sql.NullInt64{{Int64: 7, Valid: true}}); err != nil {
			t.Fatal(err)
		}
		want = slices.DeleteFunc(want, func(s string) bool { return s == withEvent(fmt.Sprintf("7/0/%d:[%d]", g*3, g), g) })
	}
	got, chunks = stored(t, tx)
	slices.Sort(got)
	var names int
	if err := tx.QueryRow(`SELECT count(*) FROM event_names`).Scan(&names); err != nil || names != 3 {
		t.Errorf("%d event names, want 3 (each once): %v", names, err)
	}
	if fmt.Sprint(got) != fmt.Sprint(want) || chunks != 3 {
		t.Errorf("after forgetting: %d chunks, %d lines, want 3 chunks of %d lines", chunks, len(got), len(want))
	}
}

// TestChunkCorrupt: a chunk whose later line does not advance the game,
// or whose length overruns it, does not read.
func TestChunkCorrupt(t *testing.T) {
	for _, b := range [][]byte{{0, 1, 5, 0, 1, 5}, {0, 9, 5}, {1, 1, 5}, {0xff}} {
		c := playerlines.NewChunk(10, b)
		for c.Next() {
		}
		if c.Err() == nil {
			t.Errorf("chunk % x read", b)
		}
	}
}

// TestChunksOverlap: a game stored again makes a chunk inside the range
// of the one it left; the games of both are still found and forgotten.
func TestChunksOverlap(t *testing.T) {
	ctx := context.Background()
	db, err := sql.Open("sqlite3", filepath.Join(t.TempDir(), "t.sqlite"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	tx, err := db.Begin()
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	for _, q := range []string{playerlines.Table, playerlines.EventsTable} {
		if _, err := tx.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	p := &txStmts{tx: tx}
	put := func(games ...int64) {
		var rows []playerlines.Row
		for _, g := range games {
			l := playerlines.Line{Game: "ogi", Moves: []rules.Move{rules.Move(g)}}
			rows = playerlines.Rows(rows, g, [2]int64{7, 0}, "", &l)
		}
		if err := playerlines.Put(ctx, p, rows); err != nil {
			t.Fatal(err)
		}
	}
	forget := func(g int64) {
		if err := playerlines.Forget(ctx, p, g, [2]sql.NullInt64{{Int64: 7, Valid: true}}); err != nil {
			t.Fatal(err)
		}
	}
	put(3, 6, 9, 12)
	forget(6)
	put(6) // stored again: a chunk of its own, inside [3, 12]
	forget(9)
	forget(3)
	got, chunks := stored(t, tx)
	if fmt.Sprint(got) != "[7/0/6:[6] 7/0/12:[12]]" || chunks != 2 {
		t.Errorf("%d chunks %v", chunks, got)
	}
	forget(12)
	forget(6)
	if got, chunks := stored(t, tx); len(got) != 0 || chunks != 0 {
		t.Errorf("%d chunks %v left", chunks, got)
	}
}
