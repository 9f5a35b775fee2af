package index

import "testing"

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
	if posKey(5, TreeDepth-1, 0) != 5 || posKey(5, TreeDepth, 0) == 5 || posKey(5, 2, 1) == 5 || posKey(5, 2, 1) != posKey(5, TreeDepth, 0) {
		t.Error("stored keys do not separate the opening tree's occurrences")
	}
	// Packed values order rows by game, then ply, then variation.
	if !(packAt(1, maxIndexedPly, 1) < packAt(2, 0, 0) && packAt(2, 3, 1) < packAt(2, 4, 0)) {
		t.Error("packed order is not (game, ply, var)")
	}
}
