package index

import (
	"context"
	"path/filepath"
	"testing"
)

func TestPackAt(t *testing.T) {
	for _, c := range []struct {
		game      int64
		ply, vari int
	}{{1, 0, 0}, {1, 0, 1}, {7, 72, 0}, {262143, maxIndexedPly, 1}, {1 << 40, 3, 1}} {
		g, p, v := unpackAt(packAt(c.game, c.ply, c.vari))
		if g != c.game || p != c.ply || v != c.vari {
			t.Errorf("%+v: unpacked %d %d %d", c, g, p, v)
		}
	}
	// Stored keys: the opening tree's occurrences under the salted key,
	// the others apart.
	if posKey(5, TreeDepth-1, 0, adjacentDeepSalt) != 5 || posKey(5, TreeDepth, 0, adjacentDeepSalt) == 5 || posKey(5, 2, 1, adjacentDeepSalt) == 5 || posKey(5, 2, 1, adjacentDeepSalt) != posKey(5, TreeDepth, 0, adjacentDeepSalt) {
		t.Error("stored keys do not separate the opening tree's occurrences")
	}
	// Packed values order rows by game, then ply, then variation.
	if !(packAt(1, maxIndexedPly, 1) < packAt(2, 0, 0) && packAt(2, 3, 1) < packAt(2, 4, 0)) {
		t.Error("packed order is not (game, ply, var)")
	}
}

// TestDeepSalt: a new database keeps the adjacent deep salt in meta; one
// without the entry (made before it existed) is read with the legacy salt,
// under which its positions were stored.
func TestDeepSalt(t *testing.T) {
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "db")
	db, err := Open(ctx, dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if db.deepSalt != adjacentDeepSalt {
		t.Errorf("new database: deep salt %d", db.deepSalt)
	}
	if posKey(6, TreeDepth, 0, db.deepSalt) != 7 || posKey(7, 0, 1, db.deepSalt) != 6 {
		t.Error("the two keys of a position are not neighbours")
	}
	if _, err := db.sql.ExecContext(ctx, `DELETE FROM meta WHERE k = ?`, deepSaltKey); err != nil {
		t.Fatal(err)
	}
	db.Close()
	for _, ro := range []bool{false, true} {
		db, err := Open(ctx, dir, Options{ReadOnly: ro})
		if err != nil {
			t.Fatal(err)
		}
		if db.deepSalt != legacyDeepSalt {
			t.Errorf("database without the entry (read-only %v): deep salt %d", ro, db.deepSalt)
		}
		db.Close()
	}
}
