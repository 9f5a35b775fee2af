package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestShowLegend: show writes the piece legend of Ōgi and Jetan (letters,
// promoted forms, which case is which side), none for draughts.
func TestShowLegend(t *testing.T) {
	for _, tt := range []struct {
		file string
		want []string
	}{
		{filepath.Join(samples, "ogi", "osaka-club.pdn"), []string{"pieces (Sente upper case, Gote lower case):\n  K King 王/玉\n  I Princess 姫, +I promoted Princess 神\n", "  P Pawn 歩, +P Tokin と\n"}},
		{filepath.Join(samples, "jetan", "club.pdn"), []string{"pieces (Black upper case, Orange lower case):\n  C Chief\n  P Princess\n  F Flier\n  D Dwar\n  W Warrior\n  A Padwar\n  T Thoat\n  N Panthan\n"}},
		{filepath.Join(samples, "draughts", "draughts.pdn"), nil},
	} {
		out := mustRun(t, "show", tt.file, "--game", "2")
		for _, w := range tt.want {
			if !strings.Contains(out, w) {
				t.Errorf("show %s lacks %q:\n%s", tt.file, w, out)
			}
		}
		if tt.want == nil && strings.Contains(out, "pieces (") {
			t.Errorf("show %s has a piece legend:\n%s", tt.file, out)
		}
	}
	_, errOut, st := plateau(t, "show", filepath.Join(samples, "jetan", "club.pdn"), "--game", "21")
	if st != exitUsage || !strings.Contains(errOut, "club.pdn has 20 games, no game 21") {
		t.Errorf("show --game 21: status %d, %q", st, errOut)
	}
}
