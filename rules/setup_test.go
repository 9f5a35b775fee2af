package rules_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/plateau/plateau/rules"
)

// TestSetupRoundTrip: for every game, a position's own pieces and side to
// move, set up again from it, write the position itself (its start, and
// after each of its first plies), so that the set-up editor's string and
// board stay in step.
func TestSetupRoundTrip(t *testing.T) {
	for _, g := range rules.Games() {
		pos, err := g.NewPosition("")
		if err != nil {
			t.Fatal(err)
		}
		for ply := 0; ply < 12; ply++ {
			text, got, err := rules.Setup(g, pos, pos.Board(), pos.ToMove())
			if err != nil || text != pos.String() || got.Key() != pos.Key() {
				t.Errorf("%s ply %d: set up again %q, %v; want %q", g.ID(), ply, text, err, pos.String())
			}
			legal := pos.Legal(nil)
			if len(legal) == 0 || pos.Outcome().Over {
				break
			}
			pos.Play(legal[len(legal)/2])
		}
	}
}

func setupOn(sq string, side rules.Side, kind byte) rules.Placement {
	return rules.Placement{Square: sq, Side: side, Kind: kind, Count: 1}
}

func setupHand(side rules.Side, kind byte, prom bool, n int) rules.Placement {
	return rules.Placement{Side: side, Kind: kind, Promoted: prom, Count: n}
}

// setupCases are set-ups of every game: written and accepted, written and
// refused by the rules (err), or not written (composeErr).
var setupCases = []struct {
	name, game, base string
	board            []rules.Placement
	toMove           rules.Side
	want             string // the text written ("" when none)
	err              string // in the error when refused
	composeErr       bool   // refused before any text is written
}{
	{"ogi two kings and hands", "ogi", "", []rules.Placement{setupOn("e1", 0, 'K'), setupOn("e8", 1, 'K'), setupHand(0, 'P', false, 2), setupHand(1, 'R', true, 1)}, 1,
		"4k3/8/8/8/8/8/8/4K3 w 2P+r 1", "", false},
	{"ogi a captured King is in the captor's hand", "ogi", "", []rules.Placement{setupOn("e1", 0, 'K'), setupHand(0, 'K', false, 1)}, 0,
		"8/8/8/8/8/8/8/4K3 b K 1", "", false},
	{"ogi a side without its King", "ogi", "", []rules.Placement{setupOn("e1", 0, 'K')}, 0,
		"8/8/8/8/8/8/8/4K3 b - 1", "Gote must have one King", false},
	{"ogi too many pawns", "ogi", "", []rules.Placement{setupOn("e1", 0, 'K'), setupOn("e8", 1, 'K'), setupHand(0, 'P', false, 17)}, 0,
		"4k3/8/8/8/8/8/8/4K3 b 17P 1", "more than 16 pieces of kind P", false},
	{"ogi the move number is the base's", "ogi", "4k3/8/8/8/8/8/8/4K3 w - 31", []rules.Placement{setupOn("e1", 0, 'K'), setupOn("d8", 1, 'K')}, 0,
		"3k4/8/8/8/8/8/8/4K3 b - 31", "", false},
	{"ogi two pieces on a square", "ogi", "", []rules.Placement{setupOn("e1", 0, 'K'), setupOn("e1", 1, 'K')}, 0, "", "two pieces on e1", true},
	{"ogi not a square", "ogi", "", []rules.Placement{setupOn("i9", 0, 'K')}, 0, "", "not a square", true},
	{"ogi not a piece", "ogi", "", []rules.Placement{setupOn("e1", 0, 'Q')}, 0, "", "not a piece of Ōgi", true},
	{"dames men and a king", "dames", "", []rules.Placement{setupOn("31", 0, 'M'), setupOn("32", 0, 'K'), setupOn("1", 1, 'M')}, 1,
		"B:W31,K32:B1", "", false},
	{"dames a king as a promoted man", "dames", "", []rules.Placement{{Square: "28", Side: 0, Kind: 'M', Promoted: true, Count: 1}}, 0,
		"W:WK28:B", "", false},
	{"dames not a square", "dames", "", []rules.Placement{setupOn("51", 0, 'M')}, 0, "", "not a square of the 10×10 board", true},
	{"checkers side 0 is Black", "checkers", "", []rules.Placement{setupOn("1", 0, 'M'), setupOn("32", 1, 'M')}, 0,
		"B:W32:B1", "", false},
	{"loup-moutons needs one wolf", "loup-moutons", "", []rules.Placement{setupOn("1", 1, 'M'), setupOn("3", 1, 'M'), setupOn("29", 0, 'M')}, 0,
		"W:W29:B1,3", "exactly one wolf", false},
	{"loup-moutons 10×10 stays 10×10", "loup-moutons", "B:W46,47,48,49,50:B3:10x10", []rules.Placement{setupOn("3", 1, 'M'), setupOn("46", 0, 'M')}, 1,
		"B:W46:B3:10x10", "", false},
	{"dames-brigand", "dames-brigand", "", []rules.Placement{setupOn("45", 0, 'M'), setupOn("6", 1, 'K')}, 0,
		"W:W45:BK6", "", false},
	{"jetan", "jetan", "", []rules.Placement{setupOn("e1", 0, 'C'), setupOn("f1", 0, 'P'), setupOn("e10", 1, 'P'), setupOn("f10", 1, 'C')}, 1,
		"4pc4/10/10/10/10/10/10/10/10/4CP4 o Ee 0", "", false},
	{"jetan without Orange's Chief", "jetan", "", []rules.Placement{setupOn("e1", 0, 'C'), setupOn("f1", 0, 'P'), setupOn("e10", 1, 'P')}, 0,
		"4p5/10/10/10/10/10/10/10/10/4CP4 b Ee 0", "Chief", false},
	{"jetan no hands", "jetan", "", []rules.Placement{setupHand(0, 'N', false, 1)}, 0, "", "no pieces in hand", true},
	{"dejarik", "dejarik", "", []rules.Placement{setupOn("c", 0, 'P'), setupOn("i3", 0, 'P'), setupOn("o1", 0, 'P'), setupOn("o9", 1, 'P'), setupOn("o10", 1, 'P')}, 1,
		"B:Wc,i3,o1:Bo9,o10", "", false},
	{"dejarik not a cell", "dejarik", "", []rules.Placement{setupOn("o13", 0, 'P')}, 0, "", "not a cell", true},
	{"dejarik pawns only", "dejarik", "", []rules.Placement{setupOn("c", 0, 'K')}, 0, "", "the pieces of Dejarik are pawns (P)", true},
	{"dejarik no promotion", "dejarik", "", []rules.Placement{{Square: "c", Side: 1, Kind: 'P', Promoted: true, Count: 1}}, 0, "", "Dejarik has no promoted pieces", true},
	{"sauts no hands", "sauts", "", []rules.Placement{setupHand(1, 'P', false, 2)}, 0, "", "Sauts has no pieces in hand", true},
	{"sauts a side 2", "sauts", "", []rules.Placement{setupOn("G2", 2, 'P')}, 0, "", "the pieces of Sauts are pawns (P)", true},
	{"sauts", "sauts", "", []rules.Placement{setupOn("G2", 0, 'P'), setupOn("B1", 1, 'P')}, 1,
		"8/b7/8/8/8/8/1w6/8 b", "", false},
	{"sauts a pawn on its own goal", "sauts", "", []rules.Placement{setupOn("H4", 0, 'P'), setupOn("B1", 1, 'P')}, 0,
		"8/b7/8/8/8/8/8/3w4 w", "own goal", false},
	{"sauts a side without pawns", "sauts", "", []rules.Placement{setupOn("G2", 0, 'P')}, 0,
		"8/8/8/8/8/8/1w6/8 w", "Black has 0 pawns", false},
}

func TestSetupRules(t *testing.T) {
	for _, tt := range setupCases {
		t.Run(tt.name, func(t *testing.T) {
			g, err := rules.Lookup(tt.game)
			if err != nil {
				t.Fatal(err)
			}
			base, err := g.NewPosition(tt.base)
			if err != nil {
				t.Fatal(err)
			}
			text, pos, err := rules.Setup(g, base, tt.board, tt.toMove)
			if text != tt.want {
				t.Errorf("written %q, want %q", text, tt.want)
			}
			switch {
			case tt.err == "" && err != nil:
				t.Errorf("refused: %v", err)
			case tt.err == "" && (pos == nil || pos.String() != tt.want || pos.ToMove() != tt.toMove):
				t.Errorf("read back as %v", pos)
			case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err) || !errors.Is(err, rules.ErrPosition)):
				t.Errorf("error %v, want one saying %q", err, tt.err)
			case tt.err != "" && pos != nil:
				t.Errorf("refused yet read as %v", pos)
			}
			if tt.composeErr && text != "" {
				t.Errorf("written although refused: %q", text)
			}
		})
	}
}
