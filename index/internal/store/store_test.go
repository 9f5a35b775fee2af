package store

import (
	"context"
	"database/sql"
	"path/filepath"
	"slices"
	"testing"

	_ "github.com/mattn/go-sqlite3"
)

// TestDeferred: a database without the deferred indexes lacks all three;
// Restore builds them and says which, once; DropDeferred drops them all.
func TestDeferred(t *testing.T) {
	ctx := context.Background()
	db, err := sql.Open("sqlite3", filepath.Join(t.TempDir(), "t.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(`CREATE TABLE games(id INTEGER PRIMARY KEY, p0, p1, date, event, valid, result, game)`); err != nil {
		t.Fatal(err)
	}
	all := []string{"games_p0", "games_p1", "games_date", "games_event"}
	check := func(when string, want []string) {
		t.Helper()
		got, err := Missing(ctx, db)
		if err != nil || !slices.Equal(got, want) {
			t.Fatalf("%s: missing %v, %v; want %v", when, got, err, want)
		}
	}
	check("new table", all)
	built, err := Restore(ctx, db)
	if err != nil || !slices.Equal(built, all) {
		t.Fatalf("Restore built %v, %v; want %v", built, err, all)
	}
	check("after Restore", nil)
	if built, err := Restore(ctx, db); err != nil || built != nil {
		t.Fatalf("second Restore built %v, %v; want nothing", built, err)
	}
	conn, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if err := DropDeferred(ctx, conn); err != nil {
		t.Fatal(err)
	}
	check("after DropDeferred", all)
}

// TestCheckpointer: Committed never blocks (asked three times before the
// goroutine runs), and Stop waits for the checkpoint asked and may be
// called twice.
func TestCheckpointer(t *testing.T) {
	db, err := sql.Open("sqlite3", "file:"+filepath.Join(t.TempDir(), "t.db")+"?_journal_mode=WAL")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	c := NewCheckpointer(db, false)
	for range 3 {
		c.Committed()
	}
	c.Stop()
	c.Stop()
}
