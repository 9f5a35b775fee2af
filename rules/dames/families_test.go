package dames_test

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/plateau/plateau/rules"
	"github.com/plateau/plateau/rules/draw"
)

// One row per rule sentence of the 8×8 families (PDN GameType 21 English
// checkers, 22 Italian, 23 American pool, 25 Russian, 26 Brazilian, 29
// Czech), as the federations' rules state them. Italian squares are
// mirrored (1 the top-left corner); Russian, Brazilian and Czech moves are
// algebraic (a1 the bottom-left corner, square 29).
var familySentences = []sentenceCase{
	// who starts, the start position
	{sentence: "checkers: the pieces stand on the dark squares of the first three rows; Black moves first",
		game: "checkers", moves: []string{"9-13"}, want: "W:W21-32:B1-8,10-13"},
	{sentence: "checkers: White does not move first",
		game: "checkers", moves: []string{"22-18"}, wantRule: "not your piece"},
	{sentence: "italian: White moves first",
		game: "italian", moves: []string{"21-17"}, want: "B:W17,22-32:B1-12"},
	{sentence: "pool: Black moves first",
		game: "pool", moves: []string{"11-15"}, want: "W:W21-32:B1-10,12,15"},
	{sentence: "russian: White moves first (c3-d4)",
		game: "russian", moves: []string{"c3-d4"}, want: "B:W18,21,23-32:B1-12"},
	{sentence: "brazilian: White moves first",
		game: "brazilian", moves: []string{"c3-b4"}, want: "B:W17,21,23-32:B1-12"},
	{sentence: "czech: White moves first",
		game: "czech", moves: []string{"a3-b4"}, want: "B:W17,22-32:B1-12"},
	// men: forward steps, forward or backward captures
	{sentence: "checkers: a man moves one square diagonally forward",
		game: "checkers", fen: "B:W30:B18", moves: []string{"18-14"}, wantRule: "men move forward"},
	{sentence: "checkers: men capture forward only",
		game: "checkers", fen: "B:W14,30:B18", moves: []string{"18x9"}, wantRule: "no capture"},
	{sentence: "italian: men capture forward only",
		game: "italian", fen: "W:W13:B17,1", moves: []string{"13x21"}, wantRule: "no capture"},
	{sentence: "czech: men capture forward only",
		game: "czech", fen: "W:W14:B18,1", moves: []string{"c5xe3"}, wantRule: "no capture"},
	{sentence: "pool: men capture backward",
		game: "pool", fen: "W:W14:B18,1", moves: []string{"14x23"}, want: "B:W23:B1"},
	{sentence: "russian: men capture backward",
		game: "russian", fen: "W:W14:B18,1", moves: []string{"c5:e3"}, want: "B:W23:B1"},
	{sentence: "brazilian: men capture backward",
		game: "brazilian", fen: "W:W14:B18,1", moves: []string{"c5xe3"}, want: "B:W23:B1"},
	// kings: short or flying
	{sentence: "checkers: a king moves one square in any direction",
		game: "checkers", fen: "B:W32:BK1", moves: []string{"1-10"}, wantRule: "one square"},
	{sentence: "checkers: a king moves backward",
		game: "checkers", fen: "B:W32:BK10", moves: []string{"10-6"}, want: "W:W32:BK6"},
	{sentence: "italian: a king moves one square",
		game: "italian", fen: "W:WK30:B1", moves: []string{"30-21"}, wantRule: "one square"},
	{sentence: "checkers: a king captures an adjacent piece only",
		game: "checkers", fen: "B:W15,32:BK1", moves: []string{"1x19"}, wantRule: "no capture"},
	{sentence: "pool: a king flies",
		game: "pool", fen: "B:W32:BK1", moves: []string{"1-10"}, want: "W:W32:BK10"},
	{sentence: "pool: a king captures at a distance",
		game: "pool", fen: "B:W15,32:BK1", moves: []string{"1x24"}, want: "W:W32:BK24"},
	{sentence: "russian: a king captures at a distance and lands on any free square beyond",
		game: "russian", fen: "W:WK29:B18", moves: []string{"a1:g7"}, want: "B:WK8:B"},
	{sentence: "czech: a king flies",
		game: "czech", fen: "W:WK29:B4", moves: []string{"a1-f6"}, want: "B:WK11:B4"},
	// A flying king jumping a piece lands on a square from which the
	// capture goes on, when one exists beyond that piece. Russian: "If
	// there is more than one unoccupied square beyond the jumped piece,
	// the king must land on a square from which it is possible to
	// continue jumping, if such a square exists in the chosen direction"
	// (GoldToken's Russian checkers rules, quoted as the rule of every
	// Russian textbook in brainking.com's Russian checkers forum,
	// Board?bc=10&plla=1044606). Pool: "captures are compulsory and a
	// player can only stop on a square where there is nothing more to
	// capture" (checkershistory.com, "Pool Checkers Variant"). Czech:
	// "the player may choose to capture either one piece or the entire
	// line; partial line captures are not allowed" (Wikipedia, "Czech
	// draughts", Capture rules). a1 takes c3; from d4 it goes on over e3.
	{sentence: "russian: a king lands where its capture goes on, not beyond",
		game: "russian", fen: "W:WK29:B22,23", moves: []string{"a1:e5"}, wantRule: "capture not completed"},
	{sentence: "russian: nor on the far corner",
		game: "russian", fen: "W:WK29:B22,23", moves: []string{"a1:h8"}, wantRule: "capture not completed"},
	{sentence: "russian: the king lands on d4 and goes on",
		game: "russian", fen: "W:WK29:B22,23", moves: []string{"a1:g1"}, want: "B:WK32:B"},
	{sentence: "russian: and may land anywhere beyond the last piece",
		game: "russian", fen: "W:WK29:B22,23", moves: []string{"a1:d4:f2"}, want: "B:WK27:B"},
	{sentence: "pool: a king lands where its capture goes on",
		game: "pool", fen: "W:WK29:B22,23", moves: []string{"29x15"}, wantRule: "capture not completed"},
	{sentence: "pool: the king goes on from 18",
		game: "pool", fen: "W:WK29:B22,23", moves: []string{"29x32"}, want: "B:WK32:B"},
	{sentence: "czech: a king lands where its capture goes on",
		game: "czech", fen: "W:WK29:B22,23", moves: []string{"a1xf6"}, wantRule: "capture not completed"},
	{sentence: "czech: the king goes on from d4",
		game: "czech", fen: "W:WK29:B22,23", moves: []string{"a1xf2"}, want: "B:WK27:B"},
	// Russian: a man crowned on d8 goes on as a king over e7, and must
	// land on g5, from which it takes f4.
	{sentence: "russian: a man crowned mid-capture lands as a king where the capture goes on",
		game: "russian", fen: "W:W9:B6,7,19", moves: []string{"b6:d8:h4"}, wantRule: "capture not completed"},
	{sentence: "russian: the crowned man goes on from g5",
		game: "russian", fen: "W:W9:B6,7,19", moves: []string{"b6:e3"}, want: "B:WK23:B"},
	// capture is compulsory
	{sentence: "checkers: capture is compulsory",
		game: "checkers", fen: "W:W22:B18", moves: []string{"22-17"}, wantRule: "capture is compulsory"},
	{sentence: "russian: capture is compulsory",
		game: "russian", fen: "W:W22:B18", moves: []string{"c3-b4"}, wantRule: "capture is compulsory"},
	{sentence: "checkers: a sequence must be completed",
		game: "checkers", fen: "W:W22:B18,11", moves: []string{"22x15"}, wantRule: "capture not completed"},
	// choice among captures
	{sentence: "checkers: any capture may be chosen, even the shorter one",
		game: "checkers", fen: "W:W22:B17,18,11", moves: []string{"22x13"}, want: "B:W13:B11,18"},
	{sentence: "russian: any capture may be chosen (no majority rule)",
		game: "russian", fen: "W:W22:B17,18,11", moves: []string{"c3:a5"}, want: "B:W13:B11,18"},
	{sentence: "brazilian: the capture taking the most pieces is compulsory",
		game: "brazilian", fen: "W:W22:B17,18,11", moves: []string{"c3xa5"}, wantRule: "majority capture"},
	{sentence: "brazilian: majority capture taken",
		game: "brazilian", fen: "W:W22:B17,18,11", moves: []string{"c3xg7"}, want: "B:W8:B17"},
	{sentence: "brazilian: kings and men count alike",
		game: "brazilian", fen: "W:W22:BK17,18,11", moves: []string{"c3xa5"}, wantRule: "majority capture"},
	{sentence: "czech: a king must capture rather than a man",
		game: "czech", fen: "W:W22,K32:B18,27", moves: []string{"c3xe5"}, wantRule: "capture precedence"},
	{sentence: "czech: the king's capture",
		game: "czech", fen: "W:W22,K32:B18,27", moves: []string{"g1xc5"}, want: "B:WK14,22:B"},
	// Italian
	{sentence: "italian: a man cannot capture a king",
		game: "italian", fen: "W:W22:BK18", moves: []string{"22x13"}, wantRule: "no capture"},
	{sentence: "italian: a man captures a man",
		game: "italian", fen: "W:W22:B18", moves: []string{"22x13"}, want: "B:W13:B"},
	{sentence: "italian: a man that cannot capture the king steps",
		game: "italian", fen: "W:W22:BK18", moves: []string{"22-19"}, want: "B:W19:BK18"},
	{sentence: "italian: the capture taking the most pieces is compulsory",
		game: "italian", fen: "W:W22:B18,19,11", moves: []string{"22x13"}, wantRule: "capture precedence"},
	{sentence: "italian: most pieces taken",
		game: "italian", fen: "W:W22:B18,19,11", moves: []string{"22x6"}, want: "B:W6:B18"},
	{sentence: "italian: with equal numbers, the king must capture",
		game: "italian", fen: "W:W22,K27:B18,23", moves: []string{"22x13"}, wantRule: "capture precedence"},
	{sentence: "italian: the king captures",
		game: "italian", fen: "W:W22,K27:B18,23", moves: []string{"27x20"}, want: "B:WK20,22:B18"},
	{sentence: "italian: then the capture taking the most kings",
		game: "italian", fen: "W:WK27:BK22,23", moves: []string{"27x20"}, wantRule: "capture precedence"},
	{sentence: "italian: the king is taken",
		game: "italian", fen: "W:WK27:BK22,23", moves: []string{"27x18"}, want: "B:WK18:B23"},
	{sentence: "italian: then the capture meeting a king first",
		game: "italian", fen: "W:WK27:BK22,13,23,K15", moves: []string{"27x11"}, wantRule: "capture precedence"},
	{sentence: "italian: the king met first",
		game: "italian", fen: "W:WK27:BK22,13,23,K15", moves: []string{"27x9"}, want: "B:WK9:BK15,23"},
	// crowning during a capture
	{sentence: "checkers: a man reaching the far row is crowned and its move ends",
		game: "checkers", fen: "W:W10:B7,8", moves: []string{"10x3"}, want: "B:WK3:B8"},
	{sentence: "italian: crowning ends the move",
		game: "italian", fen: "W:W10:B6,7", moves: []string{"10x3"}, want: "B:WK3:B7"},
	{sentence: "russian: a man crowned during a capture goes on capturing as a king",
		game: "russian", fen: "W:W11:B7,9", moves: []string{"f6:a5"}, want: "B:WK13:B"},
	{sentence: "russian: and must go on",
		game: "russian", fen: "W:W11:B7,9", moves: []string{"f6:d8"}, wantRule: "capture not completed"},
	{sentence: "pool: a man passing the far row during a capture goes on as a man",
		game: "pool", fen: "W:W10:B7,8", moves: []string{"10x12"}, want: "B:W12:B"},
	{sentence: "pool: a man ending on the far row is crowned",
		game: "pool", fen: "W:W11:B7,9", moves: []string{"11x2"}, want: "B:WK2:B9"},
	{sentence: "brazilian: a man passing the far row goes on as a man",
		game: "brazilian", fen: "W:W10:B7,8", moves: []string{"d6xh6"}, want: "B:W12:B"},
}

// TestFamilySentences plays familySentences.
func TestFamilySentences(t *testing.T) { runSentences(t, familySentences) }

// Canonical moves: numeric with x in checkers, italian and pool; algebraic
// with ":" in russian and "x" in brazilian and czech.
func TestFamilyNotation(t *testing.T) {
	tests := []struct {
		game, fen, move, want string
	}{
		{"checkers", "", "9-13", "9-13"},
		{"checkers", "W:W22:B18,11", "22x8", "22x8"},
		{"checkers", "W:W22:B18,11", "22x15x8", "22x8"},
		{"russian", "", "c3-d4", "c3-d4"},
		{"russian", "", "22-18", "c3-d4"},
		{"russian", "W:W22:B18,11", "c3xg7", "c3:g7"},
		{"russian", "W:W22:B18,11", "c3:e5:g7", "c3:g7"},
		{"brazilian", "W:W22:B18,11", "c3:g7", "c3xg7"},
		{"czech", "W:W22:B18,11", "c3xe5xg7", "c3xg7"},
		{"italian", "W:W22:B18", "22-13", "22x13"},
		// PDN grammar.rst: "In alpha-numeric moves the separator may be
		// omitted, so a3b4 is allowed"; without one, a capture is the one
		// capture between the squares.
		{"russian", "", "c3d4", "c3-d4"},
		{"brazilian", "", "a3b4", "a3-b4"},
		{"czech", "", "g3h4", "g3-h4"},
		{"russian", "W:W22:B18", "c3e5", "c3:e5"},
		{"brazilian", "W:W22:B18", "c3e5", "c3xe5"},
	}
	for _, tc := range tests {
		p := mustPos(t, tc.game, tc.fen)
		m, err := p.ParseMove(tc.move)
		if err != nil {
			t.Errorf("%s %q %s: %v", tc.game, tc.fen, tc.move, err)
			continue
		}
		if got := p.FormatMove(m); got != tc.want {
			t.Errorf("%s %q %s: canonical %s, want %s", tc.game, tc.fen, tc.move, got, tc.want)
		}
	}
}

// PDN FENs of the 8×8 families: numeric squares 1–32 (alphanumeric ones too
// in the algebraic families), written numeric.
func TestFamilyFEN(t *testing.T) {
	tests := []struct {
		game, fen, want string // want "" for an error
	}{
		{"checkers", "", "B:W21-32:B1-12"},
		{"italian", "", "W:W21-32:B1-12"},
		{"russian", "", "W:W21-32:B1-12"},
		{"checkers", "W:WK27,K23:BK28,12.", "W:WK23,K27:B12,K28"},
		{"checkers", "B:W21-32:B1-12", "B:W21-32:B1-12"},
		{"checkers", "W:W33:B1", ""},
		{"russian", "W:Wa1,c1,Kh2:Bh8", "W:WK28,29,30:B4"},
		{"russian", "W:Wa2:Bh8", ""},
		{"checkers", "W:Wa1:B4", ""},
		{"russian", "W:W29,30,31,32,25,26,27,28,21,22,23,24:B9,10,11,12,5,6,7,8,1,2,3,4.", "W:W21-32:B1-12"},
		{"italian", "?:W21:B1", "W:W21:B1"},
		{"checkers", "?:W21:B1", "B:W21:B1"},
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
		if got := p.String(); got != tc.want {
			t.Errorf("%s %q: %s, want %s", tc.game, tc.fen, got, tc.want)
		}
	}
}

// The PDN GameType numbers find the rulesets.
func TestFamilyGameTypes(t *testing.T) {
	for gt, id := range map[string]string{"21": "checkers", "22": "italian", "23": "pool", "25": "russian", "26": "brazilian", "29": "czech",
		"21,B,8,8,N1,0": "checkers", "22,W,8,8,N2,1": "italian", "25,W,8,8,A0,0": "russian"} {
		g, err := rules.Lookup(gt)
		if err != nil || g.ID() != id {
			t.Errorf("Lookup(%q) = %v, %v; want %s", gt, g, err, id)
		}
	}
}

// Side order. PDN 2.0 for checkers (pdn2.txt, 6.1.1.1.1.5 RESULT_TEXT):
// "[Result "1-0"] indicating Black (Red) won the game", "[Result "0-1"]
// indicating White won the game"; PDN 3.0 (pdntags.rst) defines the Result
// "see [Nemesis]", that document. Plateau names first the side the
// GameType's start colour names (gametype.rst: "Start-colour: Either W or
// B - white/black side starts"): its Sides, the Result's order, ToMove,
// Board, Layout and the drawing's colours agree. Every GameType of the
// table that this package plays is checked.
func TestSideOrder(t *testing.T) {
	starts := map[string]string{"20": "W", "21": "B", "22": "W", "23": "B", "24": "W", "25": "W", "26": "W",
		"27": "W", "28": "W", "29": "W", "30": "W", "31": "B", "40": "W", "41": "W"}
	colour := map[string]string{"W": "White", "B": "Black"}
	for gt, start := range starts {
		g, err := rules.Lookup(gt)
		if err != nil {
			continue
		}
		if got := g.Sides()[0]; got != colour[start] {
			t.Errorf("GameType %s (%s): side 0 is %s, want %s", gt, g.ID(), got, colour[start])
		}
	}
	// The Schmidt games and loup-moutons are no PDN GameType: White first
	// (DESIGN.md), although Black moves first.
	for _, id := range []string{"dames", "dames-brigand", "loup-moutons"} {
		g, _ := rules.Lookup(id)
		if g.Sides() != [2]string{"White", "Black"} {
			t.Errorf("%s sides %v", id, g.Sides())
		}
	}
	for _, g := range rules.Games() {
		d, ok := g.(interface {
			Drawing(rules.Position) draw.Board
		})
		if !ok || !strings.HasPrefix(reflect.TypeOf(g).String(), "*dames.") {
			continue
		}
		sides := g.Sides()
		side := map[string]rules.Side{sides[0]: 0, sides[1]: 1}
		p := mustPos(t, g.ID(), "")
		first := "White"
		if strings.HasPrefix(p.String(), "B") {
			first = "Black"
		}
		if got := sides[p.ToMove()]; got != first {
			t.Errorf("%s: ToMove names %s, the FEN %s", g.ID(), got, p.String())
		}
		cells := p.(rules.Cells)
		board := make([]byte, 128)
		cells.Cells(board, nil)
		lay := cells.Layout()
		for _, pl := range p.Board() {
			// White holds the bottom half of the board (naive_test.go
			// finds the square's row from the ruleset's numbering).
			want := "Black"
			if rl := nRulesOf(g.ID()); func() bool { r, _ := rl.nParse(pl.Square); return r >= rl.h/2 }() {
				want = "White"
			}
			if sides[pl.Side] != want {
				t.Errorf("%s: Board says %s on %s, want %s", g.ID(), sides[pl.Side], pl.Square, want)
			}
			i := slices.Index(lay.Squares, pl.Square)
			if code := lay.Codes[board[i]]; code.Side != pl.Side {
				t.Errorf("%s: Layout says side %d on %s, Board %d", g.ID(), code.Side, pl.Square, pl.Side)
			}
		}
		b := d.Drawing(nil)
		if b.Colors[side["Black"]] != "#222" || b.Colors[side["White"]] != "#fafafa" {
			t.Errorf("%s: colours %v for sides %v", g.ID(), b.Colors, sides)
		}
		for _, gl := range b.Glyphs {
			if c := strings.ToLower(gl.Text); (c == "w" || c == "s") != (sides[gl.Side] == "White") {
				t.Errorf("%s: glyph %q for side %s", g.ID(), gl.Text, sides[gl.Side])
			}
		}
	}
}
