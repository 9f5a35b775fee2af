package index_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/plateau/plateau/index"
)

// TestPositionCountAfterDelete: a count that needs no game filter reads
// the occurrences only; once a game is deleted its occurrences (left in
// their run) must not be counted, so the count joins the games again.
func TestPositionCountAfterDelete(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	file := writeFile(t, dir, "d.pdn", genText(t, "draughts", 30, 9))
	db := openDB(t, filepath.Join(dir, "db"))
	if _, err := importFiles(ctx, db, []string{file}, index.ImportOptions{}); err != nil {
		t.Fatal(err)
	}
	start, err := index.Position("draughts", "")
	if err != nil {
		t.Fatal(err)
	}
	count := func(limit int) (int, bool) {
		n, more, err := db.PositionCount(ctx, index.Query{Game: "draughts", Position: start}, limit)
		if err != nil {
			t.Fatal(err)
		}
		return n, more
	}
	if n, more := count(100); n != 30 || more {
		t.Fatalf("start position: %d (more %v), want 30", n, more)
	}
	if n, more := count(10); n != 10 || !more {
		t.Fatalf("start position, limit 10: %d (more %v)", n, more)
	}
	if _, err := db.Delete(ctx, []int64{3, 4}, nil); err != nil {
		t.Fatal(err)
	}
	var deleted int
	db.SQL().QueryRowContext(ctx, `SELECT v FROM meta WHERE k = 'pos_deleted'`).Scan(&deleted)
	if deleted != 2 {
		t.Errorf("pos_deleted = %d, want 2", deleted)
	}
	if n, _ := count(100); n != 28 {
		t.Fatalf("start position after deleting 2 games: %d, want 28", n)
	}
}

// TestLookupsOnOneConnection: a read-only handle bounded to one connection
// (as a server bounds its pool) answers position searches, counts and
// trees: a lookup never waits for a second connection while holding one.
func TestLookupsOnOneConnection(t *testing.T) {
	dir := t.TempDir()
	file := writeFile(t, dir, "d.pdn", genText(t, "draughts", 20, 10))
	db := openDB(t, filepath.Join(dir, "db"))
	if _, err := importFiles(context.Background(), db, []string{file}, index.ImportOptions{}); err != nil {
		t.Fatal(err)
	}
	db.Close()
	ro, err := index.Open(context.Background(), filepath.Join(dir, "db"), index.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	ro.SQL().SetMaxOpenConns(1)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	start, _ := index.Position("draughts", "")
	for i := 0; i < 3; i++ {
		res, err := ro.Search(ctx, index.Query{Game: "draughts", Position: start, Limit: 5, Count: true})
		if err != nil || res.Total != 20 {
			t.Fatalf("search: %v, total %d", err, res.Total)
		}
		if n, _, err := ro.PositionCount(ctx, index.Query{Game: "draughts", Position: start, Event: "x"}, 100); err != nil || n != 0 {
			t.Fatalf("count: %v, %d", err, n)
		}
		if _, err := ro.Tree(ctx, "draughts", start); err != nil {
			t.Fatalf("tree: %v", err)
		}
	}
}

// TestCountValidity: the list's counts (valid games, invalid ones, both)
// equal a count of the rows, and follow a delete.
func TestCountValidity(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	good := writeFile(t, dir, "g.pdn", genText(t, "ogi", 25, 3))
	bad := writeFile(t, dir, "b.pdn", []byte("[Game \"ogi\"]\n[Round \"1\"]\n\n1. Pa3-a7 *\n\n[Game \"ogi\"]\n[Round \"2\"]\n\n1. Ke1-e5 *\n"))
	db := openDB(t, filepath.Join(dir, "db"))
	if _, err := importFiles(ctx, db, []string{good, bad}, index.ImportOptions{}); err != nil {
		t.Fatal(err)
	}
	rows := func(cond string) (n int) {
		if err := db.SQL().QueryRowContext(ctx, `SELECT COUNT(*) FROM games WHERE `+cond).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	check := func(when string) {
		for _, c := range []struct {
			q    index.Query
			o    index.ListOptions
			cond string
		}{
			{index.Query{}, index.ListOptions{}, "valid = 1"},
			{index.Query{Invalid: true}, index.ListOptions{}, "valid = 0"},
			{index.Query{}, index.ListOptions{AnyValidity: true}, "1"},
			{index.Query{Game: "ogi"}, index.ListOptions{}, "valid = 1 AND game = 'ogi'"},
		} {
			n, err := db.Count(ctx, c.q, c.o)
			if err != nil {
				t.Fatal(err)
			}
			if want := rows(c.cond); n != want || want == 0 {
				t.Errorf("%s: count of %s: %d, want %d", when, c.cond, n, want)
			}
		}
	}
	check("imported")
	if rows("valid = 0") != 2 {
		t.Fatalf("%d invalid games, want 2", rows("valid = 0"))
	}
	if _, err := db.Delete(ctx, []int64{2, 3}, nil); err != nil {
		t.Fatal(err)
	}
	check("after deleting two games")
}
