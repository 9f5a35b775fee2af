package jetan

import (
	"reflect"
	"strings"
	"testing"
)

// box lists the squares at king distance 1..r from the centre square.
func box(center string, r int) string {
	c, _, _ := parseSquare(center)
	var out []string
	for sq := range squares {
		if d := chebyshev(c, sq); d >= 1 && d <= r {
			out = append(out, SquareName(sq))
		}
	}
	return strings.Join(out, " ")
}

// TestMoveShapes: one row per movement sentence of the rule text; the piece
// stands on e5 of an otherwise empty centre.
func TestMoveShapes(t *testing.T) {
	far := " Pj1 ca10 pj10" // the royals, out of reach of e5
	cases := []struct {
		sentence string
		pieces   string
		side     string
		want     string
	}{
		{"Guerrier: deux espaces en droite ligne dans n'importe quelle direction ou combinaison", "Ca1 We5" + far, "b",
			"e7 e3 c5 g5 d6 f6 d4 f4"},
		{"Padwar: deux espaces en diagonale dans n'importe quelle direction ou combinaison", "Ca1 Ae5" + far, "b",
			"c7 g7 c3 g3 e7 e3 c5 g5"},
		{"Dwar: trois espaces en droite ligne dans n'importe quelle direction ou combinaison", "Ca1 De5" + far, "b",
			"e8 e2 b5 h5 f7 d7 f3 d3 g6 g4 c6 c4 e6 e4 d5 f5"},
		{"Aéronef: trois espaces en diagonale dans n'importe quelle direction ou combinaison", "Ca1 Fe5" + far, "b",
			"d4 d6 f4 f6 d8 f8 d2 f2 b4 b6 h4 h6 b2 b8 h2 h8"},
		{"Chef: trois espaces dans n'importe quelle direction; en droite ligne, en diagonale ou en combinaison", "Ce5" + far, "b",
			box("e5", 3)},
		{"Thoat: deux espaces, un en droite ligne, un en diagonale dans n'importe quelle direction", "Ca1 Te5" + far, "b",
			"d7 f7 c6 g6 c4 g4 d3 f3 e6 e4 d5 f5"},
		{"Panthans: un espace en avant, de côté ou en diagonale mais pas à reculons (Noir: le nord est en avant)", "Ca1 Ne5" + far, "b",
			"e6 d5 f5 d6 f6"},
		{"Panthans: un espace en avant, de côté ou en diagonale mais pas à reculons (Orange: le sud est en avant)", "Ca1 ne5 Pj1 cj9 pj10", "o",
			"e4 d5 f5 d4 f4"},
		{"Princesse: mêmes déplacements que le Chef (sans l'évasion)", "Ca1 Pe3 ca10 pj10", "b -",
			box("e3", 3)},
		{"Aéronef: peut sauter les pièces rencontrées", "Ca1 Fe5 Nd4 Nd6 Nf4 Nf6" + far, "b",
			"b2 b8 h2 h8 d2 f2 d8 f8 b4 b6 h4 h6"},
		{"Princesse: elle peut sauter par-dessus les pièces rencontrées", "Ca1 Pe3 Nd2 Nd3 Nd4 Ne2 Ne4 Nf2 Nf3 Nf4 ca10 pj10", "b -",
			strings.Join(sortedMinus(box("e3", 3), "d2 d3 d4 e2 e4 f2 f3 f4"), " ")},
		{"Chef (ne saute pas): entouré des siens, il ne bouge pas", "Ce5 Nd4 Nd5 Nd6 Ne4 Ne6 Nf4 Nf5 Nf6" + far, "b",
			""},
		{"Un Dwar peut se déplacer vers le nord de trois espaces ou vers le nord d'un espace et vers l'est de deux espaces", "Ca1 Dd4" + far, "b",
			"d7 d1 a4 g4 e6 c6 e2 c2 f5 f3 b5 b3 d5 d3 c4 e4"},
	}
	for _, c := range cases {
		side := c.side
		if !strings.Contains(side, " ") {
			side += " -"
		}
		p := mustParse(t, fen(t, c.pieces, side+" 0"))
		from := ""
		for _, tok := range strings.Fields(c.pieces) {
			sq := tok[1:]
			if sq == "e5" || sq == "d4" && strings.Contains(c.sentence, "Dwar peut") || sq == "e3" && tok[0] == 'P' {
				from = sq
			}
		}
		got := destsOf(p, from)
		if want := sorted(c.want); !reflect.DeepEqual(got, want) && !(len(got) == 0 && len(want) == 0) {
			t.Errorf("%s\n got %v\nwant %v", c.sentence, got, want)
		}
	}
}

func sortedMinus(all, minus string) []string {
	drop := map[string]bool{}
	for _, s := range strings.Fields(minus) {
		drop[s] = true
	}
	var out []string
	for _, s := range sorted(all) {
		if !drop[s] {
			out = append(out, s)
		}
	}
	return out
}

// ruleCase plays moves from a position, then tries one more move: it must
// be legal (rule "") or break the named rule; check looks at the result.
type ruleCase struct {
	sentence string
	fen      string
	before   []string
	move     string
	rule     string
	check    func(t *testing.T, p *Position)
}

func outcomeIs(result, reason string) func(t *testing.T, p *Position) {
	return func(t *testing.T, p *Position) {
		t.Helper()
		o := p.Outcome()
		if !o.Over || o.Result != result || o.Reason != reason {
			t.Errorf("outcome %+v, want over %s (%s)", o, result, reason)
		}
		if len(p.Legal(nil)) != 0 {
			t.Errorf("a finished game has legal moves")
		}
		if err := p.CheckResult(result); err != nil {
			t.Errorf("CheckResult(%s): %v", result, err)
		}
		if err := p.CheckResult("*"); err == nil {
			t.Errorf("CheckResult(*) accepted on a finished game")
		}
	}
}

func notOver(t *testing.T, p *Position) {
	t.Helper()
	if o := p.Outcome(); o.Over {
		t.Errorf("outcome %+v, want not over", o)
	}
}

// TestWinSentences: the game is won by taking the opposing Princess, or a
// Chief by a Chief.
func TestWinSentences(t *testing.T) {
	runRuleCases(t, []ruleCase{
		// La partie est gagnée lorsqu'une pièce quelconque est placée sur la même case que la Princesse de l'autre camp
		{sentence: "gagnée: une pièce quelconque (un Panthan) sur la case de la Princesse adverse",
			fen: fen(t, "Ca1 Pj1 ca10 pe7 Ne6", "b Ee 0"), move: "e6xe7", check: outcomeIs("1-0", ReasonPrincess)},
		{sentence: "gagnée: Orange prend la Princesse noire",
			fen: fen(t, "Ca1 Pe4 ca10 pj10 we6", "o Ee 0"), move: "e6xe4", check: outcomeIs("0-1", ReasonPrincess)},
		{sentence: "gagnée: un Aéronef saute sur la Princesse",
			fen: fen(t, "Ca1 Pj1 ca10 pg8 Fd5 Ne6 Nf7", "b Ee 0"), move: "d5xg8", check: outcomeIs("1-0", ReasonPrincess)},
		// ou si un Chef prend un Chef
		{sentence: "gagnée: un Chef prend un Chef",
			fen: fen(t, "Ce5 Pj1 ce8 pj10", "b Ee 0"), move: "e5xe8", check: outcomeIs("1-0", ReasonChiefByChief)},
		{sentence: "gagnée: le Chef orange prend le Chef noir",
			fen: fen(t, "Ce5 Pj1 cf7 pj10", "o Ee 0"), move: "f7xe5", check: outcomeIs("0-1", ReasonChiefByChief)},
	})
}

// TestDrawSentences: the game is drawn when a Chief is taken by another
// piece, or after ten moves with three pieces or fewer each, of equal value.
func TestDrawSentences(t *testing.T) {
	runRuleCases(t, []ruleCase{
		// La partie est nulle quand un Chef est pris par une pièce autre que le Chef adverse
		{sentence: "nulle: un Chef pris par une pièce autre que le Chef adverse",
			fen: fen(t, "Ca1 Pj1 ce8 pj10 We6", "b Ee 0"), move: "e6xe8", check: outcomeIs("1/2-1/2", ReasonChiefTaken)},
		{sentence: "nulle: le Chef noir pris par un Dwar orange",
			fen: fen(t, "Ca4 Pj1 ca10 pj10 da7", "o Ee 0"), move: "a7xa4", check: outcomeIs("1/2-1/2", ReasonChiefTaken)},
		// ou bien quand les deux camps sont réduits à trois pièces chacun ou moins, d'égale valeur, et que la partie n'est pas gagnée dans les dix coups suivants
		{sentence: "nulle: trois pièces chacun, d'égale valeur, dix coups sans gain",
			fen:    fen(t, "Ca1 Pj1 We5 ca10 pj10 ae8", "b - 0"),
			before: []string{"e5-e7", "e8-c6", "e7-e5", "c6-e8", "e5-e7", "e8-c6", "e7-e5", "c6-e8", "e5-e7"},
			move:   "e8-c6", check: outcomeIs("1/2-1/2", ReasonEqualForces)},
		{sentence: "nulle (dix coups, cinq pour chaque camp): après neuf coups la partie continue",
			fen:    fen(t, "Ca1 Pj1 We5 ca10 pj10 ae8", "b - 0"),
			before: []string{"e5-e7", "e8-c6", "e7-e5", "c6-e8", "e5-e7", "e8-c6", "e7-e5", "c6-e8"},
			move:   "e5-e7", check: func(t *testing.T, p *Position) {
				notOver(t, p)
				if p.DrawPlies() != 9 {
					t.Errorf("draw plies %d, want 9", p.DrawPlies())
				}
			}},
		{sentence: "nulle: pas si les pièces ne sont pas d'égale valeur (Guerrier 2 contre Panthan 1)",
			fen:    fen(t, "Ca1 Pj1 We5 ca10 pj10 ne8", "b - 0"),
			before: []string{"e5-e7", "e8-d8", "e7-e5", "d8-e8", "e5-e7", "e8-d8", "e7-e5", "d8-e8", "e5-e7"},
			move:   "e8-d8", check: func(t *testing.T, p *Position) {
				notOver(t, p)
				if p.DrawPlies() != 0 {
					t.Errorf("draw plies %d, want 0", p.DrawPlies())
				}
			}},
		{sentence: "nulle: pas avec plus de trois pièces (quatre contre quatre)",
			fen:    fen(t, "Ca1 Pj1 We5 Nb2 ca10 pj10 ae8 nb9", "b - 0"),
			before: []string{"e5-e7", "e8-c6", "e7-e5", "c6-e8", "e5-e7", "e8-c6", "e7-e5", "c6-e8", "e5-e7"},
			move:   "e8-c6", check: notOver},
		{sentence: "nulle: sauf si la partie est gagnée dans les dix coups (gain au dixième coup)",
			fen:    fen(t, "Ca1 Pg6 We5 ca10 pj10 ae8", "b - 0"),
			before: []string{"e5-e7", "e8-c6", "e7-e5", "c6-e8", "e5-e7", "e8-c6", "e7-e5", "c6-e8", "e5-e7"},
			move:   "e8xg6", check: outcomeIs("0-1", ReasonPrincess)},
		{sentence: "nulle: le compte commence quand une prise égalise les forces",
			fen:    fen(t, "Ca1 Pj1 We5 Nc5 ca10 pj10 ae8", "b - 0"),
			before: []string{"c5-c6", "e8xc6"},
			move:   "e5-e7", check: func(t *testing.T, p *Position) {
				if p.DrawPlies() != 1 {
					t.Errorf("draw plies %d, want 1 (0 after the equalising capture)", p.DrawPlies())
				}
			}},
	})
}

// TestPrincessSentences: the Princess does not go to a threatened square and
// does not capture.
func TestPrincessSentences(t *testing.T) {
	runRuleCases(t, []ruleCase{
		// La Princesse ne peut pas se déplacer pour aller sur une case menacée
		{sentence: "la Princesse ne va pas sur une case menacée",
			fen: fen(t, "Ca1 Pe5 ca10 pj10 we8", "b Ee 0"), move: "e5-e6", rule: RuleThreatened},
		{sentence: "la Princesse va sur une case non menacée",
			fen: fen(t, "Ca1 Pe5 ca10 pj10 we8", "b Ee 0"), move: "e5-f5", check: notOver},
		{sentence: "case menacée: la case quittée par la Princesse est vide (le Guerrier passe par e6)",
			fen: fen(t, "Ca1 Pe6 ca10 pj10 we7", "b Ee 0"), move: "e6-e5", rule: RuleThreatened},
		{sentence: "case menacée: la Princesse adverse ne menace pas",
			fen: fen(t, "Ca1 Pe5 ca10 pe8", "b Ee 0"), move: "e5-e7", check: notOver},
		{sentence: "case menacée: un Panthan orange ne menace pas la case derrière lui",
			fen: fen(t, "Ca1 Pe5 ca10 pj10 nd5", "b Ee 0"), move: "e5-d6", check: notOver},
		{sentence: "case menacée: un Panthan ne menace qu'à un pas",
			fen: fen(t, "Ca1 Pe5 ca10 pj10 nd5", "b Ee 0"), move: "e5-d3", rule: "",
			check: notOver},
		{sentence: "case menacée: un Panthan orange menace la case devant lui",
			fen: fen(t, "Ca1 Pe5 ca10 pj10 nd5", "b Ee 0"), move: "e5-d4", rule: RuleThreatened},
		{sentence: "case menacée: une pièce bloquée ne menace pas",
			fen: fen(t, "Ca1 Pe5 ca10 pj10 we8 Ne7", "b Ee 0"), move: "e5-e6", check: notOver},
		// et elle ne peut pas prendre une pièce ennemie
		{sentence: "la Princesse ne prend pas une pièce ennemie",
			fen: fen(t, "Ca1 Pe5 ca10 pj10 nf6", "b Ee 0"), move: "e5xf6", rule: RulePrincessCapture},
		{sentence: "la Princesse ne prend pas la Princesse ennemie",
			fen: fen(t, "Ca1 Pe5 ca10 pe7", "b Ee 0"), move: "e5-e7", rule: RulePrincessCapture},
	})
}

// TestEscapeSentences: the Princess's one escape, a move of up to ten squares.
func TestEscapeSentences(t *testing.T) {
	runRuleCases(t, []ruleCase{
		// Elle a droit à un seul coup de dix cases dans le courant de la partie. Ce coup s'appelle l'évasion.
		{sentence: "l'évasion: au-delà de trois pas, en sautant, une fois",
			fen: fen(t, "Ca1 Pe1 Nd2 Ne2 Nf2 ca10 pj10", "b Ee 0"), move: "e1-e8", check: func(t *testing.T, p *Position) {
				if p.CanEscape(0) || !p.CanEscape(1) {
					t.Errorf("escape flags %v after Black's escape", p.escape)
				}
				if !strings.Contains(p.String(), " o e 0") {
					t.Errorf("position %s: want Orange to move, flags e", p)
				}
			}},
		{sentence: "l'évasion: dix cases au plus, soit tout l'échiquier 10×10 (a1 à j10)",
			fen: fen(t, "Ca2 Pa1 cb10 pj1", "b Ee 0"), move: "a1-j10", check: notOver},
		{sentence: "l'évasion: un seul coup dans la partie",
			fen: fen(t, "Ca1 Pe1 ca10 pj10", "b Ee 0"), before: []string{"e1-e8", "a10-a7"}, move: "e8-e1", rule: RuleEscapeUsed},
		{sentence: "l'évasion: un coup ordinaire de trois pas ne la dépense pas",
			fen: fen(t, "Ca1 Pe1 ca10 pj10", "b Ee 0"), before: []string{"e1-e4", "a10-a7"}, move: "e4-e9", check: func(t *testing.T, p *Position) {
				if p.CanEscape(0) {
					t.Errorf("escape not spent by e4-e9")
				}
			}},
		{sentence: "l'évasion: pas sur une case menacée",
			fen: fen(t, "Ca1 Pe1 ca10 pj10 wg8", "b Ee 0"), move: "e1-e8", rule: RuleThreatened},
		{sentence: "l'évasion: pas sur une pièce ennemie",
			fen: fen(t, "Ca1 Pe1 ca10 pj10 ne8", "b Ee 0"), move: "e1xe8", rule: RulePrincessCapture},
		{sentence: "l'évasion: la Princesse orange a la sienne (drapeau e)",
			fen: fen(t, "Ca1 Pe1 ca10 pj10", "o E 0"), move: "j10-j1", rule: RuleEscapeUsed},
	})
}

// TestCaptureSentences: two pieces never share a square; moving onto an
// enemy piece takes it.
func TestCaptureSentences(t *testing.T) {
	runRuleCases(t, []ruleCase{
		// Deux pièces ne peuvent pas occuper la même case sauf dans le coup final d'une partie où la Princesse est prise
		{sentence: "deux pièces ne peuvent pas occuper la même case",
			fen: fen(t, "Ca1 Pj1 ca10 pj10 We5 Ne7", "b Ee 0"), move: "e5-e7", rule: RuleOccupied},
		// Quand un joueur place l'une de ses pièces sur une case occupée par une pièce de l'adversaire, celle-ci est tuée et retirée du jeu
		{sentence: "une pièce adverse prise est retirée du jeu",
			fen: fen(t, "Ca1 Pj1 ca10 pj10 We5 ne7", "b Ee 0"), move: "e5xe7", check: func(t *testing.T, p *Position) {
				notOver(t, p)
				for _, pl := range p.Board() {
					if pl.Square == "e7" && (pl.Side != 0 || pl.Kind != 'W') {
						t.Errorf("e7 holds %+v", pl)
					}
				}
				if len(p.Board()) != 5 {
					t.Errorf("%d pieces, want 5", len(p.Board()))
				}
			}},
		{sentence: "prise: écrite x, un - est accepté",
			fen: fen(t, "Ca1 Pj1 ca10 pj10 We5 ne7", "b Ee 0"), move: "e5-e7", check: notOver},
		{sentence: "prise: x vers une case vide est refusé",
			fen: fen(t, "Ca1 Pj1 ca10 pj10 We5", "b Ee 0"), move: "e5xe7", rule: RuleNothingCaptured},
	})
}

// TestPathSentences: only the Flier and the Princess jump; a Dwar's path
// never crosses a square twice; Panthans never step back.
func TestPathSentences(t *testing.T) {
	runRuleCases(t, []ruleCase{
		// Seuls l'Aéronef et la Princesse sautent: les autres ne traversent que des cases vides
		{sentence: "un Guerrier ne saute pas",
			fen: fen(t, "Ca1 Pj1 ca10 pj10 We5 Ne6", "b Ee 0"), move: "e5-e7", rule: RulePathBlocked},
		{sentence: "un Dwar ne saute pas",
			fen: fen(t, "Ca1 Pj1 ca10 pj10 De5 Ne6", "b Ee 0"), move: "e5-e8", rule: RulePathBlocked},
		{sentence: "un Chef ne saute pas (aucun chemin libre)",
			fen: fen(t, "Ce5 Pj1 ca10 pj10 Nd6 Ne6 Nf6", "b Ee 0"), move: "e5-e8", rule: RulePathBlocked},
		{sentence: "un Thoat ne saute pas (e6 et f6 occupés)",
			fen: fen(t, "Ca1 Pj1 ca10 pj10 Te5 Ne6 Nf6", "b Ee 0"), move: "e5-f7", rule: RulePathBlocked},
		{sentence: "un Thoat passe par l'autre chemin (f6 libre)",
			fen: fen(t, "Ca1 Pj1 ca10 pj10 Te5 Ne6", "b Ee 0"), move: "e5-f7", check: notOver},
		{sentence: "un Padwar ne saute pas",
			fen: fen(t, "Ca1 Pj1 ca10 pj10 Ae5 Nf6", "b Ee 0"), move: "e5-g7", rule: RulePathBlocked},
		{sentence: "un Aéronef prend en sautant",
			fen: fen(t, "Ca1 Pj1 ca10 pj10 Fe5 Nf6 ng7 nh8", "b Ee 0"), move: "e5xh8", check: notOver},
		// Un Dwar ... toute combinaison ... dès l'instant où il ne traverse pas deux fois la même case dans un seul coup
		{sentence: "Dwar: nord de trois espaces",
			fen: fen(t, "Ca1 Pj1 ca10 pj10 Dd4", "b Ee 0"), move: "d4-d7", check: notOver},
		{sentence: "Dwar: nord d'un espace et est de deux espaces",
			fen: fen(t, "Ca1 Pj1 ca10 pj10 Dd4", "b Ee 0"), move: "d4-f5", check: notOver},
		{sentence: "Dwar: pas deux fois la même case (d4-d5 par d5-d6-d5 interdit)",
			fen: fen(t, "Ca1 Pj1 ca10 pj10 Dd4 Nc4 Ne4", "b Ee 0"), move: "d4-d5", rule: RulePathBlocked},
		{sentence: "Dwar: exactement trois pas (pas deux)",
			fen: fen(t, "Ca1 Pj1 ca10 pj10 Dd4", "b Ee 0"), move: "d4-d6", rule: RuleUnreachable},
		{sentence: "un coup ne finit pas où il a commencé",
			fen: fen(t, "Ca1 Pj1 ca10 pj10 Dd4", "b Ee 0"), move: "d4-d4", rule: RuleNullMove},
		// Panthans: pas à reculons
		{sentence: "Panthan: pas à reculons",
			fen: fen(t, "Ca1 Pj1 ca10 pj10 Ne5", "b Ee 0"), move: "e5-e4", rule: RuleUnreachable},
	})
}

// TestTurnSentences: who moves first, and no move after the end.
func TestTurnSentences(t *testing.T) {
	runRuleCases(t, []ruleCase{
		// Celui qui joue le premier est désigné d'un commun accord (FEN; Noir par défaut)
		{sentence: "le premier joueur: Orange quand la position le dit",
			fen: fen(t, "Ca1 Pj1 ca10 pj10 Ne5", "o Ee 0"), move: "e5-e6", rule: RuleNotYourPiece},
		{sentence: "le premier joueur: Noir par défaut",
			fen: "", move: "e2-e3", check: notOver},
		{sentence: "après la fin de la partie, plus de coup",
			fen: fen(t, "Ce5 Pj1 ce8 pj10 Na2", "b Ee 0"), before: []string{"e5xe8"}, move: "j10-j9", rule: RuleGameOver},
	})
}

// runRuleCases runs each case as a subtest named by its sentence: the moves
// before, then the move, which must break the case's rule or be legal and
// keep the incremental key right; then the case's check.
func runRuleCases(t *testing.T, cases []ruleCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.sentence, func(t *testing.T) {
			p := mustParse(t, c.fen)
			play(t, p, c.before...)
			m, err := p.ParseMove(c.move)
			if got := ruleOf(t, err); got != c.rule {
				t.Fatalf("%s: rule %q (%v), want %q", c.move, got, err, c.rule)
			}
			if err != nil {
				return
			}
			p.Play(m)
			if p.Key() != p.computeKey() {
				t.Errorf("incremental key differs from the computed one")
			}
			if c.check != nil {
				c.check(t, p)
			}
		})
	}
}

// TestStartPosition: the board, the pieces and their order.
func TestStartPosition(t *testing.T) {
	p := mustParse(t, "")
	at := map[string]string{}
	count := [2]int{}
	for _, pl := range p.Board() {
		at[pl.Square] = string(pl.Kind)
		if pl.Side == 1 {
			at[pl.Square] = strings.ToLower(at[pl.Square])
		}
		count[pl.Side]++
	}
	rows := []struct {
		sentence string
		squares  string
		want     string
	}{
		{"Noir: première ligne de la gauche à la droite: Guerrier Padwar Dwar Aéronef Chef Princesse Aéronef Dwar Padwar Guerrier",
			"a1 b1 c1 d1 e1 f1 g1 h1 i1 j1", "W A D F C P F D A W"},
		{"Noir: deuxième rangée: Thoat, huit Panthans, Thoat",
			"a2 b2 c2 d2 e2 f2 g2 h2 i2 j2", "T N N N N N N N N T"},
		{"Orange: première ligne de sa gauche (j10) à sa droite (a10); son Chef f10 face à la Princesse noire f1",
			"j10 i10 h10 g10 f10 e10 d10 c10 b10 a10", "w a d f c p f d a w"},
		{"Orange: deuxième rangée", "j9 i9 h9 g9 f9 e9 d9 c9 b9 a9", "t n n n n n n n n t"},
		{"un carré de cent cases: le centre est vide", "a3 j8 e5 f6", "   "},
	}
	for _, r := range rows {
		var got []string
		for _, sq := range strings.Fields(r.squares) {
			got = append(got, at[sq])
		}
		if strings.Join(got, " ") != r.want {
			t.Errorf("%s: got %q want %q", r.sentence, strings.Join(got, " "), r.want)
		}
	}
	if count != [2]int{20, 20} {
		t.Errorf("vingt pièces noires et vingt pièces orange: got %v", count)
	}
	if p.ToMove() != 0 {
		t.Errorf("Black moves first by default")
	}
	if o := p.Outcome(); o.Over {
		t.Errorf("start is over: %+v", o)
	}
}
