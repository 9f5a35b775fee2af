package pdn3check_test

import (
	"errors"
	"testing"

	"github.com/plateau/plateau/internal/pdn3check"
)

// TestCheck: the examples of grammar.rst pass; each restriction the grammar
// enforces, and what it leaves out (results, ';' comments, nested
// comments), fails at the right place.
func TestCheck(t *testing.T) {
	tests := []struct {
		name string
		text string
		ok   bool
		line int // of the error
		col  int
	}{
		{"grammar.rst line comment example", "% Board game: International Draughts 10x10\n[Date \"2012.02.01\"]\n1. 32-28 19-23\n", true, 0, 0},
		{"grammar.rst comments", "{ Start of the game } 33-28 18-22 39-33? { This is a classical mistake }", true, 0, 0},
		{"grammar.rst nested variations", "32-28 19-23 (18-23 38-32 (37-32? 23-29! { Black wins }) 12-18) 28x19 14x23", true, 0, 0},
		{"grammar.rst setup", `/FEN "B:W18,24,27,28,K10,K15:B12,16,20,K22,K25,K29"/ 1. 27-22`, true, 0, 0},
		{"move strength in parentheses, NAGs", "1. 32-28(?) $1 $14 2... 19-23 *", true, 0, 0},
		{"alpha squares, no separator in captures", "1. a3-b4 b6xd4 *", true, 0, 0},
		{"two games, each ended by '*'", "[Event \"a\"]\n1. 32-28 *\n[Event \"b\"]\n*", true, 0, 0},
		{"a header alone", "[Event \"a \\\"quoted\\\" c:\\\\dir\"]\n", true, 0, 0},
		{"a result is no separator", "1. 32-28 2-0", false, 1, 10},
		{"a chess result", "[Result \"1-0\"]\n1. 32-28 1-0\n", false, 2, 10},
		{"a ';' comment", "1. 32-28 ;note\n*", false, 1, 10},
		{"a nested comment", "1. 32-28 {a {b} c} *", false, 1, 17},
		{"a blank in a move", "1. 32 - 28", false, 1, 4},
		{"a blank before a move strength", "1. 32-28 !", false, 1, 10},
		{"a leading zero", "1. 01-07", false, 1, 4},
		{"':' is no capture separator of the grammar", "1. 32:23", false, 1, 4},
		{"an empty game", "[Event \"a\"]\n*\n*", false, 3, 1},
		{"a lower-case tag name", "[event \"a\"]", false, 1, 2},
		{"a string that does not close (ends in a backslash)", "[Site \"c:\\\\\"]\n1. 32-28", false, 1, 7},
		{"a variation not closed", "1. 32-28 (32-27", false, 1, 16},
		{"nothing", "", false, 1, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := pdn3check.Check([]byte(tt.text))
			if tt.ok {
				if err != nil {
					t.Fatalf("Check: %v", err)
				}
				return
			}
			var e *pdn3check.Error
			if !errors.As(err, &e) || !errors.Is(err, pdn3check.ErrGrammar) {
				t.Fatalf("Check = %v, want an *Error", err)
			}
			if e.Line != tt.line || e.Col != tt.col {
				t.Errorf("error at %d:%d, want %d:%d (%v)", e.Line, e.Col, tt.line, tt.col, err)
			}
		})
	}
}

// TestMoveOf: each game's Move production reads its notation and refuses
// another game's.
func TestMoveOf(t *testing.T) {
	tests := []struct {
		game, move string
		ok         bool
	}{
		{"draughts", "32-28", true}, {"draughts", "19x28x37", true}, {"draughts", "P-e4", false},
		{"russian", "a5:c3", true}, {"spantsiretti", "i3-j4", true}, {"dames", "H27", true},
		{"ogi", "Pe3-e4", true}, {"ogi", "S*d4", true}, {"ogi", "+P*c5", true}, {"ogi", "Ie4xg3+", true}, {"ogi", "Bxg7=", true},
		{"jetan", "e10-h7", true}, {"jetan", "d3xa6", true}, {"dejarik", "o4-c", true}, {"dejarik", "c-o12", true},
		{"sauts", "G6-E4-C4-A2-A4", true}, {"sauts", "G6", false},
	}
	for _, tt := range tests {
		re := pdn3check.MoveOf(tt.game)
		if got := re.FindString(tt.move) == tt.move; got != tt.ok {
			t.Errorf("%s %q: %v, want %v", tt.game, tt.move, got, tt.ok)
		}
	}
}
