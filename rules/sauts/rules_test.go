package sauts_test

import (
	"errors"
	"sort"
	"strings"
	"testing"

	"github.com/plateau/plateau/rules"
	"github.com/plateau/plateau/rules/sauts"
)

// Positions used by the rule tests. Rows A..H top down, columns 1..8.
const (
	// Figure 2: the white pawn on G2 alone (a black pawn far away).
	fig2 = "8/6b1/8/8/8/8/1w6/8 w"
	// Figure 2's remark: with a white pawn on F3, G2-E4 is a jump.
	fig2Jump = "8/6b1/8/8/8/2w5/1w6/8 w"
	// Figure 3: G6 jumps over F5, D4, B3, A3: G6-E4-C4-A2-A4.
	fig3 = "2w5/2w4b/8/3w4/8/4w3/5w2/8 w"
	// Figure 3 with a white pawn on B5 that a chain could jump from A4 to C6.
	fig3B5 = "2w5/2w1w2b/8/3w4/8/4w3/5w2/8 w"
)

type moveCase struct {
	sentence string // the rule sentence (French text, or DESIGN.md)
	fen      string
	move     string
	rule     string // "" when legal
	canon    string // FormatMove of the parsed move, when legal
}

var moveCases = []moveCase{
	// §1
	{"Les joueurs jouent à tour de rôle en déplaçant un de leur pion (pas un pion adverse)", "", "C2-D2", sauts.RuleNoPawn, ""},
	{"Les joueurs jouent à tour de rôle en déplaçant un de leur pion (une case vide n'est pas un pion)", "", "E4-D4", sauts.RuleNoPawn, ""},
	{"Les joueurs jouent à tour de rôle en déplaçant un de leur pion", "", "F1-E1", "", "F1-E1"},
	{"Le vainqueur est le premier joueur à amener un pion dans une des deux cases des buts du camp adverse (A5)", "8/4w3/4w3/8/8/8/7b/8 w", "C5-A5", "", "C5-A5"},
	{"Le vainqueur est le premier joueur à amener un pion dans une des deux cases des buts du camp adverse (H5 pour Noir)", "w7/8/8/8/8/5b2/4b3/8 b", "F6-H4", "", "F6-H4"},

	// Figure 2.
	{"Figure 2: le pion blanc en G2 peut aller en G1", fig2, "G2-G1", "", "G2-G1"},
	{"Figure 2: le pion blanc en G2 peut aller en E2", fig2, "G2-E2", "", "G2-E2"},
	{"Figure 2: le pion blanc en G2 peut aller en H2", fig2, "G2-H2", "", "G2-H2"},
	{"Figure 2: le pion blanc en G2 peut aller en G5", fig2, "G2-G5", "", "G2-G5"},
	{"Figure 2: le pion blanc en G2 peut aller en G8", fig2, "G2-G8", "", "G2-G8"},
	{"Figure 2: mais ne peut pas aller en D2", fig2, "G2-D2", sauts.RuleMiddleLine, ""},
	{"Figure 2: mais ne peut pas aller en E4", fig2, "G2-E4", sauts.RuleNoPath, ""},
	{"Figure 2: mais ne peut pas aller en H3", fig2, "G2-H3", sauts.RuleNoPath, ""},
	{"Remarque: le déplacement G2 à E4 est en réalité possible par un saut (pion en F3)", fig2Jump, "G2-E4", "", "G2-E4"},

	// §3
	{"Il est impossible de se rendre dans ses propres buts (déplacement à domicile, Blanc en H4)", "8/6b1/8/8/8/8/8/1w6 w", "H2-H4", sauts.RuleOwnGoal, ""},
	{"Il est impossible de traverser ses propres buts (déplacement à domicile, H2-H7)", "8/6b1/8/8/8/8/8/1w6 w", "H2-H7", sauts.RuleOwnGoal, ""},
	{"Se rendre à côté de ses buts reste possible (H2-H3)", "8/6b1/8/8/8/8/8/1w6 w", "H2-H3", "", "H2-H3"},
	{"Il est impossible de se rendre dans ses propres buts (saut, Blanc F4 par-dessus G4 en H4)", "8/6b1/8/8/8/3w4/3w4/8 w", "F4-H4", sauts.RuleOwnGoal, ""},
	{"Il est impossible de se rendre dans ses propres buts (saut dans une chaîne)", "8/6b1/8/8/8/3w4/3w4/8 w", "F4-H4-F4", sauts.RuleOwnGoal, ""},
	{"Il est impossible de se rendre dans ses propres buts (Noir en A4 à domicile)", "1b6/8/8/8/8/8/6w1/8 b", "A2-A4", sauts.RuleOwnGoal, ""},
	{"Il est impossible de traverser ses propres buts (Noir A2-A6)", "1b6/8/8/8/8/8/6w1/8 b", "A2-A6", sauts.RuleOwnGoal, ""},
	{"Il est impossible de se rendre dans ses propres buts (saut noir C4 par-dessus B4 en A4)", "8/3b4/3b4/8/8/8/6w1/8 b", "C4-A4", sauts.RuleOwnGoal, ""},

	// §3.1
	{"Un pion qui est dans son camp peut utiliser un déplacement à domicile (hors de son camp: non)", "8/6b1/8/1w6/8/8/w7/8 w", "D2-D3", sauts.RuleNotHome, ""},
	{"Un pion qui est dans son camp peut utiliser un déplacement à domicile (Noir hors de son camp: non)", "b7/8/8/8/8/1b6/6w1/8 b", "F2-F5", sauts.RuleNotHome, ""},
	{"de manière orthogonale (haut)", fig2, "G2-F2", "", "G2-F2"},
	{"de manière orthogonale (bas)", fig2, "G2-H2", "", "G2-H2"},
	{"de manière orthogonale (pas en diagonale)", fig2, "G2-F3", sauts.RuleNoPath, ""},
	{"d'un nombre de cases voulu (7 maximum)", "8/6b1/8/8/8/8/w7/8 w", "G1-G8", "", "G1-G8"},
	{"sans sauter de pions (ni à soi)", "8/6b1/8/8/8/8/1w1w4/8 w", "G2-G5", sauts.RuleBlocked, ""},
	{"sans sauter de pions (ni à l'adversaire)", "8/6b1/8/8/8/8/1w1b4/8 w", "G2-G5", sauts.RuleBlocked, ""},
	{"sans sauter de pions (ni sur un pion)", "8/6b1/8/8/8/8/1w1b4/8 w", "G2-G4", sauts.RuleOccupied, ""},
	{"et sans franchir la ligne médiane (Blanc E2-D2)", "8/6b1/8/8/1w6/8/8/8 w", "E2-D2", sauts.RuleMiddleLine, ""},
	{"et sans franchir la ligne médiane (Noir D2-F2)", "8/8/8/1b6/8/8/6w1/8 b", "D2-F2", sauts.RuleMiddleLine, ""},
	{"la ligne médiane: aller jusqu'au bord de son camp reste possible (Noir D2 depuis A2)", "1b6/8/8/8/8/8/6w1/8 b", "A2-D2", "", "A2-D2"},

	// §3.2
	{"Un pion, peu importe sa position sur l'ensemble du plateau, peut sauter (dans le camp adverse)", "8/2ww4/8/8/8/8/6b1/8 w", "B4-B2", "", "B4-B2"},
	{"Un pion, peu importe sa position sur l'ensemble du plateau, peut sauter (par-dessus la ligne médiane)", "8/6b1/8/2w5/2w5/8/8/8 w", "E3-C3", "", "E3-C3"},
	{"dans toutes les directions (nord)", "8/6b1/8/8/8/3w4/3w4/8 w", "G4-E4", "", "G4-E4"},
	{"dans toutes les directions (y compris diagonales)", fig2Jump, "G2-E4", "", "G2-E4"},
	{"dans toutes les directions (diagonale arrière)", "8/6b1/8/8/3w4/4w3/8/8 w", "E4-G6", "", "E4-G6"},
	{"dans toutes les directions (est)", "8/6b1/8/8/8/8/1ww5/8 w", "G2-G4", "", "G2-G4"},
	{"dans toutes les directions (ouest)", "8/6b1/8/8/8/8/1ww5/8 w", "G3-G1", "", "G3-G1"},
	{"que par-dessus un de ses propres pions (pas un pion adverse, diagonale)", "8/6b1/8/8/8/2b5/1w6/8 w", "G2-E4", sauts.RuleNoPath, ""},
	{"que par-dessus un de ses propres pions (pas un pion adverse, dans une chaîne)", "8/8/8/3b4/8/2w5/1w6/8 w", "G2-E4-C4", sauts.RuleJumpOwn, ""},
	{"que si le pion sauté est un voisin direct", "8/6b1/8/8/8/8/wb1w4/8 w", "G1-G5-G3", sauts.RuleNotJump, ""},
	{"que si le pion sauté est un voisin direct (diagonale lointaine)", "8/6b1/8/8/3w4/8/1w6/8 w", "G2-D5", sauts.RuleNoPath, ""},
	{"si la case d'arrivée est vide", "8/6b1/8/8/1w6/1w6/1w6/8 w", "G2-E2", sauts.RuleOccupied, ""},
	{"si la case d'arrivée est juste derrière le voisin", "8/6b1/8/8/8/8/ww6/8 w", "G1-G2-G4", sauts.RuleNotJump, ""},
	{"Lorsque cela est possible, le joueur peut effectuer un enchaînement de plusieurs sauts", fig3, "G6-E4-C4", "", "G6-E4-C4"},
	{"Lorsque cela est possible, le joueur peut effectuer un enchaînement (il peut s'arrêter après un saut)", fig3, "G6-E4", "", "G6-E4"},
	{"(uniquement des sauts)", fig3, "G6-E4-D4", sauts.RuleNotJump, ""},
	{"Figure 3: G6 va en E4 puis C4 puis A2 puis A4 (et gagne)", fig3, "G6-E4-C4-A2-A4", "", "G6-E4-C4-A2-A4"},
	{"Figure 3, forme courte: origine et arrivée", fig3, "G6-A4", "", "G6-E4-C4-A2-A4"},
	{"Il est impossible de commencer par un déplacement à domicile puis de sauter", "8/6b1/8/8/8/4w3/1w6/8 w", "G2-G4-E6", sauts.RuleHomeThenJmp, ""},
	{"Il est impossible de commencer par un déplacement à domicile puis de sauter (forme courte)", "8/6b1/8/8/8/4w3/1w6/8 w", "G2-E6", sauts.RuleNoPath, ""},
	{"Il est impossible de commencer par un déplacement à domicile (glissade de 3) puis de sauter", "8/6b1/8/8/8/4w3/w7/8 w", "G1-G4-E6", sauts.RuleHomeThenJmp, ""},

	// §4
	{"Le jeu s'arrête dès qu'un joueur atteint le but adverse (l'enchaînement aussi)", fig3B5, "G6-E4-C4-A2-A4-C6", sauts.RuleAfterGoal, ""},
	{"Le jeu s'arrête dès qu'un joueur atteint le but adverse (plus aucun coup)", "3w4/2w5/8/8/8/8/7b/8 b", "G8-G7", sauts.RuleGameOver, ""},

	// DESIGN.md
	{"DESIGN: a move may not end where it began", fig2, "G2-G2", sauts.RuleSameSquare, ""},
	{"DESIGN: a chain never lands twice on one square, start included", "8/6b1/8/8/8/1ww5/1ww5/8 w", "G2-E2-G4-G2", sauts.RuleRevisit, ""},
	{"DESIGN: a chain never lands twice on one square", "8/6b1/8/8/8/2w5/1ww5/8 w", "G2-G4-E2-G4", sauts.RuleRevisit, ""},
	{"DESIGN: chains with the same origin and destination are one move, written shortest then alphabetical", "8/6b1/8/2www3/8/2www3/3w4/8 w", "G4-E6-C4", "", "G4-E2-C4"},
	{"DESIGN: a home move and a chain with the same ends are one move, written as the home move", "8/6b1/8/8/8/2w5/1ww5/8 w", "G2-G4-E2", "", "G2-E2"},
	{"notation: lower-case rows are read", "", "f1-e1", "", "F1-E1"},
}

func TestMoveRules(t *testing.T) {
	for _, c := range moveCases {
		t.Run(c.sentence, func(t *testing.T) {
			p := mustPos(t, c.fen)
			m, err := p.ParseMove(c.move)
			if c.rule != "" {
				var me *rules.MoveError
				if !errors.As(err, &me) || me.Kind != rules.Illegal || me.Rule != c.rule {
					t.Fatalf("%s in %s: got %v (%#v), want illegal %q", c.move, c.fen, err, me, c.rule)
				}
				if !errors.Is(err, rules.ErrMove) {
					t.Errorf("error does not wrap ErrMove")
				}
				return
			}
			if err != nil {
				t.Fatalf("%s in %s: %v", c.move, c.fen, err)
			}
			if got := p.FormatMove(m); got != c.canon {
				t.Errorf("FormatMove = %q, want %q", got, c.canon)
			}
			found := false
			for _, l := range p.Legal(nil) {
				found = found || l == m
			}
			if !found {
				t.Errorf("%s parsed but not in Legal", c.move)
			}
		})
	}
}

func dests(p rules.Position, from string) []string {
	var out []string
	for _, m := range p.Legal(nil) {
		if d := p.Describe(m); d.From == from {
			out = append(out, d.To)
		}
	}
	sort.Strings(out)
	return out
}

func TestFigure2Destinations(t *testing.T) {
	// Home moves only (no other white pawn to jump): the whole row G, E2, F2, H2.
	got := strings.Join(dests(mustPos(t, fig2), "G2"), " ")
	want := "E2 F2 G1 G3 G4 G5 G6 G7 G8 H2"
	if got != want {
		t.Errorf("G2 goes to %s, want %s", got, want)
	}
}

func TestFigure3Wins(t *testing.T) {
	p := mustPos(t, fig3)
	m, err := p.ParseMove("G6-E4-C4-A2-A4")
	if err != nil {
		t.Fatal(err)
	}
	p.Play(m)
	o := p.Outcome()
	if !o.Over || o.Result != "1-0" || o.Reason != sauts.ReasonGoal {
		t.Fatalf("outcome %+v, want 1-0 goal reached", o)
	}
	if n := len(p.Legal(nil)); n != 0 {
		t.Errorf("%d legal moves after the game ended", n)
	}
	if err := p.CheckResult("1-0"); err != nil {
		t.Error(err)
	}
	for _, r := range []string{"0-1", "*", "1/2-1/2"} {
		if err := p.CheckResult(r); !errors.Is(err, rules.ErrResult) {
			t.Errorf("CheckResult(%q) = %v, want ErrResult", r, err)
		}
	}
	// From A4 a further jump over B5 to C6 would be possible; the chain ends on the goal.
	p = mustPos(t, fig3B5)
	if d := dests(p, "G6"); contains(d, "C6") && !contains(d, "A4") {
		t.Errorf("G6 dests %v", d)
	}
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if x == y {
			return true
		}
	}
	return false
}

func TestStartPosition(t *testing.T) {
	// Figure 1, §2: 8×8, 16 pawns, 8 of each colour.
	p := mustPos(t, "")
	if p.String() != sauts.StartFEN {
		t.Errorf("start %q", p.String())
	}
	var w, b []string
	for _, pl := range p.Board() {
		if pl.Side == 0 {
			w = append(w, pl.Square)
		} else {
			b = append(b, pl.Square)
		}
	}
	if got := strings.Join(b, " "); got != "B1 B3 B5 B7 C2 C4 C6 C8" {
		t.Errorf("black %s", got)
	}
	if got := strings.Join(w, " "); got != "F1 F3 F5 F7 G2 G4 G6 G8" {
		t.Errorf("white %s", got)
	}
	if p.ToMove() != 0 {
		t.Errorf("White moves first")
	}
	if o := p.Outcome(); o.Over {
		t.Errorf("start is over: %+v", o)
	}
}

func TestTurnsAlternate(t *testing.T) {
	p := mustPos(t, "")
	m, err := p.ParseMove("F1-E1")
	if err != nil {
		t.Fatal(err)
	}
	p.Play(m)
	if p.ToMove() != 1 {
		t.Fatalf("after White's move, %d to move", p.ToMove())
	}
	if _, err := p.ParseMove("E1-D1"); err == nil {
		t.Errorf("White moved twice")
	}
	if _, err := p.ParseMove("C2-D2"); err != nil {
		t.Errorf("Black's move: %v", err)
	}
}

func TestNoCaptures(t *testing.T) {
	// "Il n'y a pas de capture/prise de pions dans ce jeu."
	for seed := uint64(1); seed <= 30; seed++ {
		p := mustPos(t, "")
		rng := seed
		for ply := 0; ply < 200 && !p.Outcome().Over; ply++ {
			ms := p.Legal(nil)
			rng = rng*6364136223846793005 + 1442695040888963407
			p.Play(ms[int(rng>>33)%len(ms)])
			var n [2]int
			for _, pl := range p.Board() {
				n[pl.Side]++
			}
			if n != [2]int{8, 8} {
				t.Fatalf("pawn count %v in %s", n, p)
			}
		}
	}
}

func TestBlockedLoses(t *testing.T) {
	// DESIGN: a side with no legal move loses. White's only pawns are in
	// Black's half with no white neighbour to jump.
	cases := []struct{ fen, result string }{
		{"8/1w6/8/8/8/8/6b1/8 w", "0-1"},
		{"wb6/bb6/8/8/8/8/8/8 w", "0-1"}, // A1 white boxed in by black
		{"8/8/8/8/8/8/6b1/w7 b", "1-0"},  // lone black pawn in White's half
	}
	for _, c := range cases {
		p := mustPos(t, c.fen)
		o := p.Outcome()
		if !o.Over || o.Result != c.result || o.Reason != sauts.ReasonBlocked {
			t.Errorf("%s: outcome %+v, want %s blocked", c.fen, o, c.result)
		}
		if n := len(p.Legal(nil)); n != 0 {
			t.Errorf("%s: %d legal moves", c.fen, n)
		}
	}
}

func TestCheckResult(t *testing.T) {
	p := mustPos(t, "")
	for _, r := range []string{"*", "1-0", "0-1", "1/2-1/2"} {
		if err := p.CheckResult(r); err != nil {
			t.Errorf("unfinished game, result %q: %v", r, err)
		}
	}
	for _, r := range []string{"", "2-0", "1-1", "½-½", "0-0"} {
		if err := p.CheckResult(r); !errors.Is(err, rules.ErrResult) {
			t.Errorf("result %q: %v, want ErrResult", r, err)
		}
	}
	blocked := mustPos(t, "8/1w6/8/8/8/8/6b1/8 w")
	if err := blocked.CheckResult("0-1"); err != nil {
		t.Error(err)
	}
	if err := blocked.CheckResult("1-0"); !errors.Is(err, rules.ErrResult) {
		t.Errorf("blocked White cannot win: %v", err)
	}
}

func TestPositionNotation(t *testing.T) {
	good := []string{
		sauts.StartFEN,
		fig3,
		"3w4/2w5/8/8/8/8/7b/8 b", // White has won
		"8/8/8/8/8/8/8/bw6 b",
	}
	for _, f := range good {
		p := mustPos(t, f)
		if p.String() != f {
			t.Errorf("round trip %q -> %q", f, p.String())
		}
	}
	bad := []string{
		"8/8/8/8/8/8/8/8 w",                    // no pawns
		sauts.StartFEN[:len(sauts.StartFEN)-2], // no side to move
		strings.Replace(sauts.StartFEN, " w", " x", 1),
		"8/b1b1b1b1/1b1b1b1b/8/8/w1w1w1w1/1w1w1w1w w",    // 7 rows
		"9/b1b1b1b1/1b1b1b1b/8/8/w1w1w1w1/1w1w1w1w/8 w",  // digit 9
		"8/b1b1b1b1b/1b1b1b1b/8/8/w1w1w1w1/1w1w1w1w/8 w", // 9 squares
		"8/b1b1b1b/1b1b1b1b/8/8/w1w1w1w1/1w1w1w1w/8 w",   // 7 squares
		"8/b1b1b1b1/1b1b1b1b/8/8/w1w1w1w1/1w1w1w1w/7 w",  // 7 squares
		"8/bbbbbbbb/b7/8/8/8/w7/8 w",                     // 9 black pawns
		"8/b7/8/8/8/8/8/3w4 w",                           // white on its own goal H4
		"3b4/8/8/8/8/8/w7/8 w",                           // black on its own goal A4
		"3w4/8/8/8/8/8/8/4b3 b",                          // both on targets
		"3w4/b7/8/8/8/8/8/8 w",                           // White won, White to move
		"8/b1b1k1b1/1b1b1b1b/8/8/w1w1w1w1/1w1w1w1w/8 w",  // bad letter
		"8/b1b1b1b1/1b1b1b1b/8/8/w1w1w1w1/1w1w1w1w/8 w extra",
	}
	for _, f := range bad {
		if _, err := sauts.NewPosition(f); !errors.Is(err, rules.ErrPosition) {
			t.Errorf("NewPosition(%q) = %v, want ErrPosition", f, err)
		}
	}
	g, err := rules.Lookup("sauts")
	if err != nil {
		t.Fatal(err)
	}
	if g.Name() != "Sauts" || g.Sides() != [2]string{"White", "Black"} || g.IllegalMoveLoses() {
		t.Errorf("game %s %v %v", g.Name(), g.Sides(), g.IllegalMoveLoses())
	}
	if p, err := g.NewPosition(""); err != nil || p.String() != sauts.StartFEN {
		t.Errorf("Game.NewPosition: %v %v", p, err)
	}
}

func TestSyntax(t *testing.T) {
	p := mustPos(t, "")
	for _, s := range []string{"", "F1", "F1E1", "F1-", "F1-E9", "I1-E1", "F1xE1", "F1--E1", "F1-E1-", "F10-E1"} {
		_, err := p.ParseMove(s)
		var me *rules.MoveError
		if !errors.As(err, &me) || me.Kind != rules.Syntax {
			t.Errorf("ParseMove(%q) = %v, want syntax error", s, err)
		}
	}
}

func TestKeys(t *testing.T) {
	// Keys are incremental and equal to a fresh position's key; side to move counts.
	for seed := uint64(1); seed <= 20; seed++ {
		p := mustPos(t, "")
		rng := seed
		seen := map[string]uint64{}
		for ply := 0; ply < 150 && !p.Outcome().Over; ply++ {
			fresh := mustPos(t, p.String())
			if fresh.Key() != p.Key() {
				t.Fatalf("incremental key differs in %s", p)
			}
			if k, ok := seen[p.String()]; ok && k != p.Key() {
				t.Fatalf("same position, two keys")
			}
			seen[p.String()] = p.Key()
			ms := p.Legal(nil)
			rng = rng*6364136223846793005 + 1442695040888963407
			p.Play(ms[int(rng>>33)%len(ms)])
		}
		keys := map[uint64]string{}
		for s, k := range seen {
			if o, dup := keys[k]; dup {
				t.Fatalf("key collision %s / %s", s, o)
			}
			keys[k] = s
		}
	}
	a := mustPos(t, "8/6b1/8/8/8/8/1w6/8 w")
	b := mustPos(t, "8/6b1/8/8/8/8/1w6/8 b")
	if a.Key() == b.Key() {
		t.Error("side to move is not in the key")
	}
	// Transposition: two orders, one position, one key.
	x, y := mustPos(t, ""), mustPos(t, "")
	for _, mv := range []string{"F1-E1", "C2-D2", "F3-E3", "C4-D4"} {
		play(t, x, mv)
	}
	for _, mv := range []string{"F3-E3", "C4-D4", "F1-E1", "C2-D2"} {
		play(t, y, mv)
	}
	if x.Key() != y.Key() || x.String() != y.String() {
		t.Error("transposition gives different keys")
	}
}

func play(t testing.TB, p rules.Position, text string) {
	t.Helper()
	m, err := p.ParseMove(text)
	if err != nil {
		t.Fatalf("%s in %s: %v", text, p, err)
	}
	p.Play(m)
}

func TestFormatParseRoundTrip(t *testing.T) {
	// Every legal move's canonical form parses back to it, along random games
	// from the tricky positions; Clone is independent.
	for seed := uint64(1); seed <= 20; seed++ {
		for _, fen := range trickyFENs {
			p := mustPos(t, fen)
			rng := seed
			for ply := 0; ply < 100; ply++ {
				ms := p.Legal(nil)
				if len(ms) == 0 {
					break
				}
				for _, m := range ms {
					s := p.FormatMove(m)
					back, err := p.ParseMove(s)
					if err != nil || back != m {
						t.Fatalf("%s: %s parses to %v, %v", p, s, back, err)
					}
					d := p.Describe(m)
					short, err := p.ParseMove(d.From + "-" + d.To)
					if err != nil || short != m {
						t.Fatalf("%s: short form of %s: %v", p, s, err)
					}
				}
				c := p.Clone()
				before := p.String()
				rng = rng*6364136223846793005 + 1442695040888963407
				c.Play(ms[int(rng>>33)%len(ms)])
				if p.String() != before {
					t.Fatal("Clone shares state")
				}
				p = c.(*sauts.Position)
			}
		}
	}
}

func TestDiagram(t *testing.T) {
	d := mustPos(t, "").Diagram()
	if !strings.Contains(d, "White to move") || strings.Count(d, "●") != 8 || strings.Count(d, "○") != 8 {
		t.Errorf("diagram:\n%s", d)
	}
}
