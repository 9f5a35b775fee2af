package faults

import "testing"

func TestErrorReason(t *testing.T) {
	for _, tt := range []struct{ msg, rule, want string }{
		{`ply 3 "H28": illegal move "H28" (huff): the last move did not ignore a capture`, "huff", "illegal move (huff)"},
		{`ply 1 "o13-i1": cannot read move "o13-i1": "o13" is not a cell (c, i1–i12, o1–o12)`, "", "cannot read move"},
		{`ply 16 "o9-i9": move after the end of the game (four aligned)`, "", "move after the end of the game"},
		{`result does not match the game: the game ended 1-0 (king captured), not 0-1`, "", "result does not match the game"},
		{`bad start position: bad position "W:W31-50:B1-20,33": square 33 given twice`, "", "bad start position"},
		{`ply 1 "6x48": ambiguous move "6x48": could be 6x22x31x48, 6x28x37x48`, "", "ambiguous move"},
		{`f.pdn:12:3: '{' inside a comment`, "", "'{' inside a comment"},
		{``, "", "unreadable record"},
	} {
		if got := reason(tt.msg, tt.rule); got != tt.want {
			t.Errorf("%q: %q, want %q", tt.msg, got, tt.want)
		}
	}
}
