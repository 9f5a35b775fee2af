package posrun

import (
	"context"
	"testing"
)

func TestPackAt(t *testing.T) {
	for _, c := range []struct {
		game      int64
		ply, vari int
	}{{1, 0, 0}, {1, 0, 1}, {7, 72, 0}, {262143, MaxPly, 1}, {1 << 40, 3, 1}} {
		g, p, v := UnpackAt(PackAt(c.game, c.ply, c.vari))
		if g != c.game || p != c.ply || v != c.vari {
			t.Errorf("%+v: unpacked %d %d %d", c, g, p, v)
		}
	}
	// Stored keys: the opening tree's occurrences under the salted key,
	// the others apart.
	s := &Store{deepSalt: adjacentDeepSalt}
	if s.Key(5, true) != 5 || s.Key(5, false) == 5 || s.Key(s.Key(5, false), false) != 5 {
		t.Error("stored keys do not separate the opening tree's occurrences")
	}
	// Packed values order rows by game, then ply, then variation.
	if !(PackAt(1, MaxPly, 1) < PackAt(2, 0, 0) && PackAt(2, 3, 1) < PackAt(2, 4, 0)) {
		t.Error("packed order is not (game, ply, var)")
	}
}

// TestDeepSalt: a new database keeps the adjacent deep salt in meta; one
// without the entry (made before it existed) is read with the legacy salt,
// under which its positions were stored.
func TestDeepSalt(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	db := openTestDB(t, dir, false)
	if db.deepSalt != adjacentDeepSalt {
		t.Errorf("new database: deep salt %d", db.deepSalt)
	}
	if db.Key(6, false) != 7 || db.Key(7, false) != 6 {
		t.Error("the two keys of a position are not neighbours")
	}
	if _, err := db.sql.ExecContext(ctx, `DELETE FROM meta WHERE k = ?`, deepSaltKey); err != nil {
		t.Fatal(err)
	}
	db.Close()
	for _, ro := range []bool{false, true} {
		db := openTestDB(t, dir, ro)
		if db.deepSalt != legacyDeepSalt {
			t.Errorf("database without the entry (read-only %v): deep salt %d", ro, db.deepSalt)
		}
		db.Close()
	}
}
