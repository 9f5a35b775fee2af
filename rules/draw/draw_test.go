package draw_test

import (
	"strings"
	"testing"

	"github.com/plateau/plateau/rules"
	_ "github.com/plateau/plateau/rules/all"
	"github.com/plateau/plateau/rules/draw"
)

// TestEveryGameDrawsItsSquares: every game Plateau plays says how it is
// drawn, on a board of named, distinct cells inside its frame that hold
// every piece of its start position, with a colour for each side.
func TestEveryGameDrawsItsSquares(t *testing.T) {
	for _, g := range rules.Games() {
		if _, ok := g.(draw.Drawer); !ok {
			t.Errorf("%s is not a draw.Drawer", g.ID())
		}
		start, err := g.NewPosition("")
		if err != nil {
			t.Fatalf("%s: %v", g.ID(), err)
		}
		for _, pos := range []rules.Position{start, nil} {
			b := draw.Of(g, pos)
			if b.W <= 0 || b.H <= 0 || b.Colors[0] == "" || b.Colors[1] == "" || b.Style == "" {
				t.Errorf("%s: %d×%d, style %q, colours %q", g.ID(), b.W, b.H, b.Style, b.Colors)
			}
			named := map[string]bool{}
			for _, c := range b.Cells {
				if c.X < 0 || c.Y < 0 || c.X > float64(b.W) || c.Y > float64(b.H) {
					t.Errorf("%s: cell %q at (%v, %v) outside %d×%d", g.ID(), c.Name, c.X, c.Y, b.W, b.H)
				}
				if c.Name == "" {
					continue
				}
				if named[c.Name] {
					t.Errorf("%s: two cells %q", g.ID(), c.Name)
				}
				named[c.Name] = true
			}
			for _, pl := range start.Board() {
				if pl.Square != "" && !named[pl.Square] {
					t.Errorf("%s: no cell for the piece on %q", g.ID(), pl.Square)
				}
			}
			if b.Hands != hasHands(start) && pos != nil {
				t.Errorf("%s: hands drawn %v", g.ID(), b.Hands)
			}
		}
	}
}

// hasHands reports whether pos's game keeps pieces in hand (its encoding
// has hand slots).
func hasHands(pos rules.Position) bool {
	c, ok := pos.(rules.Cells)
	return ok && len(c.Layout().Hand) > 0
}

// fake is a position of a game that does not say how it is drawn.
type fake struct {
	rules.Position
	squares []string
}

func (f fake) Board() []rules.Placement {
	var out []rules.Placement
	for _, sq := range f.squares {
		out = append(out, rules.Placement{Square: sq, Kind: 'P', Count: 1})
	}
	return out
}

// TestGuess: a grid from the first file to the last and from the highest
// rank down to 1 (or 0); nothing without letter+number squares.
func TestGuess(t *testing.T) {
	for _, tc := range []struct {
		squares []string
		w, h    int
		first   string // the top-left cell
		last    string // the bottom-right cell
	}{
		{[]string{"c3", "a1", ""}, 3, 3, "a3", "c1"},
		{[]string{"b2", "d10"}, 3, 10, "b10", "d1"},
		{[]string{"b0", "b2"}, 1, 3, "b2", "b0"},
		{[]string{"12", "o1x"}, 1, 1, "o0", "o0"}, // "1x" is no number: counted as rank 0
		{[]string{"12", "31", "c"}, 0, 0, "", ""},
		{nil, 0, 0, "", ""},
	} {
		b := draw.Guess(fake{squares: tc.squares})
		if b.Shape != draw.Grid || b.Style != draw.Lettered || b.W != tc.w || b.H != tc.h {
			t.Errorf("%v: %s %s %d×%d, want grid letter %d×%d", tc.squares, b.Shape, b.Style, b.W, b.H, tc.w, tc.h)
			continue
		}
		if tc.w == 0 {
			if len(b.Cells) != 0 {
				t.Errorf("%v: %d cells", tc.squares, len(b.Cells))
			}
			continue
		}
		if f, l := b.Cells[0], b.Cells[len(b.Cells)-1]; f.Name != tc.first || l.Name != tc.last {
			t.Errorf("%v: cells %s … %s, want %s … %s", tc.squares, f.Name, l.Name, tc.first, tc.last)
		}
	}
	if b := draw.Guess(nil); len(b.Cells) != 0 || b.W != 0 {
		t.Errorf("Guess(nil) = %+v", b)
	}
}

// TestCheckered: names column then row or row then column, a light
// top-left corner, every coordinate written on two sides.
func TestCheckered(t *testing.T) {
	b := draw.Checkered(draw.Letters('a', 3), draw.NumbersDown(2), false)
	var names []string
	for _, c := range b.Cells {
		names = append(names, c.Name)
		if c.Dark != ((int(c.X)+int(c.Y))%2 == 1) {
			t.Errorf("%s at (%v, %v): dark %v", c.Name, c.X, c.Y, c.Dark)
		}
	}
	if got := strings.Join(names, " "); got != "a2 b2 c2 a1 b1 c1" {
		t.Errorf("cells %s", got)
	}
	if b.W != 3 || b.H != 2 || len(b.Labels) != 2*(3+2) {
		t.Errorf("%d×%d with %d labels", b.W, b.H, len(b.Labels))
	}
	r := draw.Checkered(draw.NumbersUp(2), draw.Letters('A', 2), true)
	if r.Cells[1].Name != "A2" || r.Cells[2].Name != "B1" {
		t.Errorf("row first: %s %s", r.Cells[1].Name, r.Cells[2].Name)
	}
}

// TestGlyph finds the glyph of a side's kind, and only that one.
func TestGlyph(t *testing.T) {
	b := draw.Board{Glyphs: []draw.Glyph{{Side: 1, Kind: 'M', Mark: "L", Text: "L"}, {Side: 0, Kind: 'M', Text: "w"}}}
	for _, tc := range []struct {
		side rules.Side
		kind byte
		text string
		ok   bool
	}{{1, 'M', "L", true}, {0, 'M', "w", true}, {0, 'K', "", false}, {1, 'K', "", false}} {
		g, ok := b.Glyph(tc.side, tc.kind)
		if ok != tc.ok || g.Text != tc.text {
			t.Errorf("Glyph(%d, %c) = %+v, %v", tc.side, tc.kind, g, ok)
		}
	}
}

// TestPieceLegends: a game whose pieces are written as letters (shogi tiles,
// lettered discs) names every letter of its start position in its legend,
// once; Ōgi's legend gives each promoted form but the King's.
func TestPieceLegends(t *testing.T) {
	for _, g := range rules.Games() {
		start, err := g.NewPosition("")
		if err != nil {
			t.Fatal(err)
		}
		b := draw.Of(g, start)
		if b.Style == draw.Disc {
			continue
		}
		letters := map[string]bool{}
		for _, p := range b.Pieces {
			if letters[p.Letter] || p.Name == "" {
				t.Errorf("%s: legend entry %+v repeated or without a name", g.ID(), p)
			}
			letters[p.Letter] = true
		}
		for _, pl := range start.Board() {
			if k := strings.ToUpper(string(pl.Kind)); !letters[k] {
				t.Errorf("%s: no legend for the piece %q on %s", g.ID(), k, pl.Square)
			}
		}
	}
	ogi, err := rules.Lookup("ogi")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range draw.Of(ogi, nil).Pieces {
		got = append(got, p.String())
	}
	want := "K King 王/玉 | I Princess 姫, +I promoted Princess 神 | R Rook 飛, +R Dragon 龍 | B Bishop 角, +B Horse 馬 | " +
		"S Silver General 銀, +S promoted Silver 全 | N Knight 桂, +N promoted Knight 圭 | L Lance 香, +L promoted Lance 杏 | P Pawn 歩, +P Tokin と"
	if strings.Join(got, " | ") != want {
		t.Errorf("Ōgi legend:\n%s\nwant\n%s", strings.Join(got, " | "), want)
	}
}
