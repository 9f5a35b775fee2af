package dames_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/plateau/plateau/rules"
)

// repeat is moves written n times, then the first extra of them.
func repeat(moves []string, n, extra int) []string {
	var out []string
	for range n {
		out = append(out, moves...)
	}
	return append(out, moves[:extra]...)
}

// The endings that the material decides (endgame.go), one row per rule
// sentence:
//   - Frisian, lidraughts' rules: "When one player has two kings and the
//     other player has one king, the game is drawn after both players made 7
//     moves. When both players have one king left, the game is drawn after
//     both players made 2 moves."
//   - Turkish, Wikipedia "Turkish draughts": "A king versus single man also
//     wins the game."
func TestEndgameRules(t *testing.T) {
	shuffle := []string{"47-41", "3-8", "41-47", "8-3"}
	tests := []struct {
		sentence, game, fen string
		moves               []string
		fen2                string // the position after the moves, "" to skip
		result, reason      string // "" when not over
	}{
		{"frisian: two kings against one, drawn after both made 7 moves", "frisian", "W:WK47,K49:BK3",
			repeat(shuffle, 3, 2), "W:WK41,K49:BK8:E14", "1/2-1/2", "two kings against one: seven moves each"},
		{"frisian: not after 13 plies", "frisian", "W:WK47,K49:BK3",
			repeat(shuffle, 3, 1), "B:WK41,K49:BK3:E13", "", ""},
		{"frisian: the count is in the FEN", "frisian", "W:WK47,K49:BK3:E13",
			[]string{"47-41"}, "B:WK41,K49:BK3:E14", "1/2-1/2", "two kings against one: seven moves each"},
		{"frisian: both players have one king left, drawn after both made 2 moves", "frisian", "W:WK47:BK3",
			shuffle, "W:WK47:BK3:E4", "1/2-1/2", "one king each: two moves each"},
		{"frisian: not after 3 plies", "frisian", "W:WK47:BK3",
			shuffle[:3], "B:WK47:BK8:E3", "", ""},
		{"frisian: the ending arises by a crowning, counted from 0", "frisian", "W:W6,K49:BK3",
			[]string{"6-1"}, "B:WK1,K49:BK3", "", ""},
		{"frisian: a capture to one king each counts again", "frisian", "B:WK8,K49:BK3:E10",
			[]string{"3x12"}, "W:WK49:BK12", "", ""},
		{"frisian: a man on the board, no count", "frisian", "W:W28,K49:BK3",
			[]string{"49-43", "3-8"}, "W:W28,K43:BK8:RW43/1", "", ""},
		{"frysk: the draw in lidraughts' points", "frysk", "W:WK47,K49:BK3:E13",
			[]string{"47-41"}, "", "1-1", "two kings against one: seven moves each"},
		{"frisian: a win on the last ply is a win", "frisian", "B:WK8:BK3:E3",
			[]string{"3x12"}, "", "0-1", "no pieces left"},
		{"draughts: no such count", "draughts", "W:WK47,K49:BK3",
			repeat(shuffle, 4, 0), "W:WK47,K49:BK3", "", ""},
		{"turkish: a king versus single man wins", "turkish", "W:WKa1:Bh5",
			nil, "", "1-0", "a king against a single man"},
		{"turkish: whoever is to move", "turkish", "B:WKa1:Bh5",
			nil, "", "1-0", "a king against a single man"},
		{"turkish: Black's king too", "turkish", "W:Wa2:BKh5",
			nil, "", "0-1", "a king against a single man"},
		{"turkish: reached by a capture", "turkish", "W:WKa5:Bc5,h8",
			[]string{"a5xd5"}, "B:WKd5:Bh8", "1-0", "a king against a single man"},
		{"turkish: a king against a king plays on", "turkish", "W:WKa1:BKh8",
			nil, "", "", ""},
		{"turkish: a man against a man plays on", "turkish", "W:Wa2:Bh7",
			nil, "", "", ""},
		{"turkish: a king and a man against a man play on", "turkish", "W:WKa1,b2:Bh5",
			nil, "", "", ""},
		{"russian: no such rule", "russian", "W:WK29:B1",
			nil, "", "", ""},
	}
	for _, tc := range tests {
		t.Run(tc.sentence, func(t *testing.T) {
			p, err := play(t, tc.game, tc.fen, tc.moves...)
			if err != nil {
				t.Fatal(err)
			}
			if tc.fen2 != "" && p.String() != tc.fen2 {
				t.Errorf("position %s, want %s", p, tc.fen2)
			}
			o := p.Outcome()
			if o.Over != (tc.result != "") || o.Result != tc.result || o.Reason != tc.reason {
				t.Errorf("outcome %+v, want %q %q", o, tc.result, tc.reason)
			}
			if !o.Over {
				return
			}
			// A Result other than the rule's is refused; the rule's is
			// accepted.
			if err := p.CheckResult(tc.result); err != nil {
				t.Errorf("CheckResult(%s): %v", tc.result, err)
			}
			other := "1-0"
			if tc.result == "1-0" || tc.result == "2-0" {
				other = "1/2-1/2"
			}
			if err := p.CheckResult(other); !errors.Is(err, rules.ErrResult) {
				t.Errorf("CheckResult(%s): %v, want a result error", other, err)
			}
		})
	}
}

// The count of a Frisian ending is part of the position: its FEN section E
// and its key.
func TestEndgameCountFEN(t *testing.T) {
	tests := []struct {
		game, fen, want string // want "" for an error
	}{
		{"frisian", "W:WK47,K49:BK3:E5", "W:WK47,K49:BK3:E5"},
		{"frisian", "W:WK47,K49:BK3:E0", "W:WK47,K49:BK3"},
		{"frisian", "W:WK47,K49:BK3:E14", "W:WK47,K49:BK3:E14"},
		{"frisian", "W:WK47,K49:BK3:E15", ""},   // past the draw
		{"frisian", "W:WK47:BK3:E5", ""},        // one king each: drawn at 4
		{"frisian", "W:WK47,49:BK3:E2", ""},     // a man on the board
		{"frisian", "W:WK47,K49:BK3:E2:E2", ""}, // twice
		{"frisian", "W:WK47,K49:BK3:Ex", ""},    // no number
		{"frysk", "W:WK47,K49:BK3:E2", "W:WK47,K49:BK3:E2"},
		{"draughts", "W:WK47,K49:BK3:E2", ""},
	}
	for _, tc := range tests {
		g, _ := rules.Lookup(tc.game)
		p, err := g.NewPosition(tc.fen)
		if tc.want == "" {
			if err == nil {
				t.Errorf("%s %q read as %s, want an error", tc.game, tc.fen, p)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s %q: %v", tc.game, tc.fen, err)
			continue
		}
		if p.String() != tc.want {
			t.Errorf("%s %q written %s, want %s", tc.game, tc.fen, p, tc.want)
		}
	}
	keys := map[uint64]string{}
	for _, fen := range []string{"W:WK47,K49:BK3", "W:WK47,K49:BK3:E1", "W:WK47,K49:BK3:E2", "W:WK47,K49:BK3:E14"} {
		p := mustPos(t, "frisian", fen)
		if other, ok := keys[p.Key()]; ok {
			t.Errorf("%s and %s have one key", fen, other)
		}
		keys[p.Key()] = fen
	}
	// Played into the count, the key is the key of the FEN read.
	p, err := play(t, "frisian", "W:WK47,K49:BK3", repeat([]string{"47-41", "3-8", "41-47", "8-3"}, 1, 1)...)
	if err != nil {
		t.Fatal(err)
	}
	if q := mustPos(t, "frisian", p.String()); q.Key() != p.Key() || !strings.HasSuffix(p.String(), ":E5") {
		t.Errorf("%s: key %x played, %x read", p, p.Key(), q.Key())
	}
}
