package store

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"testing"
)

// TestGiveBack: the free pages of a file made with auto_vacuum
// INCREMENTAL go back to the file system when they are more than a
// sixty-fourth of it; a few, or a file without auto_vacuum, stay.
func TestGiveBack(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		name      string
		mode      string
		deleted   int // rows of 1,000 deleted
		wantGiven bool
	}{
		{"incremental, half free", "INCREMENTAL", 500, true},
		{"incremental, 2% free", "INCREMENTAL", 20, true},
		{"incremental, a few free", "INCREMENTAL", 10, false},
		{"no auto_vacuum", "NONE", 500, false},
	} {
		db, err := sql.Open("sqlite3", filepath.Join(t.TempDir(), "t.db"))
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		conn, err := db.Conn(ctx)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		for _, q := range []string{"PRAGMA auto_vacuum = " + c.mode, "PRAGMA journal_mode = WAL",
			"CREATE TABLE t(id INTEGER PRIMARY KEY, data BLOB)",
			"WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1000) INSERT INTO t SELECT i, randomblob(3000) FROM n",
			fmt.Sprintf("DELETE FROM t WHERE id <= %d", c.deleted)} {
			if _, err := conn.ExecContext(ctx, q); err != nil {
				t.Fatalf("%s: %v", q, err)
			}
		}
		pragma := func(name string) int64 {
			var n int64
			if err := conn.QueryRowContext(ctx, "PRAGMA "+name).Scan(&n); err != nil {
				t.Fatal(err)
			}
			return n
		}
		free, pages := pragma("freelist_count"), pragma("page_count")
		if free == 0 {
			t.Fatalf("%s: no free page to give back", c.name)
		}
		given, err := GiveBack(ctx, conn)
		if err != nil {
			t.Fatal(err)
		}
		if c.wantGiven {
			if given != free || pragma("freelist_count") != 0 || pragma("page_count") > pages-free {
				t.Errorf("%s: gave back %d of %d free pages; now %d free, %d pages of %d", c.name, given, free, pragma("freelist_count"), pragma("page_count"), pages)
			}
		} else if given != 0 || pragma("freelist_count") != free {
			t.Errorf("%s: gave back %d of %d free pages, want none", c.name, given, free)
		}
		var n int
		if err := conn.QueryRowContext(ctx, "SELECT COUNT(*) FROM t").Scan(&n); err != nil || n != 1000-c.deleted {
			t.Errorf("%s: %d rows left (%v), want %d", c.name, n, err, 1000-c.deleted)
		}
	}
}
