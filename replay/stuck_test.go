package replay_test

import (
	"errors"
	"testing"

	"github.com/plateau/plateau/record"
	"github.com/plateau/plateau/replay"
)

// TestMoveAfterKingCaptured: in Ōgi (whose positions skip Outcome before a
// move that parses, rules.OverWhenStuck), a move after the game's end is
// still ErrAfterEnd, in the main line and in a variation.
func TestMoveAfterKingCaptured(t *testing.T) {
	for _, tt := range []struct {
		name  string
		moves record.Line
		ply   int
	}{
		{"main line", record.Line{{Text: "Re1xe8"}, {Text: "Ke8-e7"}}, 2},
		{"variation", record.Line{{Text: "Kg1-g2", Variations: []record.Line{{{Text: "Re1xe8"}, {Text: "Ke8-d8"}}}}}, 2},
	} {
		rec := &record.Game{Tags: []record.Tag{{Name: "Game", Value: "ogi"}, {Name: "FEN", Value: "4k3/8/8/8/8/8/8/4R1K1 b - 1"}}, Moves: tt.moves}
		g := replay.Replay(rec, replay.Options{})
		if !errors.Is(g.Err, replay.ErrAfterEnd) || g.Err.Ply != tt.ply {
			t.Errorf("%s: %v, want %v at ply %d", tt.name, g.Err, replay.ErrAfterEnd, tt.ply)
		}
	}
}
