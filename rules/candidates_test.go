package rules_test

import (
	"errors"
	"slices"
	"testing"

	"github.com/plateau/plateau/rules"
)

// Matches lists every legal move a text may mean, in every game: the
// move ParseMove reads, each candidate of an ambiguous short form, or
// ParseMove's error.
func TestMatches(t *testing.T) {
	tests := []struct {
		game, fen, text string
		want            []string // canonical moves, nil for an error
		kind            rules.MoveErrorKind
	}{
		// English checkers: 3x26 by 10 and 17, or by 10 and 19.
		{game: "checkers", fen: "B:W7,14,15,22,23:B3", text: "3x26", want: []string{"3x10x17x26", "3x10x19x26"}},
		{game: "checkers", fen: "B:W7,14,15,22,23:B3", text: "3x17x26", want: []string{"3x10x17x26"}},
		{game: "checkers", fen: "B:W7,14,15,22,23:B3", text: "3-8", kind: rules.Illegal},
		{game: "checkers", text: "11-15", want: []string{"11-15"}},
		// Russian short notation: two kings on the c file reach d4.
		{game: "russian", fen: "W:WK22,K14:B1", text: "cd4", want: []string{"c3-d4", "c5-d4"}},
		{game: "russian", text: "ed4", want: []string{"e3-d4"}},
		{game: "russian", text: "e4", kind: rules.Syntax},
	}
	for _, tc := range tests {
		g, err := rules.Lookup(tc.game)
		if err != nil {
			t.Fatal(err)
		}
		p, err := g.NewPosition(tc.fen)
		if err != nil {
			t.Fatal(err)
		}
		ms, err := rules.Matches(p, tc.text, nil)
		var got []string
		for _, m := range ms {
			got = append(got, p.FormatMove(m))
		}
		if tc.want != nil {
			if err != nil || !slices.Equal(got, tc.want) {
				t.Errorf("%s %q %s: %v, %v; want %v", tc.game, tc.fen, tc.text, got, err, tc.want)
			}
			continue
		}
		var me *rules.MoveError
		if len(ms) != 0 || !errors.As(err, &me) || me.Kind != tc.kind {
			t.Errorf("%s %q %s: %v, %v; want a %s error", tc.game, tc.fen, tc.text, got, err, tc.kind)
		}
	}
}
