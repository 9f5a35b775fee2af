package dames_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/plateau/plateau/rules"
)

// play parses and plays moves; it returns the position and the first error.
func play(t *testing.T, game, fen string, moves ...string) (rules.Position, error) {
	t.Helper()
	p := mustPos(t, game, fen)
	for _, mv := range moves {
		m, err := p.ParseMove(mv)
		if err != nil {
			return p, err
		}
		p.Play(m)
	}
	return p, nil
}

func legalTexts(p rules.Position) []string {
	var out []string
	for _, m := range p.Legal(nil) {
		out = append(out, p.FormatMove(m))
	}
	return out
}

// sentenceCase is one rule sentence: moves played from a position (the
// start when fen is empty), and the position they reach or the illegal-move
// error they meet.
type sentenceCase struct {
	sentence string
	game     string
	fen      string
	moves    []string
	want     string // FEN after the moves, or "" when wantRule or wantKind is set
	wantRule string // the rule of the expected illegal-move error
	wantKind rules.MoveErrorKind
}

// runSentences runs one subtest per sentence, named by it. Every move error
// must wrap rules.ErrMove.
func runSentences(t *testing.T, tests []sentenceCase) {
	for _, tc := range tests {
		t.Run(tc.sentence, func(t *testing.T) {
			p, err := play(t, tc.game, tc.fen, tc.moves...)
			if tc.wantRule != "" || tc.wantKind != 0 {
				var me *rules.MoveError
				if !errors.As(err, &me) {
					t.Fatalf("got %v (%s), want a move error", err, p)
				}
				if !errors.Is(err, rules.ErrMove) {
					t.Errorf("%v does not wrap ErrMove", err)
				}
				if tc.wantRule != "" && me.Rule != tc.wantRule {
					t.Errorf("rule %q, want %q (%v)", me.Rule, tc.wantRule, err)
				}
				if tc.wantKind != 0 && me.Kind != tc.wantKind {
					t.Errorf("kind %v, want %v (%v)", me.Kind, tc.wantKind, err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := p.String(); got != tc.want {
				t.Errorf("position %s, want %s", got, tc.want)
			}
		})
	}
}

// One row per sentence of dames.fr.txt (and of DESIGN.md for draughts).
var ruleSentences = []sentenceCase{
	{sentence: "Ils les placent chacun sur les cases noires des quatre premières rangées",
		game: "dames", want: "B:W31-50:B1-20"},
	{sentence: "Le joueur qui a les pions noirs commence la partie.",
		game: "dames", moves: []string{"32-28"}, wantRule: "not your piece"},
	{sentence: "Le joueur qui a les pions noirs commence la partie (Black's first move).",
		game: "dames", moves: []string{"17-21"}, want: "W:W31-50:B1-16,18-21"},
	{sentence: "draughts: White moves first",
		game: "draughts", moves: []string{"32-28"}, want: "B:W28,31,33-50:B1-20"},
	{sentence: "on déplace l'un de ses pions d'une case vers l'avant en diagonale (not two squares)",
		game: "dames", moves: []string{"17-26"}, wantRule: "one square"},
	{sentence: "on déplace l'un de ses pions d'une case vers l'avant en diagonale (not straight)",
		game: "dames", moves: []string{"17-27"}, wantRule: "not a diagonal move"},
	{sentence: "On ne peut pas placer de pion sur une case qu'on occupe déjà soi-même",
		game: "dames", moves: []string{"12-17"}, wantRule: "occupied square"},
	{sentence: "ou occupée par un pion adverse",
		game: "dames", fen: "B:W28:B22", moves: []string{"22-28"}, want: "", wantRule: "occupied square"},
	{sentence: "S'il y a une case libre derrière un pion adverse, on doit sauter par-dessus ce pion et enlever le pion",
		game: "dames", fen: "B:W28,40:B22", moves: []string{"22x33"}, want: "W:W40:B33"},
	{sentence: "On peut aussi sauter par-dessus plusieurs pions (aussi en changeant de direction)",
		game: "dames", fen: "B:W28,39,45:B22", moves: []string{"22x33x44"}, want: "W:W45:B44"},
	{sentence: "On peut aussi sauter par-dessus plusieurs pions (short form)",
		game: "dames", fen: "B:W28,39,45:B22", moves: []string{"22x44"}, want: "W:W45:B44"},
	{sentence: "si les cases derrière ceux-ci sont toutes libres (the sequence is completed)",
		game: "dames", fen: "B:W28,39,45:B22", moves: []string{"22x33"}, wantRule: "capture not completed"},
	// The text is silent on where a king lands; Plateau completes the
	// sequence as the 8×8 families' rules say (doc.go): from 37 the
	// king takes 31, from 32 or beyond it takes nothing more.
	{sentence: "la dame peut aussi exécuter des sauts successifs (it lands where the capture goes on)",
		game: "dames", fen: "W:WK46:B41,31", moves: []string{"46x32"}, wantRule: "capture not completed"},
	{sentence: "la dame peut aussi exécuter des sauts successifs (through 37)",
		game: "dames", fen: "W:WK46:B41,31", moves: []string{"46x26"}, want: "B:WK26:B"},
	{sentence: "On retire du damier tous les pions par-dessus lesquels on a sauté.",
		game: "draughts", fen: "W:W45:B40,29,18,17,27,38", moves: []string{"45x34x23x12x21x32x43"}, want: "B:W43:B"},
	{sentence: "On ne peut pas déplacer un pion en arrière",
		game: "dames", fen: "B:W45:B22", moves: []string{"22-17"}, wantRule: "men move forward"},
	{sentence: "mais on peut sauter en arrière",
		game: "dames", fen: "B:W17:B22", moves: []string{"22x11"}, want: "W:W:B11"},
	{sentence: "Lorsqu'on atteint avec un pion la première rangée de l'adversaire, ce pion devient une dame.",
		game: "dames", fen: "B:W50:B41", moves: []string{"41-46"}, want: "W:W50:BK46"},
	{sentence: "devient une dame (White crowns on 1–5)",
		game: "draughts", fen: "W:W7:B30", moves: []string{"7-2"}, want: "B:WK2:B30"},
	{sentence: "a man crowns only when its move ends on the far row (passing it mid-capture does not)",
		game: "draughts", fen: "W:W12:B8,9,19", moves: []string{"12x3x14x23"}, want: "B:W23:B"},
	{sentence: "Une dame peut se déplacer en avant et en arrière d'un nombre quelconque de cases",
		game: "dames", fen: "B:W50:BK46", moves: []string{"46-5"}, want: "W:W50:BK5"},
	{sentence: "pourvu que celles-ci soient libres",
		game: "dames", fen: "B:W50:BK46,28", moves: []string{"46-5"}, wantRule: "path blocked"},
	{sentence: "Si la dame veut prendre, elle ne doit pas forcément se trouver directement à côté du pion adverse.",
		game: "dames", fen: "B:W28:BK5", moves: []string{"5x46"}, want: "W:W:BK46"},
	{sentence: "Elle peut prendre dans toutes les directions, mais la case qui se trouve directement derrière le pion adverse doit être libre.",
		game: "dames", fen: "B:W28,32,11:BK5", moves: []string{"5x32"}, wantRule: "no capture"},
	{sentence: "la dame peut aussi exécuter des sauts successifs",
		game: "dames", fen: "B:W28,38:BK5", moves: []string{"5x32x43"}, want: "W:W:BK43"},
	{sentence: "et peut être capturée comme tous les autres pions",
		game: "dames", fen: "W:W33:BK28", moves: []string{"33x22"}, want: "B:W22:B"},
	{sentence: "Il est possible de posséder plusieurs dames.",
		game: "dames", fen: "B:W50:BK46,40", moves: []string{"40-45"}, want: "W:W50:B45,K46"},
	{sentence: "Si un joueur peut prendre un pion, il doit le faire. (draughts: illegal)",
		game: "draughts", fen: "W:W32:B27,2", moves: []string{"32-28"}, wantRule: "capture is compulsory"},
	{sentence: "Au cas où il y aurait plusieurs possibilités, il peut choisir quel pion il capture. (dames: no majority)",
		game: "dames", fen: "B:W28,39,30:B22,24", moves: []string{"24x35"}, want: "W:W28,39:B22,35"},
	{sentence: "draughts: the FMJD majority rule",
		game: "draughts", fen: "B:W28,39,30:B22,24", moves: []string{"24x35"}, wantRule: "majority capture"},
	{sentence: "draughts: the majority counts kings and men alike",
		game: "draughts", fen: "B:WK30,28,39:B22,24", moves: []string{"24x35"}, wantRule: "majority capture"},
	{sentence: "PDN captures with : as separator",
		game: "draughts", fen: "B:W28,39,45:B22", moves: []string{"22:33:44"}, want: "W:W45:B44"},
	{sentence: "PDN: a capture written with a hyphen is read when unambiguous",
		game: "draughts", fen: "B:W28,40:B22", moves: []string{"22-33"}, want: "W:W40:B33"},
	{sentence: "no square 51",
		game: "draughts", moves: []string{"46-51"}, wantKind: rules.Syntax},
	{sentence: "alphanumeric squares are not this notation",
		game: "draughts", moves: []string{"c3-d4"}, wantKind: rules.Syntax},
	{sentence: "Les moutons ne peuvent se déplacer qu'en avant",
		game: "loup-moutons", fen: "W:W26,29,30,32:B1", moves: []string{"26-31"}, wantRule: "men move forward"},
	{sentence: "tandis que le loup peut se déplacer en avant et en arrière",
		game: "loup-moutons", fen: "B:W29-32:B14", moves: []string{"14-10"}, want: "W:W29-32:B10"},
	{sentence: "On déplace toujours les pions d'une case en diagonale",
		game: "loup-moutons", fen: "B:W29-32:B14", moves: []string{"14-5"}, wantRule: "one square"},
	{sentence: "loup-moutons: no captures",
		game: "loup-moutons", fen: "B:W18,29-31:B14", moves: []string{"14x23"}, wantRule: "no captures"},
	{sentence: "On tire au sort pour savoir qui joue le loup (the wolf moves first)",
		game: "loup-moutons", moves: []string{"1-6"}, want: "W:W29-32:B6"},
}

// TestRuleSentences plays ruleSentences.
func TestRuleSentences(t *testing.T) { runSentences(t, ruleSentences) }

func TestOutcomes(t *testing.T) {
	tests := []struct {
		sentence, game, fen string
		over                bool
		result, reason      string
	}{
		{"Le joueur qui a pris tous les pions de l'adversaire … a gagné", "dames", "W:W:B12", true, "0-1", "no pieces left"},
		{"ou qui a bloqué ses pions … a gagné", "dames", "W:W46:B41,37", true, "0-1", "blocked"},
		{"draughts results are 2-0 / 0-2", "draughts", "B:W30:B", true, "2-0", "no pieces left"},
		{"draughts blocked", "draughts", "B:W41,37:B46", true, "2-0", "blocked"},
		{"Dames de brigand: gagnera le premier qui aura perdu tous ses pions", "dames-brigand", "W:W:B12", true, "1-0", "no pieces left"},
		{"Dames de brigand: a blocked side wins", "dames-brigand", "W:W46:B41,37", true, "1-0", "blocked"},
		{"not over at the start", "dames", "", false, "", ""},
		{"Et le loup essaie de … atteindre une case située derrière eux. S'il y parvient, il gagne", "loup-moutons", "W:W21,22,23,24:B26", true, "0-1", "wolf behind the sheep"},
		{"the wolf level with the last sheep has not won yet", "loup-moutons", "W:W21,22,23,28:B26", false, "", ""},
		{"a wolf on the last row is behind every sheep", "loup-moutons", "B:W22,23,26,27:B30", true, "0-1", "wolf behind the sheep"},
		{"the wolf trapped", "loup-moutons", "B:W1,9,30,31:B5", true, "1-0", "wolf trapped"},
		{"blocked sheep lose", "loup-moutons", "W:W1,2,3,6:B5", true, "0-1", "sheep blocked"},
	}
	for _, tc := range tests {
		t.Run(tc.sentence, func(t *testing.T) {
			g, _ := rules.Lookup(tc.game)
			p, err := g.NewPosition(tc.fen)
			if err != nil {
				if tc.over || tc.result != "" {
					t.Fatal(err)
				}
				return
			}
			o := p.Outcome()
			if o.Over != tc.over || o.Result != tc.result || o.Reason != tc.reason {
				t.Errorf("outcome %+v, want %v %q %q", o, tc.over, tc.result, tc.reason)
			}
		})
	}
}

func TestCheckResult(t *testing.T) {
	tests := []struct {
		game, fen, result string
		ok                bool
	}{
		{"draughts", "", "*", true},
		{"draughts", "", "2-0", true},
		{"draughts", "", "1-0", true},
		{"draughts", "", "0-2", true},
		{"draughts", "", "1-1", true},
		{"draughts", "", "1/2-1/2", true},
		{"draughts", "", "4-6", false},
		{"dames", "", "1-1", false},
		{"dames", "", "0-1", true},
		{"draughts", "B:W30:B", "2-0", true},
		{"draughts", "B:W30:B", "1-0", true},
		{"draughts", "B:W30:B", "0-2", false},
		{"draughts", "B:W30:B", "1-1", false},
		{"draughts", "B:W30:B", "*", true},
		{"dames", "B:W30:B", "1-0", true},
		{"dames", "B:W30:B", "2-0", false},
		{"dames-brigand", "B:W30:B", "0-1", true},
		{"dames-brigand", "B:W30:B", "1-0", false},
		{"loup-moutons", "B:W1,9,30,31:B5", "1-0", true},
		{"loup-moutons", "B:W1,9,30,31:B5", "0-1", false},
		// PDN's reading grammar: a result "can be one of the chess results
		// 1-0, 1/2-1/2, 0-1, one of the results of international draughts
		// 2-0, 1-1, 0-2": the 8×8 families read both (corpus mrdrcd07,
		// a Czech team championship, scores 2-0 / 1-1 / 0-2).
		{"czech", "", "1-1", true},
		{"russian", "", "0-2", true},
		{"checkers", "", "2-0", true},
		{"czech", "", "4-6", false},
		// PDN 2.0 for checkers (pdn2.txt, 6.1.1.2.6 TERMINATOR): "1-0
		// indicating Black (Red) won the game", "0-1 indicating White won
		// the game": Black, the first mover, is named first. Black to move
		// without a piece has lost: White won, 0-1 (0-2 in points).
		{"checkers", "B:W30:B", "0-2", true},
		{"checkers", "B:W30:B", "2-0", false},
		{"checkers", "B:W30:B", "0-1", true},
		{"checkers", "B:W30:B", "1-0", false},
		{"checkers", "W:W:B1", "1-0", true},
		{"checkers", "W:W:B1", "0-1", false},
		{"pool", "B:W30:B", "0-1", true},
		{"pool", "B:W30:B", "1-0", false},
		// White first where the GameType's start colour is W.
		{"italian", "B:W30:B", "1-0", true},
		{"russian", "B:W30:B", "1-0", true},
		{"brazilian", "W:W:B1", "0-1", true},
		{"czech", "W:W:B1", "1-0", false},
		{"draughts", "B:W30:B", "2-0", true},
	}
	for _, tc := range tests {
		p := mustPos(t, tc.game, tc.fen)
		err := p.CheckResult(tc.result)
		if (err == nil) != tc.ok {
			t.Errorf("%s %q CheckResult(%q) = %v, want ok=%v", tc.game, tc.fen, tc.result, err, tc.ok)
		}
		if err != nil && !errors.Is(err, rules.ErrResult) {
			t.Errorf("%v does not wrap ErrResult", err)
		}
	}
}

// Si un joueur qui a effectué un déplacement en avant n'a pas remarqué qu'il
// pouvait prendre un pion adverse, l'autre joueur peut lui prendre son pion.
func TestHuffing(t *testing.T) {
	p := mustPos(t, "dames", "B:W28,45:B22,1")
	m, err := p.ParseMove("1-6")
	if err != nil {
		t.Fatalf("a fault is accepted in dames: %v", err)
	}
	info := p.Describe(m)
	if !strings.HasPrefix(info.Note, "fault: ignored a capture (22x33)") {
		t.Errorf("fault note %q", info.Note)
	}
	for _, lm := range p.Legal(nil) {
		if lm == m {
			t.Errorf("Legal lists the fault")
		}
	}
	before := p.Key()
	p.Play(m)
	if got := p.String(); got != "W:W28,45:B6,22:H22" {
		t.Errorf("after the fault: %s", got)
	}
	if len(p.Legal(nil)) == 0 || containsText(legalTexts(p), "H22") {
		t.Errorf("Legal must list normal moves and no huff: %v", legalTexts(p))
	}
	if _, err := p.ParseMove("H6"); err == nil {
		t.Errorf("H6 huffs a piece that could not capture")
	}
	h, err := p.ParseMove("H22")
	if err != nil {
		t.Fatal(err)
	}
	if hi := p.Describe(h); !hi.KeepsTurn || hi.Captures != 1 || hi.From != "22" {
		t.Errorf("huff info %+v", hi)
	}
	if p.FormatMove(h) != "H22" {
		t.Errorf("huff formats as %q", p.FormatMove(h))
	}
	p.Play(h)
	if got := p.String(); got != "W:W28,45:B6" || p.ToMove() != 0 {
		t.Errorf("after the huff: %s", got)
	}
	if p.Key() == before {
		t.Errorf("key unchanged")
	}
	if _, err := p.ParseMove("H6"); err == nil {
		t.Errorf("a second huff is accepted")
	}
	// The huff is only possible right after the fault.
	q, err := play(t, "dames", "B:W28,45:B22,1", "1-6", "45-40", "22x33")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := q.ParseMove("H33"); err == nil {
		t.Errorf("huff accepted long after the fault")
	}
	// The piece that should have captured and moved is huffed where it went.
	r, err := play(t, "dames", "B:W28,45:B22,1", "22-27", "H27")
	if err != nil {
		t.Fatal(err)
	}
	if r.String() != "W:W28,45:B1" {
		t.Errorf("after huffing the moved piece: %s", r)
	}
	// draughts: no faults, no huffs.
	if _, err := play(t, "draughts", "B:W28,45:B22,1", "1-6"); err == nil {
		t.Errorf("draughts accepts a move that ignores a capture")
	}
	// the position notation keeps the huff and round-trips it.
	s := mustPos(t, "dames", "W:W28,45:B6,22:H22")
	if _, err := s.ParseMove("H22"); err != nil {
		t.Errorf("huff from a FEN: %v", err)
	}
}

func containsText(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// « Le joueur qui a pris tous les pions de l'adversaire … a gagné la
// partie »: a huff that removes the faulter's last piece ends the game at
// once, although the huffer keeps the turn. In dames-brigand « gagnera le
// premier qui aura perdu tous ses pions »: the faulter wins.
func TestHuffTakesLastPiece(t *testing.T) {
	for _, tc := range []struct {
		game, win, lose string
	}{
		{"dames", "0-1", "1-0"},
		{"dames-brigand", "1-0", "0-1"},
	} {
		p, err := play(t, tc.game, "W:W33:B19,29", "33-28", "H28")
		if err != nil {
			t.Fatalf("%s: %v", tc.game, err)
		}
		if p.String() != "B:W:B19,29" {
			t.Errorf("%s: position %s", tc.game, p)
		}
		o := p.Outcome()
		if !o.Over || o.Result != tc.win || o.Reason != "no pieces left" {
			t.Errorf("%s: outcome %+v, want over %s (no pieces left)", tc.game, o, tc.win)
		}
		if err := p.CheckResult(tc.win); err != nil {
			t.Errorf("%s: %s refused: %v", tc.game, tc.win, err)
		}
		for _, r := range []string{tc.lose, "1/2-1/2"} {
			if err := p.CheckResult(r); err == nil {
				t.Errorf("%s: %s accepted after the huff took the last piece", tc.game, r)
			}
		}
		if len(p.Legal(nil)) == 0 {
			t.Errorf("%s: the position still has moves; Outcome alone ends the game", tc.game)
		}
	}
}
