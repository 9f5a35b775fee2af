package writer

import (
	"context"
	"database/sql"
	"path/filepath"
	"testing"

	_ "github.com/mattn/go-sqlite3" // the SQLite driver

	"github.com/plateau/plateau/index/internal/gamerows"
	"github.com/plateau/plateau/index/internal/posrun"
)

// TestStoredKey: the occurrences that the opening tree counts (main line,
// ply below TreeDepth) are stored under the salted key, the others apart,
// all under one key.
func TestStoredKey(t *testing.T) {
	sdb, err := sql.Open("sqlite3", filepath.Join(t.TempDir(), "k.sqlite"))
	if err != nil {
		t.Fatal(err)
	}
	defer sdb.Close()
	pos, err := posrun.Open(context.Background(), sdb, posrun.Config{Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer pos.Close()
	const depth = gamerows.TreeDepth
	key := func(ply, vari int) int64 { return storedKey(pos, 5, ply, vari) }
	if key(depth-1, 0) != 5 || key(depth, 0) == 5 || key(2, 1) == 5 || key(2, 1) != key(depth, 0) {
		t.Error("stored keys do not separate the opening tree's occurrences")
	}
}
