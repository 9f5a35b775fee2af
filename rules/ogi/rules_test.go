package ogi

import (
	"errors"
	"sort"
	"strings"
	"testing"

	"github.com/plateau/plateau/rules"
)

// setup builds a position from "Ka1 kh8 +Sd4 ..." (upper case Sente, lower
// case Gote, '+' promoted), the side to move ("b"/"w") and the hands.
func setup(t testing.TB, pieces, side, hands string) *Position {
	t.Helper()
	var b [8][8]string
	for _, tok := range strings.Fields(pieces) {
		sq := tok[len(tok)-2:]
		b[7-int(sq[1]-'1')][sq[0]-'a'] = tok[:len(tok)-2]
	}
	var s strings.Builder
	for r := 0; r < 8; r++ {
		empty := 0
		for f := 0; f < 8; f++ {
			if b[r][f] == "" {
				empty++
				continue
			}
			if empty > 0 {
				s.WriteByte(byte('0' + empty))
				empty = 0
			}
			s.WriteString(b[r][f])
		}
		if empty > 0 {
			s.WriteByte(byte('0' + empty))
		}
		if r < 7 {
			s.WriteByte('/')
		}
	}
	if hands == "" {
		hands = "-"
	}
	p, err := Parse(s.String() + " " + side + " " + hands + " 1")
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func playAll(t testing.TB, p *Position, moves ...string) {
	t.Helper()
	for _, s := range moves {
		m, err := p.ParseMove(s)
		if err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		p.Play(m)
	}
}

// dests lists the destinations of the legal moves from sq, sorted.
func dests(p *Position, sq string) string {
	seen := map[string]bool{}
	var out []string
	for _, m := range p.Legal(nil) {
		d := p.Describe(m)
		if d.From == sq && !seen[d.To] {
			seen[d.To] = true
			out = append(out, d.To)
		}
	}
	sort.Strings(out)
	return strings.Join(out, " ")
}

func sorted(s string) string {
	f := strings.Fields(s)
	sort.Strings(f)
	return strings.Join(f, " ")
}

// TestPieceMoves: one row per sentence describing how a piece moves.
func TestPieceMoves(t *testing.T) {
	const k = "ka8 Kh1 "
	for _, tc := range []struct {
		sentence string
		pieces   string
		from     string
		want     string
	}{
		{"Le Roi se déplace d'une seule case par coup, dans n'importe quelle direction", "ka8 Kd4", "d4", "c3 c4 c5 d3 d5 e3 e4 e5"},
		{"La Princesse se déplace comme un Fou ou comme un Cavalier ... dans les huit directions", k + "Id4", "d4",
			"e5 f6 g7 h8 c5 b6 a7 e3 f2 g1 c3 b2 a1 b3 b5 c2 c6 e2 e6 f3 f5"},
		{"glisser en diagonale ... (sans pouvoir sauter par-dessus une pièce), soit sauter en « L »", k + "Id4 Pe5 Pd5 Pc5 Pe4 Pc4 Pd3 pe3", "d4",
			"c3 b2 a1 e3 b3 b5 c2 c6 e2 e6 f3 f5"},
		{"La Princesse promue garde tous les déplacements ... gagne une case orthogonale", k + "+Id4", "d4",
			"e5 f6 g7 h8 c5 b6 a7 e3 f2 g1 c3 b2 a1 b3 b5 c2 c6 e2 e6 f3 f5 c4 e4 d3 d5"},
		{"Une Tour se déplace d'un nombre quelconque de cases en ligne droite", k + "Rd4", "d4",
			"d5 d6 d7 d8 d3 d2 d1 a4 b4 c4 e4 f4 g4 h4"},
		{"Tour: sans jamais sauter par-dessus une pièce. Elle capture en terminant son mouvement sur la pièce adverse", k + "Rd4 pd6 Pb4", "d4",
			"d5 d6 d3 d2 d1 c4 e4 f4 g4 h4"},
		{"Une Tour promue ... une case en diagonale, dans n'importe quelle direction", k + "+Rd4", "d4",
			"d5 d6 d7 d8 d3 d2 d1 a4 b4 c4 e4 f4 g4 h4 c3 c5 e3 e5"},
		{"Un Fou se déplace en diagonale sur autant de cases qu'il le souhaite", k + "Bd4", "d4",
			"e5 f6 g7 h8 c5 b6 a7 e3 f2 g1 c3 b2 a1"},
		{"Fou: sans sauter par-dessus les pièces, et capture en s'arrêtant sur la pièce adverse", k + "Bd4 pf6 Pc3", "d4",
			"e5 f6 c5 b6 a7 e3 f2 g1"},
		{"Un Fou promu ... une case en ligne droite", k + "+Bd4", "d4",
			"e5 f6 g7 h8 c5 b6 a7 e3 f2 g1 c3 b2 a1 c4 e4 d3 d5"},
		{"Un Général d'Argent se déplace d'une case en diagonale ou droit devant (cinq destinations)", k + "Sd4", "d4", "c3 c5 d5 e3 e5"},
		{"Général d'Argent de Gote: l'avant est vers la rangée 1", "Kh1 ka8 sd5", "d5", "c4 c6 d4 e4 e6"},
		{"Un Général d'Argent promu: une case orthogonale ou une diagonale vers l'avant (six)", k + "+Sd4", "d4", "c4 c5 d3 d5 e4 e5"},
		{"Un Cavalier avance de deux cases vers l'avant, puis d'une case sur la gauche ou sur la droite", k + "Nd4", "d4", "c6 e6"},
		{"Cavalier: il n'est pas bloqué par une pièce située devant elle", k + "Nd4 Pd5 pd6 pc5 pe5", "d4", "c6 e6"},
		{"Cavalier de Gote: vers la rangée 1", "Kh1 ka8 nd5", "d5", "c3 e3"},
		{"Un Cavalier promu se déplace exactement comme un Général d'Argent promu ... il ne saute plus", k + "+Nd4", "d4", "c4 c5 d3 d5 e4 e5"},
		{"Une Lance se déplace ... uniquement vers l'avant, sur sa colonne", k + "Ld4", "d4", "d5 d6 d7 d8"},
		{"Lance: ne saute jamais par-dessus une pièce. Elle capture en terminant sur la pièce adverse", k + "Ld4 pd6", "d4", "d5 d6"},
		{"Les déplacements d'une Lance promue sont ceux d'un Général d'Argent promu", k + "+Ld4", "d4", "c4 c5 d3 d5 e4 e5"},
		{"Un Pion se déplace d'une seule case droit devant lui", k + "Pd4", "d4", "d5"},
		{"Pion: il capture de la même manière, en avançant d'une case sur une pièce adverse", k + "Pd4 pd5 pc5 pe5", "d4", "d5"},
		{"Un Pion promu se déplace de la même manière qu'un Général d'Argent promu", k + "+Pd4", "d4", "c4 c5 d3 d5 e4 e5"},
	} {
		t.Run(tc.sentence, func(t *testing.T) {
			p := setup(t, tc.pieces, "b", "")
			if sideOf(p.board[sqIndex(tc.from)]) == 1 {
				p = setup(t, tc.pieces, "w", "")
			}
			if got, want := dests(p, tc.from), sorted(tc.want); got != want {
				t.Errorf("destinations from %s:\n got %s\nwant %s", tc.from, got, want)
			}
		})
	}
}

func sqIndex(s string) int { return int(s[0]-'a') + 8*int(s[1]-'1') }

// ruleCase is one rule sentence about moves: from pieces, side to move and
// hands, the moves pre are played, then move must be legal (rule "", and
// after is String() after it, if checked) or break rule ("syntax" for a
// syntax error).
type ruleCase struct {
	sentence string
	pieces   string
	side     string
	hands    string
	pre      []string
	move     string
	rule     string // "" legal; "syntax" for a syntax error
	after    string // String() after the move, if checked
}

// TestMoveRuleSentences: movement and capture.
func TestMoveRuleSentences(t *testing.T) {
	const k = "ka8 Kh1 "
	runRuleCases(t, []ruleCase{
		{"Déplacer une pièce vers une case qui n'est pas une destination autorisée pour son type", k + "Sd4", "b", "", nil, "Sd4-c4", RuleNotDestination, ""},
		{"Général d'Argent: il ne peut ni se déplacer horizontalement, ni reculer en ligne droite", k + "Sd4", "b", "", nil, "Sd4-d3", RuleNotDestination, ""},
		{"Général d'Argent promu: il ne peut pas se déplacer en diagonale vers l'arrière", k + "+Sd4", "b", "", nil, "+Sd4-c3", RuleNotDestination, ""},
		{"Cavalier: il ne peut pas aller sur les côtés ni reculer", k + "Nd4", "b", "", nil, "Nd4-b3", RuleNotDestination, ""},
		{"Cavalier: il ne peut pas non plus capturer la pièce qu'il saute", k + "Nd4 pd5", "b", "", nil, "Nd4-c6", "",
			"k7/8/2N5/3p4/8/8/8/7K w - 2 1"},
		{"Cavalier promu: il ne saute plus par-dessus les pièces", k + "+Nd4", "b", "", nil, "+Nd4-c6", RuleNotDestination, ""},
		{"Lance: elle ne peut ni reculer ni se déplacer sur les côtés", k + "Ld4", "b", "", nil, "Ld4-d3", RuleNotDestination, ""},
		{"Pour les pièces à longue portée (Tour, Fou, Lance), traverser une pièce: le trajet doit être libre", k + "Rd4 pd6", "b", "", nil, "Rd4-d7", RulePathBlocked, ""},
		{"Fou: le trajet doit être libre jusqu'à la case d'arrivée", k + "Bd4 Pf6", "b", "", nil, "Bd4-g7", RulePathBlocked, ""},
		{"Lance: le trajet doit être libre jusqu'à la case d'arrivée", k + "Ld4 pd5", "b", "", nil, "Ld4-d6", RulePathBlocked, ""},
		{"Princesse: glisser en diagonale sans sauter par-dessus une pièce", k + "Id4 pe5", "b", "", nil, "Id4-f6", RulePathBlocked, ""},
		{"Princesse: sauter en « L » dans n'importe quelle direction, par-dessus les pièces", k + "Id4 Pd3 Pc3 Pe3 pb3", "b", "", nil, "Id4xb3", "",
			"k7/8/8/8/8/1IPPP3/8/7K w P 2"},
		{"Déplacer une pièce sur une case occupée par une pièce du même camp", k + "Rd4 Pd6", "b", "", nil, "Rd4-d6", RuleOwnPiece, ""},
		{"Déplacer une pièce en dehors du plateau", k + "Rd4", "b", "", nil, "Rd4-d9", "syntax", ""},
		{"Jouer autre chose qu'un déplacement ou un parachutage", k + "Rd4", "b", "", nil, "pass", "syntax", ""},
		{"Le Roi capture de la même manière (une case)", "ka8 Kd4 pe5", "b", "", nil, "Kd4xe5", "", "k7/8/8/4K3/8/8/8/8 w P 2"},
		{"Tour: elle capture en terminant son mouvement sur la pièce adverse", k + "Rd4 sd6", "b", "", nil, "Rd4xd6", "", "k7/8/3R4/8/8/8/8/7K w S 2"},
		{"Les joueurs jouent à tour de rôle: Gote ne peut pas déplacer après Sente", k + "Rd4", "b", "", []string{"Rd4-d5"}, "Rd5-d6", RuleOpponentPiece, ""},
		{"Déplacer: une case vide n'a pas de pièce à déplacer", k + "Rd4", "b", "", nil, "Rd3-d5", RuleNoPiece, ""},
		{"La lettre doit correspondre à la pièce et à son état (promu/non promu)", k + "+Rd4", "b", "", nil, "Rd4-d5", RuleWrongPiece, ""},
	})
}

// TestPromotionSentences: the promotion zone, promotion taken, declined,
// denied or compulsory.
func TestPromotionSentences(t *testing.T) {
	const k = "ka8 Kh1 "
	runRuleCases(t, []ruleCase{
		{"La zone de promotion: les trois dernières rangées (6 à 8 pour Sente); hors zone pas de promotion", k + "Sd4", "b", "", nil, "Sd4-d5+", RulePromotionDenied, ""},
		{"Lorsqu'une pièce entre dans cette zone, elle peut être promue", k + "Sd5", "b", "", nil, "Sd5-d6+", "", "k7/8/3+S4/8/8/8/8/7K w - 2 1"},
		{"Lorsqu'une pièce entre dans cette zone, la promotion peut être refusée", k + "Sd5", "b", "", nil, "Sd5-d6=", "", "k7/8/3S4/8/8/8/8/7K w - 2 1"},
		{"Lorsqu'une pièce s'y déplace (dans la zone), elle peut être promue", k + "Sd6", "b", "", nil, "Sd6-d7+", "", "k7/3+S4/8/8/8/8/8/7K w - 2 1"},
		{"Lorsqu'une pièce en sort au cours d'un coup, elle peut être promue", k + "Sd6", "b", "", nil, "Sd6-c5+", "", "k7/8/8/2+S5/8/8/8/7K w - 2 1"},
		{"Zone de Gote: rangées 1 à 3", "Kh8 ka1 sd4", "w", "", nil, "Sd4-d3+", "", "7K/8/8/8/8/3+s4/8/k7 b - 2 1"},
		{"Le Roi n'a pas de face promue", "ka8 Kd5", "b", "", nil, "Kd5-d6+", RulePromotionDenied, ""},
		{"Une pièce promue ne se promeut pas une seconde fois", k + "+Sd6", "b", "", nil, "+Sd6-d7+", RulePromotionDenied, ""},
		{"Promotion obligatoire: Pion sur le dernier rang", k + "Pd7", "b", "", nil, "Pd7-d8", RuleCompulsory, ""},
		{"Promotion obligatoire: Pion sur le dernier rang, '=' refuse", k + "Pd7", "b", "", nil, "Pd7-d8=", RuleCompulsory, ""},
		{"Promotion obligatoire: Pion promu sur le dernier rang", k + "Pd7", "b", "", nil, "Pd7-d8+", "", "k2+P4/8/8/8/8/8/8/7K w - 2"},
		{"Promotion obligatoire: Lance sur le dernier rang", k + "Ld4", "b", "", nil, "Ld4-d8", RuleCompulsory, ""},
		{"Promotion obligatoire: Cavalier sur l'avant-dernier rang", k + "Nd5", "b", "", nil, "Nd5-c7", RuleCompulsory, ""},
		{"Promotion obligatoire: Cavalier sur le dernier rang", k + "Nd6", "b", "", nil, "Nd6-e8", RuleCompulsory, ""},
		{"Promotion facultative: Cavalier sur la 6e rangée peut encore avancer", k + "Nd4", "b", "", nil, "Nd4-c6=", "", "k7/8/2N5/8/8/8/8/7K w - 2 1"},
		{"Promotion facultative: un Argent sur le dernier rang peut encore reculer", k + "Sd7", "b", "", nil, "Sd7-d8=", "", "k2S4/8/8/8/8/8/8/7K w - 2 1"},
		{"Promotion obligatoire pour Gote: Pion sur le 1er rang", "Kh8 ka1 pd2", "w", "", nil, "Pd2-d1", RuleCompulsory, ""},
	})
}

// TestHandSentences: captured pieces go to the captor's hand, demoted but
// for the King's privilege.
func TestHandSentences(t *testing.T) {
	const k = "ka8 Kh1 "
	runRuleCases(t, []ruleCase{
		{"Une pièce capturée est placée dans la réserve du joueur qui l'a capturée", k + "Rd4 nd6", "b", "", nil, "Rd4xd6", "", "k7/8/3R4/8/8/8/8/7K w N 2"},
		{"Une pièce promue capturée est immédiatement rétrogradée", k + "Rd4 +sd6", "b", "", nil, "Rd4xd6", "", "k7/8/3R4/8/8/8/8/7K w S 2"},
		{"Le fait du Roi: conserver promue en main la pièce promue capturée", "ka8 Kd4 +pd5", "b", "", nil, "Kd4xd5+", "", "k7/8/8/3K4/8/8/8/8 w +P 2"},
		{"Le fait du Roi: ou la rétrograder comme d'habitude", "ka8 Kd4 +pd5", "b", "", nil, "Kd4xd5", "", "k7/8/8/3K4/8/8/8/8 w P 2"},
		{"Le fait du Roi ne vaut que pour une pièce promue", "ka8 Kd4 pd5", "b", "", nil, "Kd4xd5+", RulePromotionDenied, ""},
		{"Le fait du Roi ne vaut que pour le Roi", k + "Rd4 +pd5", "b", "", nil, "Rd4xd5+", RulePromotionDenied, ""},
	})
}

// TestDropSentences: drops, where they are allowed and what they keep.
func TestDropSentences(t *testing.T) {
	const k = "ka8 Kh1 "
	runRuleCases(t, []ruleCase{
		{"Parachuter une pièce en main sur une case vide", k, "b", "S", nil, "S*d4", "", "k7/8/8/8/3S4/8/8/7K w - 2 1"},
		{"Parachuter une pièce sur une case non vide (un parachutage ne capture pas)", k + "pd4", "b", "S", nil, "S*d4", RuleDropOccupied, ""},
		{"Le parachutage conserve l'état exact de la pièce en main (promue)", k, "b", "+R", nil, "+R*d4", "", "k7/8/8/8/3+R4/8/8/7K w - 2 1"},
		{"Le parachutage ne permet pas de promouvoir immédiatement, même dans la zone", k, "b", "S", nil, "S*d7+", RulePromotionDenied, ""},
		{"Le parachutage d'une pièce non promue vers la zone ne déclenche pas de promotion", k, "b", "S", nil, "S*d7", "", "k7/3S4/8/8/8/8/8/7K w - 2 1"},
		{"A partir de ce moment, la pièce pourra capturer et être promue lors de ses coups ultérieurs", k + "pe8", "b", "S", []string{"S*d7", "Ka8-b8"}, "Sd7xe8+", "", "1k2+S3/8/8/8/8/8/8/7K w P 4"},
		{"Parachuter une pièce qu'on n'a pas en main", k, "b", "S", nil, "B*d4", RuleNotInHand, ""},
		{"Parachuter une pièce promue quand on ne l'a que non promue", k, "b", "S", nil, "+S*d4", RuleNotInHand, ""},
		{"Les Lances non promues ne peuvent pas être parachutées sur le dernier rang (8e pour Sente)", k, "b", "L", nil, "L*d8", RuleLanceDropRank, ""},
		{"Lance parachutée sur le 7e rang: permis", k, "b", "L", nil, "L*d7", "", "k7/3L4/8/8/8/8/8/7K w - 2 1"},
		{"Les Lances non promues ne peuvent pas être parachutées sur le dernier rang (1er pour Gote)", "Kh8 ka1", "w", "l", nil, "L*d1", RuleLanceDropRank, ""},
		{"Les Cavaliers non promus ne peuvent pas être parachutés sur le dernier rang", k, "b", "N", nil, "N*d8", RuleKnightDropRank, ""},
		{"Les Cavaliers non promus ne peuvent pas non plus être parachutés sur l'avant-dernier rang (7e pour Sente)", k, "b", "N", nil, "N*d7", RuleKnightDropRank, ""},
		{"Cavaliers non promus sur l'avant-dernier rang (2e pour Gote)", "Kh8 ka1", "w", "n", nil, "N*d2", RuleKnightDropRank, ""},
		{"Cavalier parachuté sur la 6e rangée: permis", k, "b", "N", nil, "N*d6", "", "k7/8/3N4/8/8/8/8/7K w - 2 1"},
		{"Une Lance promue en main peut être parachutée sur le dernier rang", k, "b", "+L", nil, "+L*d8", "", "k2+L4/8/8/8/8/8/8/7K w - 2 1"},
		{"Les Pions non promus ne peuvent jamais être parachutés", k, "b", "P", nil, "P*d4", RulePawnDrop, ""},
		{"Si le Roi capture un Pion promu et le conserve promu, ce Pion promu peut ensuite être parachuté", "ka8 Kd4 +pd5", "b", "", []string{"Kd4xd5+", "Ka8-b8"}, "+P*c5", "",
			"1k6/8/8/2+PK4/8/8/8/8 w - 4 2"},
	})
}

// TestCheckSentences: check is not a rule.
func TestCheckSentences(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"Il n'est pas illégal de mettre son Roi en échec", "ka8 Kd4 re8", "b", "", nil, "Kd4-e4", "", "k3r3/8/8/8/4K3/8/8/8 w - 2 1"},
		{"Il n'est pas illégal de laisser son Roi en échec", "ka8 Ke4 re8 Pa3", "b", "", nil, "Pa3-a4", "", "k3r3/8/8/8/P3K3/8/8/8 w - 2"},
	})
}

// runRuleCases runs each case as a subtest named by its sentence.
func runRuleCases(t *testing.T, cases []ruleCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.sentence, func(t *testing.T) { checkRuleCase(t, tc) })
	}
}

// checkRuleCase plays tc: a refused move must fail as tc.rule says and wrap
// rules.ErrMove; a legal one must be among Legal's moves and lead to
// tc.after.
func checkRuleCase(t *testing.T, tc ruleCase) {
	p := setup(t, tc.pieces, tc.side, tc.hands)
	playAll(t, p, tc.pre...)
	m, err := p.ParseMove(tc.move)
	switch {
	case tc.rule == "syntax":
		var me *rules.MoveError
		if !errors.As(err, &me) || me.Kind != rules.Syntax {
			t.Fatalf("%s: got %v, want a syntax error", tc.move, err)
		}
		return
	case tc.rule != "":
		if !isRule(err, tc.rule) {
			t.Fatalf("%s: got %v, want illegal (%s)", tc.move, err, tc.rule)
		}
		if !errors.Is(err, rules.ErrMove) {
			t.Fatalf("error does not wrap rules.ErrMove")
		}
		return
	case err != nil:
		t.Fatalf("%s: %v", tc.move, err)
	}
	// a legal move is among Legal's moves
	found := false
	for _, l := range p.Legal(nil) {
		found = found || l == m
	}
	if !found {
		t.Fatalf("%s parsed but not in Legal", tc.move)
	}
	p.Play(m)
	if tc.after != "" && p.String() != tc.after {
		t.Errorf("after %s:\n got %s\nwant %s", tc.move, p.String(), tc.after)
	}
}

func TestSetupSentences(t *testing.T) {
	p, err := Parse("")
	if err != nil {
		t.Fatal(err)
	}
	t.Run("Ōgi oppose deux joueurs autour d'un plateau 8×8, soit 64 cases", func(t *testing.T) {
		for _, s := range []string{"Pa3-a4", "Lh1-h2"} {
			if _, err := p.ParseMove(s); err != nil {
				t.Errorf("%s: %v", s, err)
			}
		}
		for _, s := range []string{"Pi3-i4", "P-a9", "P-a0"} {
			var me *rules.MoveError
			if _, err := p.ParseMove(s); !errors.As(err, &me) || me.Kind != rules.Syntax {
				t.Errorf("%s: got %v, want syntax error", s, err)
			}
		}
	})
	t.Run("Chaque joueur commence la partie avec 18 pièces: 1 Roi, 1 Princesse, 1 Tour, 1 Fou, 2 Argents, 2 Cavaliers, 2 Lances, 8 Pions", func(t *testing.T) {
		var n [2]map[byte]int
		n[0], n[1] = map[byte]int{}, map[byte]int{}
		total := [2]int{}
		for _, pl := range p.Board() {
			n[pl.Side][pl.Kind] += pl.Count
			total[pl.Side] += pl.Count
		}
		want := map[byte]int{'K': 1, 'I': 1, 'R': 1, 'B': 1, 'S': 2, 'N': 2, 'L': 2, 'P': 8}
		for s := 0; s < 2; s++ {
			if total[s] != 18 {
				t.Errorf("side %d has %d pieces", s, total[s])
			}
			for k, c := range want {
				if n[s][k] != c {
					t.Errorf("side %d: %d %c, want %d", s, n[s][k], k, c)
				}
			}
		}
	})
	t.Run("Rangée 1: Lance, Cavalier, Argent, Princesse, Roi, Argent, Cavalier, Lance; rangée 2 Fou et Tour; rangée 3 Pions (et symétrique pour Gote)", func(t *testing.T) {
		at := map[string]string{}
		for _, pl := range p.Board() {
			s := string(pl.Kind)
			if pl.Side == 1 {
				s = strings.ToLower(s)
			}
			at[pl.Square] = s
		}
		rows := map[string]string{"1": "LNSIKSNL", "8": "lnsiksnl", "3": "PPPPPPPP", "6": "pppppppp"}
		for r, want := range rows {
			for f := 0; f < 8; f++ {
				sq := string(rune('a'+f)) + r
				if at[sq] != string(want[f]) {
					t.Errorf("%s: %q, want %c", sq, at[sq], want[f])
				}
			}
		}
		for sq, want := range map[string]string{"b2": "B", "g2": "R", "b7": "r", "g7": "b"} {
			if at[sq] != want {
				t.Errorf("%s: %q, want %s", sq, at[sq], want)
			}
		}
		if len(at) != 36 {
			t.Errorf("%d pieces on the board, want 36", len(at))
		}
	})
	t.Run("先手, le joueur qui commence (Sente)", func(t *testing.T) {
		if p.ToMove() != 0 || Game.Sides()[0] != "Sente" || Game.Sides()[1] != "Gote" {
			t.Errorf("to move %d, sides %v", p.ToMove(), Game.Sides())
		}
	})
	t.Run("Partie à avantage: Sente commence avec sa Tour et son Fou déjà promus", func(t *testing.T) {
		h, err := Parse("lnsiksnl/1r4b1/pppppppp/8/8/PPPPPPPP/1+B4+R1/LNSIKSNL b - 1")
		if err != nil {
			t.Fatal(err)
		}
		// the promoted Rook steps diagonally, the promoted Bishop orthogonally
		playAll(t, h, "+Rg2-h2", "Pa6-a5", "+Bb2-c2")
	})
	t.Run("Le Roi n'a pas de verso (pas de Roi promu)", func(t *testing.T) {
		if _, err := Parse("lnsi+ksnl/1r4b1/pppppppp/8/8/PPPPPPPP/1B4R1/LNSIKSNL b - 1"); !errors.Is(err, rules.ErrPosition) {
			t.Errorf("+k accepted: %v", err)
		}
		var me *rules.MoveError
		if _, err := p.ParseMove("+Ke1-e2"); !errors.As(err, &me) || me.Kind != rules.Syntax {
			t.Errorf("+K move: %v", err)
		}
	})
}

// TestDropsCountAsMoves: "Chaque parachutage compte comme un coup à part
// entière" and "Un Pion non promu capturé reste donc en main, mais il est
// inutilisable".
func TestDropsCountAsMoves(t *testing.T) {
	p := setup(t, "ka8 Kh1", "b", "S3P")
	playAll(t, p, "S*d4")
	if p.ToMove() != 1 {
		t.Error("a drop did not hand the turn over")
	}
	q := setup(t, "ka8 Kh1", "b", "3P")
	for _, m := range q.Legal(nil) {
		if q.Describe(m).Drop {
			t.Errorf("unpromoted pawn drop generated: %s", q.FormatMove(m))
		}
	}
}

// TestKingsPrivilegeTwoMoves: the two choices are two legal moves.
func TestKingsPrivilegeTwoMoves(t *testing.T) {
	p := setup(t, "ka8 Kd4 +pd5", "b", "")
	var got []string
	for _, m := range p.Legal(nil) {
		if p.Describe(m).To == "d5" {
			got = append(got, p.FormatMove(m))
		}
	}
	sort.Strings(got)
	if strings.Join(got, " ") != "Kd4xd5 Kd4xd5+" {
		t.Errorf("got %v", got)
	}
}

// TestEndOfGame: "capturer le Roi adverse" wins, and the game stops.
func TestEndOfGame(t *testing.T) {
	t.Run("Le but du jeu est de remporter la partie en capturant le Roi adverse", func(t *testing.T) {
		p := setup(t, "ke5 Kd4", "b", "")
		playAll(t, p, "Kd4xe5")
		o := p.Outcome()
		if !o.Over || o.Result != "1-0" || o.Reason != "king captured" {
			t.Errorf("outcome %+v", o)
		}
		if n := len(p.Legal(nil)); n != 0 {
			t.Errorf("%d moves after the King's capture", n)
		}
		if _, err := p.ParseMove("Ke5-e6"); !isRule(err, RuleGameOver) {
			t.Errorf("move after the end: %v", err)
		}
		if err := p.CheckResult("0-1"); !errors.Is(err, rules.ErrResult) {
			t.Errorf("0-1 after Sente took the King: %v", err)
		}
		if err := p.CheckResult("1-0"); err != nil {
			t.Error(err)
		}
		q, err := Parse(p.String())
		if err != nil || !q.Outcome().Over {
			t.Errorf("finished position does not round-trip: %v", err)
		}
	})
	t.Run("Gote capture le Roi de Sente", func(t *testing.T) {
		p := setup(t, "ke5 Kd4", "w", "")
		playAll(t, p, "Ke5xd4")
		if o := p.Outcome(); o.Result != "0-1" {
			t.Errorf("outcome %+v", o)
		}
	})
	t.Run("Si un joueur joue un coup illégal, la partie s'arrête et le joueur fautif perd", func(t *testing.T) {
		if !Game.IllegalMoveLoses() {
			t.Error("IllegalMoveLoses is false")
		}
	})
	t.Run("l'abandon de l'adversaire: un résultat décisif dans une position non terminée", func(t *testing.T) {
		p, _ := Parse("")
		for _, r := range []string{"1-0", "0-1", "*"} {
			if err := p.CheckResult(r); err != nil {
				t.Errorf("%s: %v", r, err)
			}
		}
		if err := p.CheckResult("2-0"); !errors.Is(err, rules.ErrResult) {
			t.Errorf("2-0: %v", err)
		}
	})
	t.Run("sans coup légal, le joueur au trait perd", func(t *testing.T) {
		// Gote's King is walled in on a1 by its own pieces, none of which
		// can move, and Gote has no hand.
		p := setup(t, "Kh8 ka1 +pb1 +pc1 +pd1 +pe1 +pf1 +pg1 +ph1 pa2 pb2 pc2 pd2 pe2 pf2 pg2 ph2", "w", "")
		o := p.Outcome()
		if !o.Over || o.Result != "1-0" || o.Reason != "no legal move" {
			t.Errorf("outcome %+v (moves %d)", o, len(p.Legal(nil)))
		}
	})
}

// TestRepetition: "Un coup est illégal s'il reproduit exactement un coup déjà
// joué ... et que la position résultante est identique".
func TestRepetition(t *testing.T) {
	t.Run("même coup, même position résultante: illégal", func(t *testing.T) {
		p := setup(t, "ka8 Kh1 Rd4", "b", "")
		playAll(t, p, "Rd4-d5", "Ka8-b8", "Rd5-d4", "Kb8-a8")
		if _, err := p.ParseMove("Rd4-d5"); !isRule(err, RuleRepetition) {
			t.Errorf("got %v", err)
		}
		if _, err := p.ParseMove("R-d5"); !isRule(err, RuleRepetition) {
			t.Errorf("short form: got %v", err)
		}
		for _, m := range p.Legal(nil) {
			if p.FormatMove(m) == "Rd4-d5" {
				t.Error("Legal lists the repetition")
			}
		}
	})
	t.Run("même coup, position résultante différente: légal", func(t *testing.T) {
		p := setup(t, "ka8 Kh1 Rd4", "b", "")
		playAll(t, p, "Rd4-d5", "Ka8-b8", "Rd5-d4", "Kb8-c8")
		if _, err := p.ParseMove("Rd4-d5"); err != nil {
			t.Error(err)
		}
	})
	t.Run("coup différent menant à la même position: légal", func(t *testing.T) {
		// Rd4-d6 then d6-d5 gives the position Rd4-d5 gave; it is not the same move.
		p := setup(t, "ka8 Kh1 Rd4", "b", "")
		playAll(t, p, "Rd4-d5", "Ka8-b8", "Rd5-d6", "Kb8-a8")
		if _, err := p.ParseMove("Rd6-d5"); err != nil {
			t.Error(err)
		}
	})
	t.Run("le même choix de promotion", func(t *testing.T) {
		p := setup(t, "ka8 Kh1 Sc5", "b", "")
		playAll(t, p, "Sc5-d6=", "Ka8-b8", "Sd6-c5=", "Kb8-a8")
		if _, err := p.ParseMove("Sc5-d6="); !isRule(err, RuleRepetition) {
			t.Errorf("declining again: %v", err)
		}
		if _, err := p.ParseMove("Sc5-d6+"); err != nil {
			t.Errorf("promoting this time: %v", err)
		}
	})
	t.Run("parachutage: pièce de même type et de même état", func(t *testing.T) {
		// The silver is dropped, taken, comes back to Sente's hand, and the
		// position before the drop recurs: the same drop would repeat.
		p := setup(t, "ka8 Kf2 rd8", "b", "S")
		playAll(t, p, "S*d4", "Rd8xd4", "Kf2-g2", "S*f3", "Kg2xf3", "Rd4-d8", "Kf3-f2",
			"Ka8-b8", "Kf2-e2", "Kb8-b7", "Ke2-f2", "Kb7-a8")
		if _, err := p.ParseMove("S*d4"); !isRule(err, RuleRepetition) {
			t.Errorf("S*d4 again: %v", err)
		}
		if _, err := p.ParseMove("S*e4"); err != nil {
			t.Errorf("S*e4: %v", err)
		}
	})
	t.Run("s'il implique la même pièce: l'autre Argent n'est pas la même pièce", func(t *testing.T) {
		// The two Silvers swap squares: d2-e3 by the Silver that started on
		// f2 gives the position d2-e3 gave at ply 1, but it is not the same
		// piece, so it is no repetition.
		p, err := Parse("7k/8/8/8/8/8/3S1S2/K7 b - 1")
		if err != nil {
			t.Fatal(err)
		}
		playAll(t, p, "Sd2-e3", "Kh8-g8", "Sf2-g3", "Kg8-g7", "Se3-f2", "Kg7-h7", "Sg3-f4", "Kh7-h8",
			"Sf4-e3", "Kh8-g7", "Se3-d2", "Kg7-h8")
		if _, err := p.ParseMove("Sd2-e3"); err != nil {
			t.Errorf("the other Silver's d2-e3: %v", err)
		}
		found := false
		for _, m := range p.Legal(nil) {
			found = found || p.FormatMove(m) == "Sd2-e3"
		}
		if !found {
			t.Error("Legal does not list the other Silver's d2-e3")
		}
		// The same Silver coming back and repeating is still illegal.
		q, _ := Parse("7k/8/8/8/8/8/3S1S2/K7 b - 1")
		playAll(t, q, "Sd2-e3", "Kh8-g8", "Se3-d2", "Kg8-h8")
		if _, err := q.ParseMove("Sd2-e3"); !isRule(err, RuleRepetition) {
			t.Errorf("the same Silver's d2-e3 again: %v", err)
		}
	})
	t.Run("Le joueur qui commet une telle répétition perd immédiatement", func(t *testing.T) {
		if !Game.IllegalMoveLoses() {
			t.Error("IllegalMoveLoses is false")
		}
	})
}

// TestHundredPlies: "si 50 coups de chaque joueur (soit 100 demi-coups) sont
// joués sans aucune capture et sans aucun coup de pion non promu, la partie
// peut être déclarée nulle".
func TestHundredPlies(t *testing.T) {
	p, err := Parse("k7/8/8/8/8/8/P7/R6K b - 40 98")
	if err != nil {
		t.Fatal(err)
	}
	draw := func(want bool) {
		t.Helper()
		err := p.CheckResult("1/2-1/2")
		if want && err != nil || !want && !errors.Is(err, rules.ErrResult) {
			t.Errorf("after %d quiet plies: draw claim gives %v", p.Quiet(), err)
		}
	}
	draw(false)
	playAll(t, p, "Ra1-b1")
	draw(false)
	playAll(t, p, "Ka8-b8")
	draw(true)
	if p.Outcome().Over {
		t.Error("the 100-ply rule ends the game; it should only allow a draw")
	}
	q := p.Clone().(*Position)
	playAll(t, q, "Pa2-a3") // an unpromoted pawn move resets the count
	draw(true)
	if q.Quiet() != 0 || q.CheckResult("1/2-1/2") == nil {
		t.Errorf("pawn move: quiet %d", q.Quiet())
	}
	c, _ := Parse("k7/8/8/8/8/8/r7/R6K b - 40 120")
	playAll(t, c, "Ra1xa2") // a capture resets it
	if c.Quiet() != 0 {
		t.Errorf("capture: quiet %d", c.Quiet())
	}
	d, _ := Parse("k7/8/8/8/8/8/+P7/7K b N 40 120")
	playAll(t, d, "+Pa2-a3", "Ka8-b8", "N*d4") // a promoted pawn moving and a drop do not
	if d.Quiet() != 123 {
		t.Errorf("promoted pawn and drop: quiet %d, want 123", d.Quiet())
	}
	if k1, k2 := d.Key(), mustParse(t, "1k6/8/8/8/3N4/+P7/8/7K w - 43").Key(); k1 != k2 {
		t.Error("the draw count must not be part of the key")
	}
}

func mustParse(t testing.TB, s string) *Position {
	t.Helper()
	p, err := Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return p
}
