package replay_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/plateau/plateau/replay"
)

func TestSGFGameRefused(t *testing.T) {
	tests := []struct {
		gm, want string
	}{
		{"1", "GM[1] (Go)"},
		{"8", "GM[8] (Shogi)"},
		{"99", "GM[99] (unknown)"},
	}
	for _, tt := range tests {
		rec := game("", "", "*", "+1")
		rec.SetTag("SGFGame", tt.gm)
		// Neither the default nor detection may read an SGF game.
		g := replay.Replay(rec, replay.Options{DefaultGame: "race", Detect: true})
		if !errors.Is(g.Err, replay.ErrSGFGame) || !strings.Contains(g.Err.Error(), tt.want) || g.Rules != nil {
			t.Errorf("GM %s: %v (rules %v)", tt.gm, g.Err, g.Rules)
		}
	}
	rec := game("race", "", "*", "+1")
	rec.SetTag("SGFGame", "1")
	if g := replay.Replay(rec, replay.Options{}); g.Err != nil {
		t.Errorf("a Game tag names the ruleset: %v", g.Err)
	}
}
