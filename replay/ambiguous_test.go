package replay_test

import (
	"strings"
	"testing"

	"github.com/plateau/plateau/replay"
)

// An ambiguous move is read as the record goes on (ambiguous.go): the one
// candidate the following moves allow, silently; else, valid with a
// warning, the candidate that gives the Result, or the first; when no
// candidate lets the line go on, the record breaks where the best reading
// does.
func TestAmbiguousMoves(t *testing.T) {
	// English checkers: Black's 3x26 goes by 10 and 17 (taking 7, 14, 22)
	// or by 10 and 19 (taking 7, 15, 23).
	const fen = "B:W7,14,15,22,23,32:B3"
	tests := []struct {
		name, game, fen, result, moves string
		want                           string // the canonical text read for the first move
		warn                           string // a word of the ambiguity warning; "" for none
		errPly                         int    // 1-based ply of the error; 0 valid
	}{
		{"by 17, as 23-18 shows", "checkers", fen, "*", "3x26 23-18", "3x10x17x26", "", 0},
		{"by 19, as 22-17 shows", "checkers", fen, "*", "3x26 22-17", "3x10x19x26", "", 0},
		{"the last move", "checkers", fen, "*", "3x26", "3x10x17x26", "the last move of its line", 0},
		{"both go on", "checkers", fen, "*", "3x26 32-27", "3x10x17x26", "the moves after it fit each", 0},
		{"neither goes on", "checkers", fen, "*", "3x26 7-2", "3x10x17x26", "none lets the line go on", 2},
		{"one goes further", "checkers", fen, "*", "3x26 23-18 26-31 14-9", "3x10x17x26", "none lets the line go on", 4},
		{"settled three moves on", "checkers", "B:W7,14,15,22,23,32:B3,1", "*", "3x26 32-27 26-31 23-18", "3x10x17x26", "", 0},
		// A later ambiguous move: both of its readings are tried (its
		// first, +2, breaks the line).
		{"a later ambiguous move", "race", "4", "0-1", "? ?2 +2 +2", "+1", "", 0},
		// Russian short notation: two kings on the c file reach d4; only
		// the one from c5 leaves c3 to go on.
		{"short move settled", "russian", "W:WK22,K14:B1", "*", "cd4 b8-a7 c3-b4", "c5-d4", "", 0},
		{"short move last", "russian", "W:WK22,K14:B1", "*", "cd4", "c3-d4", "could be c3-d4 or c5-d4; read as c3-d4", 0},
		// The Result decides between readings that both end the line.
		{"the Result decides", "race", "8", "1-0", "?", "+2", "read as +2", 0},
		{"the Result decides otherwise", "race", "8", "0-1", "?", "+1", "read as +1", 0},
		{"no Result", "race", "8", "*", "?", "+1", "read as +1", 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := replay.Replay(game(tc.game, tc.fen, tc.result, tc.moves), replay.Options{})
			if tc.errPly == 0 && g.Err != nil {
				t.Fatalf("error %v", g.Err)
			}
			if tc.errPly != 0 && (g.Err == nil || g.Err.Ply != tc.errPly || !strings.Contains(g.Err.Error(), "the reading that goes furthest")) {
				t.Fatalf("error %v, want one at ply %d naming the reading", g.Err, tc.errPly)
			}
			if tc.errPly != 0 && g.Err.Rule() == "" {
				t.Fatalf("error %v lost its rule", g.Err)
			}
			if len(g.Main) == 0 || g.Main[0].Text != tc.want {
				t.Fatalf("main line %v, want %s first", texts(g.Main), tc.want)
			}
			var warns []string
			for _, w := range g.Warnings {
				if w.Kind == replay.WarnAmbiguous {
					warns = append(warns, w.Text)
				}
			}
			switch {
			case tc.warn == "" && len(warns) > 0:
				t.Errorf("warnings %q, want none", warns)
			case tc.warn != "" && (len(warns) != 1 || !strings.Contains(warns[0], tc.warn)):
				t.Errorf("warnings %q, want one saying %q", warns, tc.warn)
			}
		})
	}
}

func texts(steps []*replay.Step) []string {
	var out []string
	for _, s := range steps {
		out = append(out, s.Text)
	}
	return out
}
