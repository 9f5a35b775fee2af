package index_test

import (
	"context"
	"database/sql"
	"path/filepath"
	"testing"

	"github.com/plateau/plateau/index"
)

func pragmaInt(t *testing.T, db *sql.DB, name string) int64 {
	t.Helper()
	var v int64
	if err := db.QueryRow("PRAGMA " + name).Scan(&v); err != nil {
		t.Fatal(err)
	}
	return v
}

// TestNewDatabasePageSize: a new database file has 16 KiB pages, is in
// WAL mode and has auto_vacuum INCREMENTAL (2: an import gives back the
// pages its merges freed), and keeps them when opened again; a database made with
// SQLite's default 4 KiB pages keeps them and takes an import.
func TestNewDatabasePageSize(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	file := writeFile(t, dir, "g.pdn", genText(t, "ogi", 30, 3))

	fresh := filepath.Join(dir, "fresh")
	db := openDB(t, fresh)
	if _, err := importFiles(ctx, db, []string{file}, index.ImportOptions{}); err != nil {
		t.Fatal(err)
	}
	if got := pragmaInt(t, db.SQL(), "page_size"); got != 16384 {
		t.Errorf("new database: page_size %d, want 16384", got)
	}
	db.Close()
	db = openDB(t, fresh)
	if got := pragmaInt(t, db.SQL(), "page_size"); got != 16384 {
		t.Errorf("opened again: page_size %d, want 16384", got)
	}
	if got := pragmaInt(t, db.SQL(), "auto_vacuum"); got != 2 {
		t.Errorf("opened again: auto_vacuum %d, want 2 (incremental)", got)
	}
	var mode string
	if err := db.SQL().QueryRow("PRAGMA journal_mode").Scan(&mode); err != nil || mode != "wal" {
		t.Errorf("journal_mode %q (%v), want wal", mode, err)
	}
	db.Close()

	// A file made by an older plateau, with 4 KiB pages.
	old := filepath.Join(dir, "old")
	db = openDB(t, old)
	db.Close()
	sdb, err := sql.Open("sqlite3", "file:"+filepath.Join(old, "plateau.sqlite"))
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{"PRAGMA journal_mode = DELETE", "PRAGMA page_size = 4096", "VACUUM", "PRAGMA journal_mode = WAL"} {
		if _, err := sdb.Exec(q); err != nil {
			t.Fatal(q, err)
		}
	}
	sdb.Close()
	db = openDB(t, old)
	if _, err := importFiles(ctx, db, []string{file}, index.ImportOptions{}); err != nil {
		t.Fatal(err)
	}
	if got := pragmaInt(t, db.SQL(), "page_size"); got != 4096 {
		t.Errorf("older database: page_size %d, want 4096 kept", got)
	}
	var n int
	if err := db.SQL().QueryRow("SELECT COUNT(*) FROM games").Scan(&n); err != nil || n != 30 {
		t.Errorf("older database: %d games (%v), want 30", n, err)
	}
	db.Close()
}
