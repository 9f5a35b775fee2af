package dames_test

import (
	"flag"
	"strings"
	"testing"

	"github.com/plateau/plateau/rules"
	"github.com/plateau/plateau/rules/draw"
)

// The families PDN 3.0 added (gametype.rst: 24 Spanish, 27 Canadian,
// 28 Portuguese, 30 Turkish, 31 Thai, 40 Frisian, 41 Spantsiretti) and the
// lidraughts variants (antidraughts, breakthrough, frysk).

// Positions both generators count (naive_test.go): the starts, then
// positions with kings where the rules of each family differ.
var nNewCrossPositions = []struct {
	game, fen string
	depth     int
}{
	{"spanish", "", 6},
	{"portuguese", "", 5},
	{"thai", "", 6},
	{"turkish", "", 5},
	{"spantsiretti", "", 5},
	{"canadian", "", 4},
	{"frisian", "", 5},
	{"frysk", "", 6},
	{"antidraughts", "", 4},
	{"breakthrough", "", 4},
	// Spanish: most pieces, then most kings; men take forward only
	{"spanish", "W:WK1,10,K18:B14,K15,22,K23,27,30", 4},
	{"spanish", "B:W9,10,K11,14,20,K22:B17,K23,25,26,K27", 4},
	// Thai: a king lands right behind, pieces leave at once, it may turn back
	{"thai", "W:WK29,K2:B25,18,11,14,22,7,15", 4},
	{"thai", "B:W9,K12,17,18,K23,26:BK5,K1,20,28,30", 4},
	// Turkish: orthogonal, immediate removal, no 180° turn, crowned mid-capture
	{"turkish", "W:Wd1,Kh1,c5,e4:Bd3,d5,f5,d7,b7,Kb2,g4,g6,c8", 4},
	{"turkish", "W:Wb6,e6,Ka1:Bb7,c7,d7,Kg2,a5,e3,e5", 4},
	{"turkish", "B:Wc2,d2,Kh4,f5:Bc3,d4,e6,Ka8,h7", 4},
	// Canadian: international rules on 12×12
	{"canadian", "W:WK72,60,61:B52,41,29,30,18,K5,20,7", 4},
	// Frisian: orthogonal captures, king value, the king's three moves
	{"frisian", "W:WK46,31,33:B36,26,16,K17,28,K39,40", 4},
	{"frisian", "B:W17,18,K22,27,33,38,K44:B8,K3,12,23,29,32", 4},
	{"frisian", "W:WK28,31:B10,K45:RW28/2", 4},
	{"frisian", "W:WK28,45:B6,K41", 7},
	{"frysk", "W:W46-50,K28:B1-5", 5},
	// Spantsiretti: Russian rules on 10 columns × 8 rows
	{"spantsiretti", "W:W21,K40:B16,17,27,K6", 4},
	// antidraughts and breakthrough: the end of the game
	{"antidraughts", "W:W46:B41,42", 3},
	{"breakthrough", "W:W7,8,33:B2,41,42,K50", 3},
	{"breakthrough", "W:W7,8,33:B2,41,42", 4},
}

var deep = flag.Bool("deep", false, "count the published perft figures beyond depth 6, and every start to depth 6 with the naive generator (minutes)")

// Perft from the start, to depth 6 (5 with -short; every published depth
// with -deep). Published figures: Spanish (and Portuguese, the same
// rules and board), Frisian and Canadian from Rein Halbersma's DCTL test
// tables, which cite the FMJD forum threads ("alternative game rules" and
// "perft on large boards", laatste.info); antidraughts and breakthrough play
// the moves of international draughts, whose published figures they share
// until a game ends (breakthrough's first king is deeper than depth 7).
// Turkish, Thai (from its own start: 8 men a side), Spantsiretti and frysk
// have none we know of: their figures are agreed by the naive generator
// (naive_test.go) to the depths of nNewCrossPositions and kept as regression
// figures.
func TestPerftPDN3(t *testing.T) {
	tests := []struct {
		game, fen string
		want      []uint64
		short     int // depths checked with -short
	}{
		{"spanish", "", []uint64{1, 7, 49, 302, 1469, 7361, 36473, 177532, 828783}, 7},
		{"portuguese", "", []uint64{1, 7, 49, 302, 1469, 7361, 36473, 177532}, 6},
		{"canadian", "", []uint64{1, 11, 121, 1222, 10053, 79049, 584100, 4369366}, 5},
		{"frisian", "", []uint64{1, 9, 81, 658, 3874, 21265, 102431, 540126}, 6},
		{"antidraughts", "", []uint64{1, 9, 81, 658, 4265, 27117, 167140, 1049442}, 6},
		{"breakthrough", "", []uint64{1, 9, 81, 658, 4265, 27117, 167140, 1049442}, 6},
		{"turkish", "", []uint64{1, 8, 64, 708, 7538, 85090, 931312}, 5},
		{"thai", "", []uint64{1, 7, 49, 392, 3136, 26592, 218695}, 6},
		{"spantsiretti", "", []uint64{1, 9, 81, 658, 4265, 27132, 168316}, 6},
		{"frysk", "", []uint64{1, 9, 81, 657, 5329, 41829, 328329}, 6},
	}
	for _, tc := range tests {
		p := mustPos(t, tc.game, tc.fen)
		for d := 1; d < len(tc.want); d++ {
			if testing.Short() && d > tc.short || !*deep && d > 6 {
				break
			}
			if got := rules.Perft(p, d); got != tc.want[d] {
				t.Errorf("%s perft(%d) = %d, want %d", tc.game, d, got, tc.want[d])
			}
		}
	}
}

// Thai rules on the English start (12 men a side, Black first), the position
// DCTL counts its Thai perft from: the figures equal English checkers' until
// kings arise, and differ from depth 9 (3,963,648 against 3,963,680).
func TestPerftThaiOnCheckersStart(t *testing.T) {
	want := []uint64{1, 7, 49, 302, 1469, 7361, 36768, 179740, 845931, 3963648}
	p := mustPos(t, "thai", "B:W1-12:B21-32")
	for d := 1; d < len(want); d++ {
		if testing.Short() && d > 6 || !*deep && d > 8 {
			break
		}
		if got := rules.Perft(p, d); got != want[d] {
			t.Errorf("perft(%d) = %d, want %d", d, got, want[d])
		}
	}
}

// One row per rule sentence of the new families, as their sources state it
// (the package doc names the sources).
var pdn3Sentences = []sentenceCase{
	// Spanish and Portuguese (PDN 24 and 28: square 1 White's bottom right)
	{sentence: "spanish: White moves first, men on 1–12, square 9 is h3",
		game: "spanish", moves: []string{"9-13"}, want: "B:W1-8,10-13:B21-32"},
	{sentence: "spanish: men capture forward only",
		game: "spanish", fen: "W:W14:B10,30", moves: []string{"14x5"}, wantRule: "no capture"},
	{sentence: "spanish: kings fly",
		game: "spanish", fen: "W:WK1:B30", moves: []string{"1-23"}, want: "B:WK23:B30"},
	{sentence: "spanish: with equal numbers, the capture taking the most kings (ley de calidad)",
		game: "spanish", fen: "W:W14:B19,K18", moves: []string{"14x23"}, wantRule: "capture precedence"},
	{sentence: "spanish: the king is taken",
		game: "spanish", fen: "W:W14:B19,K18", moves: []string{"14x21"}, want: "B:W21:B19"},
	{sentence: "portuguese: lei da qualidade",
		game: "portuguese", fen: "W:W14:B19,K18", moves: []string{"14x23"}, wantRule: "capture precedence"},
	// Canadian (PDN 27: international rules on 12×12)
	{sentence: "canadian: White moves first, 30 men a side",
		game: "canadian", moves: []string{"43-37"}, want: "B:W37,44-72:B1-30"},
	// Thai (PDN 31: Black first, square 1 White's g1)
	{sentence: "thai: Black moves first",
		game: "thai", moves: []string{"25-21"}, want: "W:W1-8:B21,26-32"},
	{sentence: "thai: White does not",
		game: "thai", moves: []string{"8-12"}, wantRule: "not your piece"},
	{sentence: "thai: a king lands on the square right behind the piece it takes",
		game: "thai", fen: "W:WK4:B15,32", moves: []string{"4-18"}, want: "B:WK18:B32"},
	{sentence: "thai: not further",
		game: "thai", fen: "W:WK4:B15,32", moves: []string{"4x22"}, wantRule: "not a capture"},
	{sentence: "thai: a piece taken leaves at once, and the king may turn back over its square",
		game: "thai", fen: "W:WK11:B15,8,32", moves: []string{"11-18-4"}, want: "B:WK4:B32"},
	{sentence: "thai: men capture forward only",
		game: "thai", fen: "W:W11:B8,32", moves: []string{"11x4"}, wantRule: "no capture"},
	// Turkish (PDN 30: every square, orthogonal moves)
	{sentence: "turkish: a man steps forward",
		game: "turkish", fen: "W:Wd4:Bh8", moves: []string{"d4-d5"}, want: "B:Wd5:Bh8"},
	{sentence: "turkish: or sideways",
		game: "turkish", fen: "W:Wd4:Bh8", moves: []string{"d4-e4"}, want: "B:We4:Bh8"},
	{sentence: "turkish: never backward",
		game: "turkish", fen: "W:Wd4:Bh8", moves: []string{"d4-d3"}, wantRule: "men move forward"},
	{sentence: "turkish: never diagonally",
		game: "turkish", fen: "W:Wd4:Bh8", moves: []string{"d4-e5"}, wantRule: "not an orthogonal move"},
	{sentence: "turkish: men capture sideways",
		game: "turkish", fen: "W:Wd4:Bd5,e4,h8", moves: []string{"d4xf4"}, want: "B:Wf4:Bh8,d5"},
	{sentence: "turkish: men do not capture backward",
		game: "turkish", fen: "W:Wd4:Bd3,h8", moves: []string{"d4xd2"}, wantRule: "no capture"},
	{sentence: "turkish: the capture taking the most pieces",
		game: "turkish", fen: "W:Wd4:Bd5,e4,f5,h8", moves: []string{"d4xd6"}, wantRule: "majority capture"},
	{sentence: "turkish: majority taken",
		game: "turkish", fen: "W:Wd4:Bd5,e4,f5,h8", moves: []string{"d4xf6"}, want: "B:Wf6:Bh8,d5"},
	{sentence: "turkish: a king moves any distance along a file",
		game: "turkish", fen: "W:WKa1:Bh8", moves: []string{"a1-a7"}, want: "B:WKa7:Bh8"},
	{sentence: "turkish: a king captures at a distance and lands on any square beyond",
		game: "turkish", fen: "W:WKa1:Ba5,h8", moves: []string{"a1xa7"}, want: "B:WKa7:Bh8"},
	{sentence: "turkish: pieces are removed as they are taken: the king lands where it took d3",
		game: "turkish", fen: "W:WKd1:Bd3,b6,a4,c3,h8", moves: []string{"d1xd6xa6xa3xd3"}, want: "B:WKd3:Bh8"},
	{sentence: "turkish: a man crowned during a capture goes on as a king",
		game: "turkish", fen: "W:Wc6:Bc7,e8,a1", moves: []string{"c6xh8"}, want: "B:WKh8:Ba1"},
	{sentence: "turkish: and must go on",
		game: "turkish", fen: "W:Wc6:Bc7,e8,a1", moves: []string{"c6xc8"}, wantRule: "capture not completed"},
	// Frisian (PDN 40) and frysk
	{sentence: "frisian: a man captures straight forward",
		game: "frisian", fen: "W:W33:B23,1", moves: []string{"33x13"}, want: "B:W13:B1"},
	{sentence: "frisian: and straight backward",
		game: "frisian", fen: "W:W28:B38,1", moves: []string{"28x48"}, want: "B:W48:B1"},
	{sentence: "frisian: a man moves diagonally forward only",
		game: "frisian", fen: "W:W33:B3", moves: []string{"33-23"}, wantRule: "not a diagonal move"},
	{sentence: "frisian: a king captures along a column at a distance",
		game: "frisian", fen: "W:WK46:B16,3", moves: []string{"46x6"}, want: "B:WK6:B3"},
	{sentence: "frisian: a king moves along the diagonals only",
		game: "frisian", fen: "W:WK46:B3", moves: []string{"46-36"}, wantRule: "not a diagonal move"},
	{sentence: "frisian: a king is worth more than a man",
		game: "frisian", fen: "W:W33:B28,K29", moves: []string{"33x22"}, wantRule: "capture precedence"},
	{sentence: "frisian: the king is taken",
		game: "frisian", fen: "W:W33:B28,K29", moves: []string{"33x24"}, want: "B:W24:B28"},
	{sentence: "frisian: two men are worth more than a king",
		game: "frisian", fen: "W:W33:B28,17,K29", moves: []string{"33x24"}, wantRule: "capture precedence"},
	{sentence: "frisian: the two men are taken",
		game: "frisian", fen: "W:W33:B28,17,K29", moves: []string{"33x11"}, want: "B:W11:BK29"},
	{sentence: "frisian: at equal value a king captures",
		game: "frisian", fen: "W:W33,K50:B28,44", moves: []string{"33x22"}, wantRule: "capture precedence"},
	{sentence: "frisian: the king's capture",
		game: "frisian", fen: "W:W33,K50:B28,44", moves: []string{"50x39"}, want: "B:W33,K39:B28"},
	{sentence: "frisian: a king may not move a fourth time in a row while its side has men",
		game: "frisian", fen: "W:WK28,45:B1,K16", moves: []string{"28-22", "16-21", "22-28", "21-16", "28-22", "16-21", "22-28"}, wantRule: "king moves"},
	{sentence: "frisian: another piece may move",
		game: "frisian", fen: "W:WK28,45:B1,K16", moves: []string{"28-22", "16-21", "22-28", "21-16", "28-22", "16-21", "45-40"}, want: "B:WK22,40:B1,K21:RB21/3"},
	{sentence: "frisian: the count is part of the position",
		game: "frisian", fen: "W:WK28,45:B1,K16:RW28/3", moves: []string{"28-22"}, wantRule: "king moves"},
	{sentence: "frisian: a side with only kings moves them freely",
		game: "frisian", fen: "W:WK28:B1,K16", moves: []string{"28-22", "16-21", "22-28", "21-16", "28-22", "16-21", "22-28"}, want: "B:WK28:B1,K21:RB21/3"},
	{sentence: "frysk: five men a side on the back rows",
		game: "frysk", moves: []string{"46-41"}, want: "B:W41,47-50:B1-5"},
	// Spantsiretti (PDN 41: Russian rules on 10 columns × 8 rows)
	{sentence: "spantsiretti: White moves first, files a–j",
		game: "spantsiretti", moves: []string{"c3-d4"}, want: "B:W22,26,28-40:B1-15"},
	{sentence: "spantsiretti: a man crowned during a capture goes on as a king",
		game: "spantsiretti", fen: "W:W13:B8,7,5", moves: []string{"f6:a5"}, want: "B:WK16:B5"},
	{sentence: "spantsiretti: and must go on",
		game: "spantsiretti", fen: "W:W13:B8,7,5", moves: []string{"f6:d8"}, wantRule: "capture not completed"},
}

// TestPDN3Sentences plays pdn3Sentences.
func TestPDN3Sentences(t *testing.T) { runSentences(t, pdn3Sentences) }

// The legal moves of positions where a Turkish or Thai rule removes some.
func TestPDN3LegalSets(t *testing.T) {
	tests := []struct {
		sentence, game, fen string
		want                []string
	}{
		{"turkish: no 180° turn between two captures", "turkish", "W:WKa4:Ba6,a2,h8", []string{"a4xa7", "a4xa8", "a4xa1"}},
		{"turkish: a man crowned mid-capture lands anywhere beyond as a king", "turkish", "W:Wc6:Bc7,e8,a1", []string{"c6xf8", "c6xg8", "c6xh8"}},
		{"thai: any capture may be chosen", "thai", "W:WK11:B15,8,32", []string{"11-4", "11-18"}},
		{"spantsiretti: a king lands anywhere beyond", "spantsiretti", "W:W13:B8,7,5", []string{"f6:b6", "f6:a5"}},
	}
	for _, tc := range tests {
		p := mustPos(t, tc.game, tc.fen)
		if got := strings.Join(legalTexts(p), " "); got != strings.Join(tc.want, " ") {
			t.Errorf("%s: legal %s, want %s", tc.sentence, got, strings.Join(tc.want, " "))
		}
	}
}

// How the new rulesets end.
func TestPDN3Outcomes(t *testing.T) {
	tests := []struct {
		sentence, game, fen string
		moves               []string
		result, reason      string // "" when not over
	}{
		{"antidraughts: lose all your pieces to win", "antidraughts", "W::B5", nil, "2-0", "no pieces left"},
		{"antidraughts: or run out of moves", "antidraughts", "W:W46:B41,37", nil, "2-0", "blocked"},
		{"antidraughts: not over at the start", "antidraughts", "", nil, "", ""},
		{"breakthrough: the first player who makes a king wins", "breakthrough", "W:W7,33:B40", []string{"7-2"}, "2-0", "crowned a king"},
		{"breakthrough: a side without moves loses", "breakthrough", "W:W46:B41,37", nil, "0-2", "blocked"},
		{"frisian: results are 1-0 (PDN's Default result type)", "frisian", "B:W30:B", nil, "1-0", "no pieces left"},
		{"frysk: results are lidraughts' points", "frysk", "B:W30:B", nil, "2-0", "no pieces left"},
		{"canadian: results are PDN points", "canadian", "B:W70:B", nil, "2-0", "no pieces left"},
		{"turkish: a side without pieces loses", "turkish", "W:Wa2:B", nil, "1-0", "no pieces left"},
	}
	for _, tc := range tests {
		t.Run(tc.sentence, func(t *testing.T) {
			p, err := play(t, tc.game, tc.fen, tc.moves...)
			if err != nil {
				t.Fatal(err)
			}
			o := p.Outcome()
			if o.Over != (tc.result != "") || o.Result != tc.result || o.Reason != tc.reason {
				t.Errorf("outcome %+v, want %q %q", o, tc.result, tc.reason)
			}
		})
	}
}

// FENs of the new families: numbering, algebraic squares, king runs.
func TestPDN3FEN(t *testing.T) {
	tests := []struct {
		game, fen, want string // want "" for an error
	}{
		{"spanish", "", "W:W1-12:B21-32"},
		{"thai", "", "B:W1-8:B25-32"},
		{"canadian", "W:W72:B1", "W:W72:B1"},
		{"canadian", "W:W73:B1", ""},
		{"spantsiretti", "W:Wj4,a1:Bb8", "W:W25,36:B1"},
		{"spantsiretti", "W:Wl4:Bb8", ""},
		{"turkish", "W:Wa1,Kh8:Bd4", "W:WKh8,a1:Bd4"},
		{"turkish", "W:W1:Bd4", ""},
		{"frisian", "W:WK28,45:B6,K41:RW28/2", "W:WK28,45:B6,K41:RW28/2"},
		{"frisian", "W:WK28,45:B6,K41:RW28/0", "W:WK28,45:B6,K41"},
		{"frisian", "W:WK28:B6,K41:RW28/2", ""},    // a side with only kings has no count
		{"frisian", "W:WK28,45:B6,K41:RW27/2", ""}, // no king there
		{"frisian", "W:WK28,45:B6,K41:RW28/4", ""}, // more than the limit
		{"draughts", "W:WK28,45:B6,K41:RW28/2", ""},
		// lidraughts' clocks after the pieces are read and ignored
		{"frysk", "W:W46,47,48,49,50:B1,2,3,4,5:H0:F1", "W:W46-50:B1-5"},
		{"draughts", "B:W31-50:B1-20:H12:F30", "B:W31-50:B1-20"},
		{"dames", "B:W31-50:B1-20:H0:F1", "B:W31-50:B1-20"},
		{"dames", "B:W31-50:B1-20:F1x", ""},
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

// PDN GameType numbers and full GameType strings find the new rulesets, and
// lidraughts' private numbers its variants.
func TestPDN3GameTypes(t *testing.T) {
	for gt, id := range map[string]string{"24": "spanish", "27": "canadian", "28": "portuguese", "30": "turkish", "31": "thai",
		"40": "frisian", "41": "spantsiretti", "96": "breakthrough", "97": "frysk", "98": "antidraughts",
		"24,W,8,8,N1,1": "spanish", "31,B,8,8,N2,0": "thai", "41,W,10,8,A0,0": "spantsiretti"} {
		g, err := rules.Lookup(gt)
		if err != nil || g.ID() != id {
			t.Errorf("Lookup(%q) = %v, %v; want %s", gt, g, err, id)
		}
	}
}

// The drawing of each new board comes from its geometry: its size, a named
// cell per square (dark, or every other cell where every cell plays), PDN
// numbers where the board has them, files and ranks where it is algebraic.
func TestPDN3Drawing(t *testing.T) {
	tests := []struct {
		game       string
		w, h, n    int
		cornerCell string // the name of the bottom-right cell, "" when it is no square
		label      string // the label of that cell
		files      string // the file letters written under the board
	}{
		{"spanish", 8, 8, 32, "1", "1", ""},
		{"thai", 8, 8, 32, "", "", ""},
		{"canadian", 12, 12, 72, "", "", ""},
		{"turkish", 8, 8, 64, "h1", "", "abcdefgh"},
		{"spantsiretti", 10, 8, 40, "", "", "abcdefghij"},
		{"frisian", 10, 10, 50, "", "", ""},
	}
	for _, tc := range tests {
		g, _ := rules.Lookup(tc.game)
		b := g.(interface {
			Drawing(rules.Position) draw.Board
		}).Drawing(nil)
		named, dark := 0, 0
		for _, c := range b.Cells {
			if c.Name != "" {
				named++
			}
			if c.Dark {
				dark++
			}
			if int(c.X) == tc.w-1 && int(c.Y) == tc.h-1 && (c.Name != tc.cornerCell || c.Label != tc.label) {
				t.Errorf("%s: bottom-right cell %q label %q, want %q %q", tc.game, c.Name, c.Label, tc.cornerCell, tc.label)
			}
		}
		files := ""
		for _, l := range b.Labels {
			if l.Y > float64(tc.h) {
				files += l.Text
			}
		}
		if b.W != tc.w || b.H != tc.h || named != tc.n || dark != tc.w*tc.h/2 || files != tc.files {
			t.Errorf("%s: %d×%d, %d squares, %d dark, files %q; want %d×%d, %d, %d, %q",
				tc.game, b.W, b.H, named, dark, files, tc.w, tc.h, tc.n, tc.w*tc.h/2, tc.files)
		}
	}
}
