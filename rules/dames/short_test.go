package dames_test

import (
	"errors"
	"slices"
	"testing"

	"github.com/plateau/plateau/rules"
)

// Russian short notation, as Russian draughts literature writes games
// ("1. cd4 fg5 2. bc3 gh4 … 4. dc5 b:d4 5. e:c5"): the file of the origin,
// then the destination; a capture may be marked with : or x and may name
// landing squares.
func TestShortNotation(t *testing.T) {
	tests := []struct {
		game, fen, move string
		want            string // canonical move, or "" for an error
		kind            rules.MoveErrorKind
		rule            string   // of an Illegal error
		cands           []string // of an Ambiguous error
	}{
		{game: "russian", move: "cd4", want: "c3-d4"},
		{game: "russian", move: "ed4", want: "e3-d4"},
		{game: "russian", move: "ab4", want: "a3-b4"},
		{game: "russian", move: "gh4", want: "g3-h4"},
		{game: "brazilian", move: "cb4", want: "c3-b4"},
		{game: "czech", move: "gf4", want: "g3-f4"},
		// captures, marked or not
		{game: "russian", fen: "W:W22:B18,1", move: "c:e5", want: "c3:e5"},
		{game: "russian", fen: "W:W22:B18,1", move: "ce5", want: "c3:e5"},
		{game: "russian", fen: "W:W22:B18,1", move: "cxe5", want: "c3:e5"},
		{game: "russian", fen: "W:W22:B18,11", move: "c:g7", want: "c3:g7"},
		{game: "russian", fen: "W:W22:B18,11", move: "c:e5:g7", want: "c3:g7"},
		// two pieces on the file reach the square
		{game: "russian", fen: "W:WK22,K14:B1", move: "cd4", kind: rules.Ambiguous, cands: []string{"c3-d4", "c5-d4"}},
		// two sequences from e1 to h4, told apart by a landing
		{game: "russian", fen: "W:WK31:B10,22,16,6,5", move: "e:h4", kind: rules.Ambiguous, cands: []string{"e1:a5:d8:h4", "e1:b4:e7:h4"}},
		{game: "russian", fen: "W:WK31:B10,22,16,6,5", move: "e:b4:h4", want: "e1:b4:e7:h4"},
		{game: "russian", fen: "W:WK31:B10,22,16,6,5", move: "e:d8:h4", want: "e1:a5:d8:h4"},
		{game: "russian", fen: "W:W10:B8,7,15,2,23", move: "d:d2", kind: rules.Ambiguous, cands: []string{"d6:f4:d2", "d6:f8:h6:d2"}},
		// errors: the long form's, when one piece stands on the file
		{game: "russian", fen: "W:W22:B18,1", move: "cb4", kind: rules.Illegal, rule: "capture is compulsory"},
		{game: "russian", move: "dd4", kind: rules.Illegal, rule: "not a diagonal move"},
		{game: "russian", fen: "W:W22:B1", move: "ad4", kind: rules.Illegal, rule: "empty file"},
		{game: "russian", move: "ce5", kind: rules.Illegal, rule: "no such move"},
		{game: "russian", move: "cd4e5", kind: rules.Syntax},
		{game: "russian", move: "c-d4-e5", kind: rules.Syntax},
		{game: "russian", move: "cd9", kind: rules.Syntax},
	}
	for _, tc := range tests {
		p := mustPos(t, tc.game, tc.fen)
		m, err := p.ParseMove(tc.move)
		if tc.want != "" {
			if err != nil {
				t.Errorf("%s %q %s: %v", tc.game, tc.fen, tc.move, err)
			} else if got := p.FormatMove(m); got != tc.want {
				t.Errorf("%s %q %s: %s, want %s", tc.game, tc.fen, tc.move, got, tc.want)
			}
			continue
		}
		var me *rules.MoveError
		if !errors.As(err, &me) {
			t.Errorf("%s %q %s: %v, want a move error", tc.game, tc.fen, tc.move, err)
			continue
		}
		if me.Kind != tc.kind || me.Rule != tc.rule || !slices.Equal(me.Candidates, tc.cands) || me.Text != tc.move {
			t.Errorf("%s %q %s: %s %q %v (%v), want %s %q %v", tc.game, tc.fen, tc.move, me.Kind, me.Rule, me.Candidates, err, tc.kind, tc.rule, tc.cands)
		}
	}
}

// The short form is read only where squares are algebraic; elsewhere a
// letter is no square, and the hint says what a square is in the ruleset.
func TestShortNotationNumeric(t *testing.T) {
	for _, tc := range []struct{ game, move, detail string }{
		{"checkers", "cd4", "squares are numbers (PDN numeric notation), not letters"},
		{"draughts", "ed4", "squares are numbers (PDN numeric notation), not letters"},
		{"russian", "22-d", "a square is a file letter and a rank (c3) or a PDN number; a short move is a file and a square (ed4)"},
	} {
		p := mustPos(t, tc.game, "")
		_, err := p.ParseMove(tc.move)
		var me *rules.MoveError
		if !errors.As(err, &me) || me.Kind != rules.Syntax || me.Detail != tc.detail {
			t.Errorf("%s %s: %v, want the hint %q", tc.game, tc.move, err, tc.detail)
		}
	}
}

// Every legal move of random Russian, Brazilian and Czech games written
// short (file, destination) reads back as itself or as an Ambiguous error
// listing it; with every landing written, it is itself.
func TestShortNotationRoundTrip(t *testing.T) {
	for _, game := range []string{"russian", "brazilian", "czech"} {
		for seed := uint64(1); seed <= 20; seed++ {
			p := mustPos(t, game, "")
			for ply := 0; ply < 120 && !p.Outcome().Over; ply++ {
				moves := p.Legal(nil)
				for _, m := range moves {
					checkShort(t, game, p, m)
				}
				p.Play(moves[int(seed*uint64(ply+7))%len(moves)])
			}
		}
	}
}

// checkShort: m written short reads as m or as an Ambiguous error naming
// m's canonical form; with its landings it reads as m.
func checkShort(t *testing.T, game string, p rules.Position, m rules.Move) {
	t.Helper()
	long := p.FormatMove(m)
	short := long[:1] + long[2:] // "c3-d4" → "c-d4", "e1:b4:h4" → "e:b4:h4"
	got, err := p.ParseMove(short)
	var me *rules.MoveError
	switch {
	case err == nil && got != m:
		t.Fatalf("%s %s: %s reads as %s", game, p, short, p.FormatMove(got))
	case err != nil && !(errors.As(err, &me) && me.Kind == rules.Ambiguous && slices.Contains(me.Candidates, long)):
		t.Fatalf("%s %s: %s (%s): %v", game, p, short, long, err)
	}
}
