package dames_test

import (
	"errors"
	"math/rand"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/plateau/plateau/rules"
)

func TestFEN(t *testing.T) {
	tests := []struct {
		game, in, want string
	}{
		{"draughts", "", "W:W31-50:B1-20"},
		{"dames", "", "B:W31-50:B1-20"},
		{"loup-moutons", "", "B:W29-32:B1"},
		{"loup-moutons", "B:W46,47,48,49:B3", "B:W46-49:B3:10x10"},
		{"draughts", "W:W31-50:B1-20.", "W:W31-50:B1-20"},
		{"draughts", "W:W10,16,19,28,31,33,46:B7,8,12,17,26,37,42.", "W:W10,16,19,28,31,33,46:B7,8,12,17,26,37,42"},
		{"draughts", "?:W29,13,11:B22,4,2", "W:W11,13,29:B2,4,22"},
		{"draughts", "W:W31,29,K15:B14,13,12,9", "W:WK15,29,31:B9,12-14"},
		{"draughts", "B:BK1,K2,K3,4:W50", "B:W50:BK1-3,4"},
		{"draughts", "W: W 31 - 50 : B 01-20", "W:W31-50:B1-20"},
		{"draughts", "W:W31-50:B", "W:W31-50:B"},
		{"dames", "W:W28,45:B6,22:H22", "W:W28,45:B6,22:H22"},
		// PDN fen.rst, Extensions: "It should therefore be extended to
		// accept empty ranges of pieces" (bridges.pdn of the corpus has "W::.").
		{"checkers", "W::.", "W:W:B"},
		{"draughts", "B::B1-20", "B:W:B1-20"},
	}
	for _, tc := range tests {
		p := mustPos(t, tc.game, tc.in)
		if got := p.String(); got != tc.want {
			t.Errorf("%s %q: %s, want %s", tc.game, tc.in, got, tc.want)
		}
		q := mustPos(t, tc.game, p.String())
		if q.String() != p.String() || q.Key() != p.Key() {
			t.Errorf("%s %q does not round-trip", tc.game, tc.in)
		}
	}
	bad := []struct{ game, in string }{
		{"draughts", "X:W31:B1"},
		{"draughts", "W:W31,31:B1"},
		{"draughts", "W:W31:B31"},
		{"draughts", "W:W51:B1"},
		{"draughts", "W:W0:B1"},
		{"draughts", "W:Wa3:B1"},
		{"draughts", "W"},
		{"draughts", "W:W31-20:B1"},
		{"draughts", "W:W31:W32"},
		{"loup-moutons", "B:W29-32:B1,2"},
		{"loup-moutons", "B:W29-32:BK1"},
		{"draughts", "W:W28,45:B6,22:H22"},
		{"dames", "W:W28,45:B6,22:H28"},
	}
	for _, tc := range bad {
		g, _ := rules.Lookup(tc.game)
		if _, err := g.NewPosition(tc.in); !errors.Is(err, rules.ErrPosition) {
			t.Errorf("%s %q: %v, want ErrPosition", tc.game, tc.in, err)
		}
	}
}

func TestLookup(t *testing.T) {
	for _, id := range []string{"dames", "dames-brigand", "loup-moutons", "draughts", "20", "international", "20,W,10,10,N2,0"} {
		if _, err := rules.Lookup(id); err != nil {
			t.Errorf("Lookup(%q): %v", id, err)
		}
	}
	g, _ := rules.Lookup("20")
	if g.ID() != "draughts" || g.Sides() != [2]string{"White", "Black"} {
		t.Errorf("GameType 20 is %s %v", g.ID(), g.Sides())
	}
}

// Random games: every legal move formats to a text that parses back to it,
// and every short capture that matches several sequences is Ambiguous with
// candidates that parse back to exactly those moves.
func TestNotationRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	ambiguous := 0
	for _, game := range []string{"dames", "draughts", "loup-moutons", "spanish", "thai", "turkish", "canadian", "frisian", "spantsiretti"} {
		games := 80
		if game != "dames" && game != "draughts" && game != "loup-moutons" {
			games = 20
		}
		for i := 0; i < games; i++ {
			fen := ""
			if game != "loup-moutons" && i%2 == 1 {
				fen = randomFEN(rng, game)
			}
			p := mustPos(t, game, fen)
			for ply := 0; ply < 100 && !p.Outcome().Over; ply++ {
				moves := p.Legal(nil)
				for _, m := range moves {
					text := p.FormatMove(m)
					got, err := p.ParseMove(text)
					if err != nil || got != m {
						t.Fatalf("%s %s: %q parses to %v, %v", game, p, text, got, err)
					}
					info := p.Describe(m)
					short := info.From + "x" + info.To
					if len(text) > len(info.From) {
						short = info.From + text[len(info.From):len(info.From)+1] + info.To // the ruleset's separator (Thai writes "-")
					}
					if info.Captures > 0 && text != short {
						// The short form is either ambiguous, or exactly the
						// one-leg path of another capture.
						other, err := p.ParseMove(short)
						var me *rules.MoveError
						switch {
						case errors.As(err, &me) && me.Kind == rules.Ambiguous:
							if !containsText(me.Candidates, text) {
								t.Fatalf("%s %s: %q candidates %v lack %q", game, p, short, me.Candidates, text)
							}
							ambiguous++
						case err == nil && other != m && p.FormatMove(other) == short:
						default:
							t.Fatalf("%s %s: %q: %v, want ambiguous", game, p, short, err)
						}
					}
				}
				p.Play(moves[rng.Intn(len(moves))])
			}
		}
	}
	if ambiguous == 0 {
		t.Errorf("no ambiguous capture met")
	}
}

func FuzzParseMove(f *testing.F) {
	for _, s := range []string{"32-28", "19x28", "19x28x37", "19:28", "H27", "1- 6", "c3-d4", "x", "-", "99x1", "01-06", "28x19x", "h22"} {
		f.Add("draughts", "", s)
		f.Add("dames", "W:W28,45:B6,22:H22", s)
	}
	for _, s := range []string{"c3-d4", "h2xf4", "h6:f4", "c3:e5:g7", "22-18", "H28", "a1-b2", "i9-h8", "c3xe5x"} {
		f.Add("russian", "", s)
		f.Add("czech", "W:W22,K32:B18,27", s)
	}
	for _, s := range []string{"c3-c4", "d3xd5xf5", "a2-a1", "h8-h9", "c3xc5", "33-28"} {
		f.Add("turkish", "", s)
	}
	for _, s := range []string{"9-13", "22-15", "22-15-6", "22x15", "1-10"} {
		f.Add("thai", "", s)
		f.Add("frisian", "W:WK28,31:B10,K45:RW28/2", s)
	}
	for _, s := range []string{"9-13", "22x13", "27x9", "1-10"} {
		f.Add("checkers", "", s)
		f.Add("italian", "W:WK27:BK22,13,23,K15", s)
	}
	f.Fuzz(func(t *testing.T, game, fen, text string) {
		g, err := rules.Lookup(game)
		if err != nil {
			return
		}
		p, err := g.NewPosition(fen)
		if err != nil {
			return
		}
		m, err := p.ParseMove(text)
		if err != nil {
			var me *rules.MoveError
			if !errors.As(err, &me) {
				t.Fatalf("%q: error %v is not a MoveError", text, err)
			}
			return
		}
		_ = p.Describe(m)
		back := p.FormatMove(m)
		if m2, err := p.ParseMove(back); err != nil || m2 != m {
			t.Fatalf("%q → %q does not parse back: %v", text, back, err)
		}
		p.Play(m)
		_ = p.Outcome()
	})
}

func FuzzNewPosition(f *testing.F) {
	for _, s := range []string{"W:W31-50:B1-20", "?:W29,13,11:B22,4,2", "B:BK1,K2:W50.", "W:W28:B6:H6", ":::", "W:W1-", "W:WK"} {
		f.Add("draughts", s)
		f.Add("loup-moutons", s)
	}
	for _, s := range []string{"B:W23,24,31,32:B18:10x10", "W:Wa1,c1,Kh2:Bh8", "B:W21-32:B1-12:8x8", "W:W1:B2:10X10:H1", "W:Wa9:Bz1"} {
		f.Add("loup-moutons", s)
		f.Add("russian", s)
		f.Add("italian", s)
	}
	f.Fuzz(func(t *testing.T, game, fen string) {
		g, err := rules.Lookup(game)
		if err != nil {
			return
		}
		p, err := g.NewPosition(fen)
		if err != nil {
			if !errors.Is(err, rules.ErrPosition) {
				t.Fatalf("%q: %v", fen, err)
			}
			return
		}
		q, err := g.NewPosition(p.String())
		if err != nil || q.String() != p.String() || q.Key() != p.Key() {
			t.Fatalf("%q → %q does not round-trip: %v", fen, p.String(), err)
		}
		_ = p.Legal(nil)
		_ = p.Outcome()
		_ = p.Diagram()
	})
}

// Le loup et les moutons is played on 8×8 or 10×10: a position string says
// its board size (":10x10", Plateau's own section, since PDN says the size
// only in the GameType tag) whenever it is not the ruleset's default 8×8, so
// that a 10×10 game whose pieces all stand on squares 1–32 does not read
// back as an 8×8 position with other moves. Both forms are read: without
// the section, a square above 32 still means 10×10.
func TestBoardSizeMarker(t *testing.T) {
	found := 0
	for seed := int64(1); seed <= 100 && found < 3; seed++ {
		rng := rand.New(rand.NewSource(seed))
		p := mustPos(t, "loup-moutons", "B:W46-49:B8")
		for ply := 0; ply < 60 && !p.Outcome().Over; ply++ {
			low := true
			for _, pl := range p.Board() {
				if n, _ := strconv.Atoi(pl.Square); n > 32 {
					low = false
				}
			}
			if low {
				s := p.String()
				if !strings.HasSuffix(s, ":10x10") {
					t.Fatalf("10×10 position written %s, without its size", s)
				}
				q := mustPos(t, "loup-moutons", s)
				if q.String() != s || q.Key() != p.Key() || !sameMoves(p, q) {
					t.Fatalf("%s reads back as %s (other moves or key)", s, q)
				}
				bare := mustPos(t, "loup-moutons", strings.TrimSuffix(s, ":10x10"))
				if bare.Key() == p.Key() || sameMoves(p, bare) {
					t.Errorf("%s without its size section reads as the same 10×10 position", s)
				}
				found++
				break
			}
			moves := p.Legal(nil)
			p.Play(moves[rng.Intn(len(moves))])
		}
	}
	if found == 0 {
		t.Fatal("no 10×10 game reached a position on squares 1–32")
	}
	for _, tc := range []struct {
		game, fen, want string // want "" for an error
	}{
		{"loup-moutons", "B:W23,24,31,32:B18:10x10", "B:W23,24,31,32:B18:10x10"},
		{"loup-moutons", "B:W23,24,31,32:B18", "B:W23,24,31,32:B18"},
		{"loup-moutons", "B:W23,24,31,32:B18:8x8", "B:W23,24,31,32:B18"},
		{"loup-moutons", "B:W46-49:B8", "B:W46-49:B8:10x10"},
		{"loup-moutons", "B:W46-49:B8:8x8", ""},
		{"loup-moutons", "B:W1:B8:10x10:10x10", ""},
		{"loup-moutons", "B:W1:B8:9x9", ""},
		{"draughts", "W:W31-50:B1-20:10x10", "W:W31-50:B1-20"},
		{"draughts", "W:W31:B1:8x8", ""},
		{"checkers", "B:W21-32:B1-12:8x8", "B:W21-32:B1-12"},
		{"checkers", "B:W21-32:B1-12:10x10", ""},
	} {
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
		} else if p.String() != tc.want {
			t.Errorf("%s %q: %s, want %s", tc.game, tc.fen, p, tc.want)
		}
	}
}

func sameMoves(a, b rules.Position) bool {
	var x, y []string
	for _, m := range a.Legal(nil) {
		x = append(x, a.FormatMove(m))
	}
	for _, m := range b.Legal(nil) {
		y = append(y, b.FormatMove(m))
	}
	sort.Strings(x)
	sort.Strings(y)
	return strings.Join(x, " ") == strings.Join(y, " ")
}

// TestSeparatorOmittedOnlyAlphaNumeric: the separator may be omitted only
// in alpha-numeric moves (PDN grammar.rst; TestFamilyNotation reads them),
// and a bare pair of squares is still checked as a move.
func TestSeparatorOmittedOnlyAlphaNumeric(t *testing.T) {
	for _, tc := range []struct{ game, text string }{{"checkers", "2218"}, {"russian", "c3d5"}, {"russian", "c3d4e5"}} {
		p := mustPos(t, tc.game, "")
		if _, err := p.ParseMove(tc.text); err == nil {
			t.Errorf("%s %q read as a move", tc.game, tc.text)
		}
	}
}
