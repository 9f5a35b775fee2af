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

// TestSaltOnce: holdRows salts a game's keys with the salt of key 0, which
// is gamerows.SaltKey's for every key.
func TestSaltOnce(t *testing.T) {
	for _, game := range []string{"ogi", "dames", "draughts", "sauts", ""} {
		salt := uint64(gamerows.SaltKey(game, 0))
		for _, k := range []uint64{0, 1, 0x8000000000000000, 0xdeadbeefcafef00d, ^uint64(0)} {
			if got, want := int64(k^salt), gamerows.SaltKey(game, k); got != want {
				t.Errorf("%q key %#x: salted once %#x, SaltKey %#x", game, k, got, want)
			}
		}
	}
}
