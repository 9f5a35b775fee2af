package dejarik_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/plateau/plateau/rules"
	"github.com/plateau/plateau/rules/dejarik"
)

func TestRegistered(t *testing.T) {
	g, err := rules.Lookup("Dejarik")
	if err != nil {
		t.Fatal(err)
	}
	if g.ID() != "dejarik" || g.Sides() != [2]string{"White", "Black"} || g.IllegalMoveLoses() {
		t.Fatalf("game %s %v %v", g.ID(), g.Sides(), g.IllegalMoveLoses())
	}
}

func TestPositionNotation(t *testing.T) {
	tests := []struct {
		name, in, want string // want "" = error
	}{
		{"empty is the start: 25 cells, 4 pawns each, White to move", "", dejarik.StartFEN},
		{"start written out", "W:Wo1,o2,o3,o4:Bo7,o8,o9,o10", dejarik.StartFEN},
		{"cells in any order and case, fields in any order", " w : B o10,O9,o8,o7 : Wo4,o3,o2,o1 ", dejarik.StartFEN},
		{"first-turn field WB is the default", "B:Wc,i12:Bo1,o2,o3:FWB", "B:Wc,i12:Bo1,o2,o3"},
		{"first-turn field", "B:Wc,i12,o5:Bo1,o2,o3:fb", "B:Wc,i12,o5:Bo1,o2,o3:FB"},
		{"no first turn left", "W:Wi1,i2,i3:Bo5,o6,o7,o8:F-", "W:Wi1,i2,i3:Bo5,o6,o7,o8:F-"},
		{"bad side to move", "X:Wo1:Bo2", ""},
		{"missing Black", "W:Wo1,o2,o3", ""},
		{"two White fields", "W:Wo1:Wo2:Bo3", ""},
		{"not a cell", "W:Wo13:Bo1,o2,o3", ""},
		{"leading zero", "W:Wo01:Bo1,o2,o3", ""},
		{"two pawns on one cell", "W:Wo1,o2:Bo1,o3,o4", ""},
		{"same cell twice", "W:Wo1,o1,o2:Bo3,o4,o5", ""},
		{"five pawns", "W:Wo1,o2,o3,o4,o5:Bo7,o8", ""},
		{"no pawn", "W:W:Bo7,o8,o9", ""},
		{"both sides have lost two pawns", "W:Wo1,o2:Bo7,o8", ""},
		{"bad first-turn field", "W:Wo1,o2,o3:Bo7,o8,o9:FX", ""},
		{"empty first-turn field", "W:Wo1,o2,o3:Bo7,o8,o9:F", ""},
		{"unknown field", "W:Wo1,o2,o3:Bo7,o8,o9:Z", ""},
		{"empty field", "W:Wo1,o2,o3::Bo7,o8,o9", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, err := dejarik.Game.NewPosition(tc.in)
			if tc.want == "" {
				if !errors.Is(err, rules.ErrPosition) {
					t.Fatalf("NewPosition(%q) = %v, want ErrPosition", tc.in, err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if p.String() != tc.want {
				t.Fatalf("String = %s, want %s", p.String(), tc.want)
			}
		})
	}
}

func TestMoveSyntax(t *testing.T) {
	p := mustPos(t, "")
	for _, s := range []string{"", "o1", "o1-", "-i1", "o1--i1", "o13-i1", "z1-i1", "o0-i1", "o1-i1+", "o1 i1", "c-c-"} {
		_, err := p.ParseMove(s)
		var me *rules.MoveError
		if !errors.As(err, &me) || me.Kind != rules.Syntax {
			t.Errorf("ParseMove(%q) = %v, want a syntax error", s, err)
		}
	}
	for _, s := range []string{"o1-i1", "O1-I1", "o1xi1", " o1-i1 "} {
		if _, err := p.ParseMove(s); err != nil {
			t.Errorf("ParseMove(%q): %v", s, err)
		}
	}
}

func TestCloneIndependent(t *testing.T) {
	p := mustPos(t, "W:Wo1,o2,o3,o4:Bo7,o8,o9,o10:F-")
	play := func(p rules.Position, s string) {
		m, err := p.ParseMove(s)
		if err != nil {
			t.Fatal(err)
		}
		p.Play(m)
	}
	play(p, "o1-i1")
	play(p, "o7-i7")
	c := p.Clone()
	before := p.String()
	play(c, "i1-o1")
	play(c, "i7-o7")
	d := p.Clone()
	play(d, "o2-i2") // shares p's history with c until they append
	play(c, "o1-i1")
	play(c, "o7-i7")
	play(c, "i1-o1")
	play(c, "i7-o7")
	if o := c.Outcome(); o.Result != "1-1" {
		t.Fatalf("clone: %+v", o)
	}
	if p.String() != before || p.Outcome().Over || d.Outcome().Over {
		t.Fatalf("original changed: %s", p.String())
	}
}

func TestPoints(t *testing.T) {
	for _, tc := range []struct {
		r    string
		w, b int
		ok   bool
	}{
		{"3-0", 3, 0, true}, {"0-3", 0, 3, true}, {"1-0", 1, 0, true}, {"0-1", 0, 1, true},
		{"2-0", 2, 0, true}, {"0-2", 0, 2, true}, {"1-1", 1, 1, true}, {"0-0", 0, 0, true},
		{"*", 0, 0, false}, {"1/2-1/2", 0, 0, false}, {"3-3", 0, 0, false}, {"", 0, 0, false},
	} {
		w, b, ok := dejarik.Points(tc.r)
		if w != tc.w || b != tc.b || ok != tc.ok {
			t.Errorf("Points(%q) = %d, %d, %v", tc.r, w, b, ok)
		}
	}
	var s dejarik.Series
	games := []struct{ w, b, r string }{
		{"Chewbacca", "R2", "3-0"}, {"R2", "Chewbacca", "0-2"}, {"Chewbacca", "R2", "*"},
		{"Chewbacca", "R2", "1-1"}, {"R2", "Chewbacca", "3-0"}, {"Chewbacca", "R2", "3-0"},
		{"R2", "Chewbacca", "0-3"}, {"Chewbacca", "R2", "0-0"},
	}
	for _, g := range games {
		s.Add(g.w, g.b, g.r)
	}
	if s.Points["Chewbacca"] != 12 || s.Points["R2"] != 4 || s.Games != 7 || s.Winner != "Chewbacca" || s.WinnerGame != 6 {
		t.Fatalf("series %+v", s)
	}
}

func TestDiagram(t *testing.T) {
	p := mustPos(t, "B:Wc,i1,i2,o4:Bo7,i8,o9:F-")
	d := p.Diagram()
	lines := strings.Split(d, "\n")
	board := strings.Join(lines[:21], "\n")
	if n := strings.Count(board, "○"); n != 4 {
		t.Errorf("%d White pawns drawn\n%s", n, d)
	}
	if n := strings.Count(board, "●"); n != 3 {
		t.Errorf("%d Black pawns drawn\n%s", n, d)
	}
	if n := strings.Count(board, "·"); n != 25-7 {
		t.Errorf("%d empty cells drawn\n%s", n, d)
	}
	for _, want := range []string{"12", "Black to move", "White: c i1 i2 o4", "Black: i8 o7 o9"} {
		if !strings.Contains(d, want) {
			t.Errorf("diagram lacks %q\n%s", want, d)
		}
	}
	// Clock face: o12 above the centre, o6 below, o3 right, o9 left.
	row := func(s string) int {
		for i, l := range lines {
			if strings.Contains(l, s) {
				return i
			}
		}
		return -1
	}
	if row("( ○ )") != 10 || row("12") >= row(" 6") {
		t.Errorf("not a clock face\n%s", d)
	}
}

func FuzzNewPosition(f *testing.F) {
	for _, s := range []string{"", dejarik.StartFEN, "B:Wc,i12:Bo1,o2,o3:FB", "W:Wi1,i2,i3:Bo5,o6,o7,o8:F-", "W::", "B:W,:B"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, err := dejarik.Game.NewPosition(s)
		if err != nil {
			if !errors.Is(err, rules.ErrPosition) {
				t.Fatalf("error %v does not wrap ErrPosition", err)
			}
			return
		}
		q, err := dejarik.Game.NewPosition(p.String())
		if err != nil || q.String() != p.String() || q.Key() != p.Key() {
			t.Fatalf("%q → %q does not round-trip: %v", s, p.String(), err)
		}
		p.Outcome()
		p.Diagram()
		for _, m := range p.Legal(nil) {
			c := p.Clone()
			c.Play(m)
			c.Outcome()
		}
	})
}

func FuzzParseMove(f *testing.F) {
	for _, s := range []string{"o1-i1", "o4-c", "c-o9", "i3-o3", "o2-i3-i5", "o1xi12", "", "-", "o99-i1", "x"} {
		f.Add("W:Wo2,o3,o5,c:Bi8,o9,o10,i1:F-", s)
	}
	f.Add("", "o4-c")
	f.Fuzz(func(t *testing.T, fen, s string) {
		p, err := dejarik.Game.NewPosition(fen)
		if err != nil {
			return
		}
		m, err := p.ParseMove(s)
		if err != nil {
			var me *rules.MoveError
			if !errors.As(err, &me) {
				t.Fatalf("error %v is not a *MoveError", err)
			}
			return
		}
		text := p.FormatMove(m)
		m2, err := p.ParseMove(text)
		if err != nil || m2 != m {
			t.Fatalf("%q formats as %q which reads back as %v, %v", s, text, m2, err)
		}
		p.Play(m)
		p.Outcome()
	})
}
