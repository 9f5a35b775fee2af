package dejarik_test

import (
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/plateau/plateau/rules"
	"github.com/plateau/plateau/rules/dejarik"
)

// open is a FEN tail where both sides have played (diagonal exits allowed).
const open = ":F-"

// moveCase is one sentence of the text about moves: from fen (the start
// when empty), the moves before are played, then move must break rule, or
// be legal, end on to with captures removed and, when after is given, leave
// that position.
type moveCase struct {
	sentence string
	fen      string
	before   []string // moves played first
	move     string
	rule     string // "" when legal
	to       string // final cell
	captures int
	after    string // position after, when given
}

// TestCentreSentences: the Dejarik (outer ring to the centre) and the
// inverse Dejarik (centre to the outer ring).
func TestCentreSentences(t *testing.T) {
	runMoveCases(t, []moveCase{
		{sentence: "Dejarik: couronne extérieure vers le centre",
			move: "o4-c", to: "c", after: "B:Wc,o1,o2,o3:Bo7,o8,o9,o10:FB"},
		{sentence: "Dejarik: il ne doit pas y avoir de pion sur la couronne intérieure empêchant l'accès à la case centrale",
			fen: "W:Wo1,o2,o3,o4:Bi4,o8,o9,o10" + open, move: "o4-c", rule: dejarik.RulePathBlocked},
		{sentence: "Dejarik: il ne peut en aucun cas y avoir deux pions sur une même case (centre pris)",
			fen: "W:Wo1,o2,o3,o4:Bc,o8,o9,o10" + open, move: "o4-c", rule: dejarik.RuleOccupied},
		{sentence: "Dejarik inverse: centre vers la couronne extérieure",
			fen: "W:Wc,o1,o2,o3:Bo7,o8,o9,o10" + open, move: "c-o6", to: "o6", after: "B:Wo1,o2,o3,o6:Bo7,o8,o9,o10:F-"},
		{sentence: "Dejarik inverse: il ne doit pas y avoir de pion sur la couronne intérieure empêchant l'accès",
			fen: "W:Wc,o1,o2,o3:Bi6,o8,o9,o10" + open, move: "c-o6", rule: dejarik.RulePathBlocked},
		{sentence: "Dejarik inverse: jamais deux pions sur une même case",
			fen: "W:Wc,o1,o2,o3:Bo7,o8,o9,o10" + open, move: "c-o8", rule: dejarik.RuleOccupied},
		{sentence: "Dejarik inverse: le centre ne va que vers la couronne extérieure",
			fen: "W:Wc,o1,o2,o3:Bo7,o8,o9,o10" + open, move: "c-i6", rule: dejarik.RuleNoSuchMove},
	})
}

// TestStraightExitSentences: exit 1, straight to the inner cell in front.
func TestStraightExitSentences(t *testing.T) {
	runMoveCases(t, []moveCase{
		{sentence: "Sortie 1) Droit: couronne extérieure vers la case de la couronne intérieure en face",
			move: "o1-i1", to: "i1", after: "B:Wi1,o2,o3,o4:Bo7,o8,o9,o10:FB"},
		{sentence: "Sortie droite: jamais deux pions sur une même case",
			fen: "W:Wo1,o2,o3,o4:Bi1,o8,o9,o10" + open, move: "o1-i1", rule: dejarik.RuleOccupied},
	})
}

// TestDiagonalExitSentences: exit 2, diagonal, not on a player's first turn.
func TestDiagonalExitSentences(t *testing.T) {
	runMoveCases(t, []moveCase{
		{sentence: "Sortie 2) En diagonale: couronne extérieure vers la couronne intérieure en diagonale",
			fen: "W:Wo1,o2,o3,o4:Bo7,o8,o9,o10" + open, move: "o4-i5", to: "i5"},
		{sentence: "Sortie 2) En diagonale, de l'autre côté",
			fen: "W:Wo1,o2,o3,o4:Bo7,o8,o9,o10" + open, move: "o1-i12", to: "i12"},
		{sentence: "Diagonale: il ne doit y avoir de pion ni devant",
			fen: "W:Wo1,o2,o3,o4:Bi4,o8,o9,o10" + open, move: "o4-i5", rule: dejarik.RulePathBlocked},
		{sentence: "Diagonale: ni sur la case destination",
			fen: "W:Wo1,o2,o3,o4:Bi5,o8,o9,o10" + open, move: "o4-i5", rule: dejarik.RuleOccupied},
		{sentence: "La sortie en diagonale n'est pas possible au premier tour de chaque joueur (Blanc)",
			move: "o4-i5", rule: dejarik.RuleFirstTurn},
		{sentence: "La sortie en diagonale n'est pas possible au premier tour de chaque joueur (Noir)",
			before: []string{"o1-i1"}, move: "o7-i6", rule: dejarik.RuleFirstTurn},
		{sentence: "La sortie en diagonale est possible après le premier tour",
			before: []string{"o1-i1", "o7-i7"}, move: "o4-i5", to: "i5"},
		{sentence: "Premier tour: un FEN sans champ F commence au premier tour de chaque joueur",
			fen: "W:Wo1,o2,o3,o4:Bo7,o8,o9,o10", move: "o4-i6", rule: dejarik.RuleFirstTurn},
		{sentence: "Premier tour: le champ FB dit que Blanc a déjà joué",
			fen: "W:Wo1,o2,o3,o4:Bo7,o8,o9,o10:FB", move: "o4-i5", to: "i5", after: "B:Wi5,o1,o2,o3:Bo7,o8,o9,o10:FB"},
	})
}

// TestDoubleDiagonalSentences: exit 3, double diagonal, at most two cells
// aside.
func TestDoubleDiagonalSentences(t *testing.T) {
	runMoveCases(t, []moveCase{
		{sentence: "Sortie 3) En double diagonale: couronne extérieure vers la couronne intérieure (2 cases à côté)",
			fen: "W:Wo1,o2,o3,o4:Bo7,o8,o9,o10" + open, move: "o4-i6", to: "i6"},
		{sentence: "Double diagonale: il ne doit y avoir de pion ni devant",
			fen: "W:Wo1,o2,o3,o4:Bi4,o8,o9,o10" + open, move: "o4-i6", rule: dejarik.RulePathBlocked},
		{sentence: "Double diagonale: ni à côté",
			fen: "W:Wo1,o2,o3,o4:Bo5,o8,o9,o10" + open, move: "o4-i6", rule: dejarik.RulePathBlocked},
		{sentence: "Double diagonale: ni sur la case en diagonale donnant accès à la case destination",
			fen: "W:Wo1,o2,o3,o4:Bi5,o8,o9,o10" + open, move: "o4-i6", rule: dejarik.RulePathBlocked},
		{sentence: "Double diagonale: jamais deux pions sur une même case (destination)",
			fen: "W:Wo1,o2,o3,o4:Bi6,o8,o9,o10" + open, move: "o4-i6", rule: dejarik.RuleOccupied},
		{sentence: "Double diagonale: le pion à côté de l'autre côté ne gêne pas",
			fen: "W:Wo1,o2,o3,o4:Bo7,o8,o9,o10" + open, move: "o1-i11", to: "i11"},
		{sentence: "La sortie en diagonales (double) est interdite au premier tour de chaque joueur",
			move: "o4-i6", rule: dejarik.RuleFirstTurn},
		{sentence: "Une sortie va au plus à deux cases à côté",
			fen: "W:Wo1,o2,o3,o4:Bo7,o8,o9,o10" + open, move: "o4-i7", rule: dejarik.RuleNoSuchMove},
	})
}

// TestAugmentedExitSentences: a diagonal exit in front of an own pawn goes
// two cells further, as often as it can.
func TestAugmentedExitSentences(t *testing.T) {
	runMoveCases(t, []moveCase{
		{sentence: "Sortie augmentée: en face d'un pion du même joueur, deux cases supplémentaires",
			fen: "W:Wo2,o3,o11,o12:Bo7,o8,o9,o10" + open, move: "o2-i3", to: "i5",
			after: "B:Wi5,o3,o11,o12:Bo7,o8,o9,o10:F-"},
		{sentence: "Sortie augmentée après une double diagonale",
			fen: "W:Wo2,o4,o11,o12:Bo7,o8,o9,o10" + open, move: "o2-i4", to: "i6"},
		{sentence: "Cette augmentation peut se répéter autant de fois que le pion passe devant un pion du même joueur",
			fen: "W:Wo2,o3,o5,o12:Bc,o8,o9,o10" + open, move: "o2-i3", to: "i7"},
		{sentence: "Augmentation dans le sens de la sortie, à travers i12-i1",
			fen: "W:Wo1,o3,o4,o7:Bc,o6,o9,o10" + open, move: "o4-i3", to: "i11"},
		{sentence: "Augmentation: mais uniquement dans le tour où il est sorti en diagonale",
			fen: "W:Wi3,o3,o11,o12:Bo7,o8,o9,o10" + open, move: "o12-i12", to: "i12",
			after: "B:Wi3,i12,o3,o11:Bo7,o8,o9,o10:F-"},
		{sentence: "Une sortie droite n'est jamais augmentée",
			fen: "W:Wo2,o3,o11,o12:Bo7,o8,o9,o10" + open, move: "o3-i3", to: "i3"},
		{sentence: "Si l'augmentation ne peut pas se faire (case de passage prise), aucune augmentation",
			fen: "W:Wo2,o3,i4,o12:Bo7,o8,o9,o10" + open, move: "o2-i3", to: "i3"},
		{sentence: "Si l'augmentation ne peut pas se faire (case d'arrivée prise), aucune augmentation",
			fen: "W:Wo2,o3,o11,o12:Bi5,o8,o9,o10" + open, move: "o2-i3", to: "i3"},
		{sentence: "Si la deuxième augmentation ne peut pas se faire, le pion reste après la première",
			fen: "W:Wo2,o3,o5,o12:Bi7,o8,o9,o10" + open, move: "o2-i3", to: "i5"},
	})
}

// TestReEntrySentences: re-entry is an inner pawn's only move; no lateral
// moves.
func TestReEntrySentences(t *testing.T) {
	runMoveCases(t, []moveCase{
		{sentence: "Rentrée: d'une case de la couronne intérieure à la case derrière",
			fen: "W:Wi3,o1,o2,o4:Bo7,o8,o9,o10" + open, move: "i3-o3", to: "o3"},
		{sentence: "Rentrée: jamais deux pions sur une même case",
			fen: "W:Wi3,o3,o2,o4:Bo7,o8,o9,o10" + open, move: "i3-o3", rule: dejarik.RuleOccupied},
		{sentence: "La Rentrée est le seul déplacement possible pour un pion situé sur la couronne intérieure (centre)",
			fen: "W:Wi3,o1,o2,o4:Bo7,o8,o9,o10" + open, move: "i3-c", rule: dejarik.RuleReEntryOnly},
		{sentence: "La Rentrée est le seul déplacement possible pour un pion situé sur la couronne intérieure (diagonale)",
			fen: "W:Wi3,o1,o2,o4:Bo7,o8,o9,o10" + open, move: "i3-o5", rule: dejarik.RuleReEntryOnly},
		{sentence: "Les mouvements latéraux sur la couronne intérieure ne se produisent que dans une sortie augmentée",
			fen: "W:Wi3,o1,o2,o4:Bo7,o8,o9,o10" + open, move: "i3-i4", rule: dejarik.RuleReEntryOnly},
		{sentence: "Les mouvements latéraux sur la couronne extérieure sont absolument interdits",
			fen: "W:Wo1,o2,o3,o4:Bo7,o8,o9,o10" + open, move: "o4-o5", rule: dejarik.RuleLateral},
		{sentence: "Les mouvements latéraux sur la couronne extérieure sont interdits (à travers o12-o1)",
			fen: "W:Wo1,o2,o3,o4:Bo7,o8,o9,o10" + open, move: "o1-o12", rule: dejarik.RuleLateral},
	})
}

// TestRemovalSentences: a diagonal exit beside an opposing inner pawn
// removes it.
func TestRemovalSentences(t *testing.T) {
	runMoveCases(t, []moveCase{
		{sentence: "Retrait: sortir en diagonale à côté d'un pion adverse le détruit",
			fen: "W:Wo2,o6,o11,o12:Bi4,o8,o9,o10" + open, move: "o2-i3", to: "i3", captures: 1,
			after: "B:Wi3,o6,o11,o12:Bo8,o9,o10:F-"},
		{sentence: "Retrait: il faut sortir en diagonale (une sortie droite ne détruit pas)",
			fen: "W:Wo2,o6,o11,o12:Bi3,o8,o9,o10" + open, move: "o2-i2", to: "i2", captures: 0},
		{sentence: "À côté: cases mitoyennes sur la même couronne, i12 et i1 comprises",
			fen: "W:Wo11,o5,o6,o7:Bi1,o8,o9,c" + open, move: "o11-i12", to: "i12", captures: 1},
		{sentence: "Retrait: sur la couronne intérieure uniquement (un pion de la couronne extérieure ne peut être tué)",
			fen: "W:Wo2,o6,o11,o12:Bo3,o4,o9,o10" + open, move: "o2-i3", to: "i3", captures: 0},
		{sentence: "Un pion sur la case Dejarik ne peut être tué",
			fen: "W:Wo2,o6,o11,o12:Bc,o8,o9,o10" + open, move: "o2-i3", to: "i3", captures: 0},
		{sentence: "Cette destruction est aussi valable lors d'une double diagonale",
			fen: "W:Wo2,o6,o11,o12:Bi5,o8,o9,o10" + open, move: "o2-i4", to: "i4", captures: 1},
		{sentence: "Cette destruction est aussi valable lors d'une sortie augmentée",
			fen: "W:Wo2,o3,o5,o12:Bi8,o9,o10,c" + open, move: "o2-i3", to: "i7", captures: 1,
			after: "B:Wi7,o3,o5,o12:Bc,o9,o10:F-"},
		{sentence: "Cas particulier: devant un pion du même joueur et à côté d'un pion adverse, seul le pion adverse est supprimé",
			fen: "W:Wo2,o3,o11,o12:Bi4,o8,o9,o10" + open, move: "o2-i3", to: "i3", captures: 1,
			after: "B:Wi3,o3,o11,o12:Bo8,o9,o10:F-"},
	})
}

// TestMoveNotationSentences: the augmented exit's notation; a move starts
// from one of the mover's pawns.
func TestMoveNotationSentences(t *testing.T) {
	runMoveCases(t, []moveCase{
		{sentence: "Notation: la sortie augmentée peut citer ses cases d'arrivée",
			fen: "W:Wo2,o3,o5,o12:Bi8,o9,o10,c" + open, move: "o2-i3-i5-i7", to: "i7", captures: 1},
		{sentence: "Notation: des cases d'augmentation fausses sont refusées",
			fen: "W:Wo2,o3,o5,o12:Bi8,o9,o10,c" + open, move: "o2-i3-i5", rule: dejarik.RuleAugmentation},
		{sentence: "Un joueur ne joue que ses pions",
			move: "o7-i7", rule: dejarik.RuleNotYours},
		{sentence: "Un coup part d'un pion",
			move: "o5-i5", rule: dejarik.RuleNoPawn},
	})
}

// runMoveCases runs each case as a subtest named by its sentence.
func runMoveCases(t *testing.T, cases []moveCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.sentence, func(t *testing.T) { checkMoveCase(t, tc) })
	}
}

// checkMoveCase plays tc: an illegal move must be refused with its rule and
// not listed; a legal one must be described, listed, formatted and played
// as tc says.
func checkMoveCase(t *testing.T, tc moveCase) {
	p := mustPos(t, tc.fen)
	for _, b := range tc.before {
		m, err := p.ParseMove(b)
		if err != nil {
			t.Fatalf("before %s: %v", b, err)
		}
		p.Play(m)
	}
	m, err := p.ParseMove(tc.move)
	if tc.rule != "" {
		var me *rules.MoveError
		if !errors.As(err, &me) || me.Kind != rules.Illegal || me.Rule != tc.rule {
			t.Fatalf("ParseMove(%q) = %v, want illegal (%s)", tc.move, err, tc.rule)
		}
		if !errors.Is(err, rules.ErrMove) {
			t.Fatalf("error does not wrap ErrMove")
		}
		for _, l := range p.Legal(nil) {
			if p.FormatMove(l) == tc.move {
				t.Fatalf("Legal lists %s", p.FormatMove(l))
			}
		}
		return
	}
	if err != nil {
		t.Fatalf("ParseMove(%q): %v", tc.move, err)
	}
	info := p.Describe(m)
	if info.To != tc.to || info.Captures != tc.captures {
		t.Errorf("Describe = to %s, %d captures; want %s, %d", info.To, info.Captures, tc.to, tc.captures)
	}
	found := false
	for _, l := range p.Legal(nil) {
		found = found || l == m
	}
	if !found {
		t.Errorf("Legal does not list %s", tc.move)
	}
	if f := p.FormatMove(m); !strings.HasPrefix(tc.move, f) {
		t.Errorf("FormatMove = %s", f)
	}
	p.Play(m)
	if tc.after != "" && p.String() != tc.after {
		t.Errorf("after: %s, want %s", p.String(), tc.after)
	}
}

// TestOutcomeSentences: one row per sentence about the end of a game.
func TestOutcomeSentences(t *testing.T) {
	tests := []struct {
		sentence string
		fen      string
		moves    []string
		result   string // "" when the game goes on
		reason   string
	}{
		{"Gagner 3 points: aligner ses 4 pions sur la couronne intérieure de façon à ce que chacun se touche",
			"W:Wi1,i2,i3,o4:Bo7,o8,o9,o10" + open, []string{"o4-i4"}, "3-0", dejarik.ReasonFour},
		{"Gagner 3 points: les noirs aussi",
			"B:Wo1,o2,o3,o4:Bi7,i8,i9,o10" + open, []string{"o10-i10"}, "0-3", dejarik.ReasonFour},
		{"Gagner 3 points: l'alignement passe de i12 à i1",
			"W:Wi11,i12,i1,o2:Bo5,o6,o7,o8" + open, []string{"o2-i2"}, "3-0", dejarik.ReasonFour},
		{"Gagner 3 points: des pions qui ne se touchent pas ne gagnent pas",
			"W:Wi1,i2,i4,o5:Bo7,o8,o9,o10" + open, []string{"o5-i5"}, "", ""},
		{"Gagner 3 points: une double diagonale peut aligner",
			"W:Wi6,i7,i8,o3:Bo11,o12,c,o1:F-", []string{"o3-i5"}, "3-0", dejarik.ReasonFour},
		{"Gagner 1 point: un joueur qui a perdu un pion peut encore en aligner trois",
			"W:Wi1,i2,o3:Bo7,o8,o9,o10" + open, []string{"o3-i3"}, "1-0", dejarik.ReasonThree},
		{"Gagner 1 point: trois alignés ne comptent pas avec quatre pions",
			"W:Wi1,i2,o3,o6:Bo7,o8,o9,o10" + open, []string{"o3-i3"}, "", ""},
		{"Gagner 2 points: retirer du jeu deux pions adverses",
			"W:Wo2,o6,o11,o12:Bi4,o8,o9" + open, []string{"o2-i3"}, "2-0", dejarik.ReasonTwoTaken},
		{"Gagner 2 points: les noirs aussi",
			"B:Wi6,o1,o2:Bo4,o8,o9,o10" + open, []string{"o4-i5"}, "0-2", dejarik.ReasonTwoTaken},
		{"Répétition: si la même position arrive trois fois, égalité, chacun marque un point",
			"W:Wo1,o2,o3,o4:Bo7,o8,o9,o10" + open,
			[]string{"o1-i1", "o7-i7", "i1-o1", "i7-o7", "o1-i1", "o7-i7", "i1-o1", "i7-o7"}, "1-1", dejarik.ReasonRepetition},
		{"Répétition: deux fois ne suffisent pas",
			"W:Wo1,o2,o3,o4:Bo7,o8,o9,o10" + open,
			[]string{"o1-i1", "o7-i7", "i1-o1", "i7-o7", "o1-i1", "o7-i7", "i1-o1"}, "", ""},
		{"Répétition: le premier tour compte dans la position",
			"", []string{"o1-i1", "o7-i7", "i1-o1", "i7-o7", "o1-i1", "o7-i7", "i1-o1", "i7-o7"}, "", ""},
		{"Si tous les pions sont bloqués, la partie est déclarée nulle et chaque joueur ne marque aucun point",
			"B:Wi1,o1,i5,o5:Bo7,o8,o9,o10" + open, []string{"o7-i7"}, "0-0", dejarik.ReasonBlocked},
		{"Le pion sorti ainsi se retrouve bloqué, et le pion situé derrière ne peut sortir",
			"W:Wo2,o3,i7,o7:Bi4,o9,o10,c" + open, []string{"o2-i3", "c-o12"}, "0-0", dejarik.ReasonBlocked},
	}
	for _, tc := range tests {
		t.Run(tc.sentence, func(t *testing.T) {
			p := mustPos(t, tc.fen)
			if tc.reason == dejarik.ReasonBlocked {
				defer func() {
					// « tous les pions sont bloqués » is read as "the side to
					// move has no move": the other side could still move.
					q := p.Clone()
					if f := q.String(); f[0] == 'W' {
						q = mustPos(t, "B"+f[1:])
					} else {
						q = mustPos(t, "W"+f[1:])
					}
					if len(q.Legal(nil)) == 0 {
						t.Errorf("%s: the side not to move is blocked too; the test does not show the reading", p)
					}
				}()
			}
			for _, s := range tc.moves {
				if o := p.Outcome(); o.Over {
					t.Fatalf("over before %s: %+v", s, o)
				}
				m, err := p.ParseMove(s)
				if err != nil {
					t.Fatalf("%s: %v", s, err)
				}
				p.Play(m)
			}
			o := p.Outcome()
			if o.Result != tc.result || o.Reason != tc.reason || o.Over != (tc.result != "") {
				t.Fatalf("Outcome = %+v, want %q %q", o, tc.result, tc.reason)
			}
			want := tc.result
			if want == "" {
				want = "*"
			}
			if err := p.CheckResult(want); err != nil {
				t.Errorf("CheckResult(%q): %v", want, err)
			}
			if err := p.CheckResult("1-0"); want != "1-0" && !errors.Is(err, rules.ErrResult) {
				t.Errorf("CheckResult(1-0) = %v, want ErrResult", err)
			}
			if o.Over {
				if n := len(p.Legal(nil)); n != 0 {
					t.Errorf("%d legal moves after the end", n)
				}
				var me *rules.MoveError
				if _, err := p.ParseMove("o9-i9"); !errors.As(err, &me) || (me.Rule != dejarik.RuleGameOver && tc.reason != dejarik.ReasonBlocked) {
					t.Errorf("move after the end: %v", err)
				}
			}
		})
	}
}

// TestStartSentences: the board and the start position.
func TestStartSentences(t *testing.T) {
	t.Run("Il se compose d'un échiquier circulaire de 25 cases", func(t *testing.T) {
		cells := []string{"c"}
		for k := 1; k <= 12; k++ {
			cells = append(cells, "i"+itoa(k), "o"+itoa(k))
		}
		if len(cells) != 25 {
			t.Fatal(len(cells))
		}
		for _, c := range cells {
			p := mustPos(t, "W:W"+c+":B"+other3(c))
			if b := p.Board(); len(b) != 4 || b[0].Square != c {
				t.Errorf("%s: board %v", c, b)
			}
		}
	})
	t.Run("2 jeux de 4 pions; au début de la partie, les pions sont disposés sur la couronne extérieure", func(t *testing.T) {
		p := mustPos(t, "")
		var n [2]int
		for _, pl := range p.Board() {
			if pl.Square[0] != 'o' || pl.Kind != 'P' || pl.Count != 1 {
				t.Errorf("start placement %+v", pl)
			}
			n[pl.Side]++
		}
		sp := p.(*dejarik.Position)
		if n != [2]int{4, 4} || p.ToMove() != dejarik.White || !sp.FirstTurn(dejarik.White) || !sp.FirstTurn(dejarik.Black) {
			t.Errorf("start: %v pawns, %d to move", n, p.ToMove())
		}
	})
}

func itoa(k int) string { return strconv.Itoa(k) }

// other3 is a Black field of three pawns avoiding cell c.
func other3(c string) string {
	var out []string
	for _, o := range []string{"o5", "o6", "o7", "o8"} {
		if o != c && len(out) < 3 {
			out = append(out, o)
		}
	}
	return strings.Join(out, ",")
}
