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
	// Stored values: the opening tree's rows negative, the others not.
	if storedAt(5, TreeDepth-1, 0) >= 0 || storedAt(5, TreeDepth, 0) < 0 || storedAt(5, 2, 1) < 0 {
		t.Error("stored sign does not separate the opening tree's rows")
	}
	// Packed values order rows by game, then ply, then variation.
	if !(packAt(1, maxIndexedPly, 1) < packAt(2, 0, 0) && packAt(2, 3, 1) < packAt(2, 4, 0)) {
		t.Error("packed order is not (game, ply, var)")
	}
}
