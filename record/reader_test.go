package record_test

import (
	"bytes"
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"

	"github.com/plateau/plateau/record"
)

func one(t *testing.T, src string) *record.Game {
	t.Helper()
	gs, errs := readAll(t, src)
	if len(errs) != 0 || len(gs) != 1 {
		t.Fatalf("%q: %d games, errors %v", src, len(gs), errs)
	}
	return gs[0]
}

func texts(l record.Line) []string {
	var s []string
	for _, m := range l {
		s = append(s, m.Text)
	}
	return s
}

func TestMoveTokens(t *testing.T) {
	tests := []struct {
		name, src string
		moves     []string
		result    string
	}{
		{"move numbers", "1. e4 e5 2.Nf3 2...Nc6 3 . Bb5 3 ... a6 12.e4 12...e5", []string{"e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "e4", "e5"}, ""},
		{"PDN glued numbers", "1.32-28 19-23 2.28x19 14x23 *", []string{"32-28", "19-23", "28x19", "14x23"}, "*"},
		{"ellipsis", "1. ... 35-40 2. 45x34 … 3. - - 1-0", []string{"35-40", "45x34", "-", "-"}, "1-0"},
		{"1-18 is a move", "1-18 32-28 1-1", []string{"1-18", "32-28"}, "1-1"},
		{"results are exact", "1-0x 0-10 2-00 1/2 1/2-1/2", []string{"1-0x", "0-10", "2-00", "1/2"}, "1/2-1/2"},
		{"½-½", "e4 ½-½", []string{"e4"}, "1/2-1/2"},
		{"dejarik results", "o1-i1 o7-c 0-3", []string{"o1-i1", "o7-c"}, "0-3"},
		{"0-0 result", "a3b4 0-0", []string{"a3b4"}, "0-0"},
		{"kept as written", "P-e4 Bb2xg7+ S*d4 +P*c5 Kxd5+ Bxg7= 19x28x37 19:28 H27 G6-E4-C4-A2-A4 o2-i3 c-o9 e2xe5 3228 *",
			[]string{"P-e4", "Bb2xg7+", "S*d4", "+P*c5", "Kxd5+", "Bxg7=", "19x28x37", "19:28", "H27", "G6-E4-C4-A2-A4", "o2-i3", "c-o9", "e2xe5", "3228"}, "*"},
		{"PDN moves aligned with blanks", "17. 43-39  1- 6 18. 49-43 47x 9 4x 1 *", []string{"43-39", "1-6", "49-43", "47x9", "4x1"}, "*"},
		{"digits then glued dot word", "3228 .x 0-1", []string{"3228", ".x"}, "0-1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := one(t, tt.src)
			if got := texts(g.Moves); !reflect.DeepEqual(got, tt.moves) {
				t.Errorf("moves %q, want %q", got, tt.moves)
			}
			if g.Result != tt.result {
				t.Errorf("result %q, want %q", g.Result, tt.result)
			}
			for i, m := range g.Moves {
				if m.Ply != i {
					t.Errorf("move %d %q: ply %d", i, m.Text, m.Ply)
				}
			}
		})
	}
}

func TestNAGs(t *testing.T) {
	g := one(t, "e4! e5? Nf3!! Nc6?? Bb5!? a6?! Ba4 $14 $1 Nf6 ! d3 ?? O-O (!?) Be7(?) 18-23* 1-0")
	want := [][]int{{1}, {2}, {3}, {4}, {5}, {6}, {14, 1}, {1}, {4}, {5}, {2}, {7}}
	for i, m := range g.Moves {
		if !reflect.DeepEqual(m.NAGs, want[i]) {
			t.Errorf("%s: NAGs %v, want %v", m.Text, m.NAGs, want[i])
		}
	}
	if g := one(t, "19-23(!?!!!) *"); !reflect.DeepEqual(g.Moves[0].NAGs, []int{5, 3, 1}) {
		t.Errorf("!?!!! gives %v", g.Moves[0].NAGs)
	}
}

func TestCommentsAndVariations(t *testing.T) {
	src := `{intro} 1. e4 {after e4} ; to the end of line
% escape line { not a comment
e5 (1... c5 {sicilian} (1... e6 2. d4) 2. Nf3) (1... d5) {before Nf3} 2. Nf3 *`
	g := one(t, src)
	if !reflect.DeepEqual(g.Intro, []string{"intro"}) {
		t.Errorf("intro %q", g.Intro)
	}
	e4, e5, nf3 := g.Moves[0], g.Moves[1], g.Moves[2]
	if !reflect.DeepEqual(e4.After, []string{"after e4", "to the end of line"}) {
		t.Errorf("e4 after %q", e4.After)
	}
	v := e5.Variations
	if len(v) != 2 || !reflect.DeepEqual(texts(v[0]), []string{"c5", "Nf3"}) || !reflect.DeepEqual(texts(v[1]), []string{"d5"}) {
		t.Fatalf("variations of e5: %v", v)
	}
	if v[0][0].Ply != 1 || v[0][1].Ply != 2 || v[1][0].Ply != 1 {
		t.Errorf("variation plies %d %d %d", v[0][0].Ply, v[0][1].Ply, v[1][0].Ply)
	}
	if inner := v[0][0].Variations; len(inner) != 1 || !reflect.DeepEqual(texts(inner[0]), []string{"e6", "d4"}) || inner[0][1].Ply != 2 {
		t.Errorf("nested variation %v", inner)
	}
	if !reflect.DeepEqual(v[0][0].After, []string{"sicilian"}) {
		t.Errorf("c5 after %q", v[0][0].After)
	}
	if !reflect.DeepEqual(nf3.Before, []string{"before Nf3"}) || nf3.Ply != 2 {
		t.Errorf("Nf3 before %q ply %d", nf3.Before, nf3.Ply)
	}
}

func TestPositions(t *testing.T) {
	src := "[Event \"x\"]\r\n1. e4 {é}\r\n  e5 *\n"
	g := one(t, src)
	if g.Pos != (record.Pos{File: "t.pdn", Line: 1, Col: 1, Offset: 0}) {
		t.Errorf("game pos %+v", g.Pos)
	}
	if p := g.Moves[0].Pos; p.Line != 2 || p.Col != 4 || p.Offset != 16 {
		t.Errorf("e4 pos %+v", p)
	}
	if p := g.Moves[1].Pos; p.Line != 3 || p.Col != 3 || p.Offset != 27 {
		t.Errorf("e5 pos %+v", p)
	}
	if got := g.Moves[1].Pos.String(); got != "t.pdn:3:3" {
		t.Errorf("String %q", got)
	}
}

func TestGameBoundaries(t *testing.T) {
	src := `[Event "a"]
1. e4 e5
[Event "b"] 1. d4 d5 1-0 1. c4 *
[Event "c"]
[Event "d"]
`
	gs, errs := readAll(t, src)
	if len(errs) != 0 {
		t.Fatal(errs)
	}
	var ev []string
	for _, g := range gs {
		ev = append(ev, g.Tag("Event")+"/"+strings.Join(texts(g.Moves), ",")+"/"+g.Result)
	}
	want := []string{"a/e4,e5/", "b/d4,d5/1-0", "/c4/*", "c//"}
	if !reflect.DeepEqual(ev, want) || len(gs[3].Tags) != 2 {
		t.Errorf("games %q", ev)
	}
}

func TestTagsOnlyGameKeepsLaterTags(t *testing.T) {
	// Two tag sections without movetext form one game (as in PGN).
	g := one(t, "[Event \"c\"]\n[Site \"d\"]\n")
	if g.Tag("Event") != "c" || g.Tag("Site") != "d" {
		t.Errorf("tags %v", g.Tags)
	}
}

func TestErrors(t *testing.T) {
	tests := []struct {
		src       string
		line, col int
		next      string // Event of the game read after the error
	}{
		{"[Event \"a\"]\n1. e4 ) e5 1-0\n[Event \"n\"] *", 2, 7, "n"},
		{"[Event \"a\"]\n1. e4 { x { y } } e5 1-0\n[Event \"n\"] *", 2, 11, "n"},
		{"[Event \"a\"]\n1. e4 {\nnever closed\n[Event \"n\"] *", 2, 7, "n"},
		{"[Event \"a\"]\n1. e4 (1. d4\n\n[Event \"n\"] *", 2, 7, "n"},
		{"[Event \"a\"]\n1. e4 (1. d4 (1. c4)", 2, 7, ""},
		{"[Event \"a\"]\n1. e4 {x", 2, 7, ""},
		{"[Event \"a]\n1. e4 *\n[Event \"n\"] *", 1, 8, "n"},
		{"[Event \"a\"]\n1. e4 \"str\" *\n[Event \"n\"] *", 2, 7, "n"},
		{"[1vent \"a\"] 1. e4 * [Event \"n\"] *", 1, 2, "n"},
	}
	for _, tt := range tests {
		r := record.NewReader(strings.NewReader(tt.src), "e.pdn")
		g, err := r.Next()
		var se *record.Error
		if !errors.As(err, &se) || !errors.Is(err, record.ErrSyntax) {
			t.Errorf("%q: error %v, want a syntax error", tt.src, err)
			continue
		}
		if g == nil {
			t.Errorf("%q: no partial game", tt.src)
		}
		if se.Pos.Line != tt.line || se.Pos.Col != tt.col || se.Pos.File != "e.pdn" {
			t.Errorf("%q: error at %v, want %d:%d (%v)", tt.src, se.Pos, tt.line, tt.col, err)
		}
		g, err = r.Next()
		if tt.next == "" {
			if !errors.Is(err, io.EOF) {
				t.Errorf("%q: after the error: %v, want EOF", tt.src, err)
			}
			continue
		}
		if err != nil || g.Tag("Event") != tt.next {
			t.Errorf("%q: next game %v %v, want Event %q", tt.src, g, err, tt.next)
		}
	}
}

type errReader struct{ n int }

var errBoom = errors.New("boom")

func (e *errReader) Read(p []byte) (int, error) {
	if e.n > 0 {
		e.n--
		return copy(p, "[Event \"x\"] 1. e4 e5 1-0\n"), nil
	}
	return 0, errBoom
}

func TestIOError(t *testing.T) {
	r := record.NewReader(&errReader{n: 1}, "x")
	if g, err := r.Next(); err != nil || g.Result != "1-0" {
		t.Fatalf("first game: %v", err)
	}
	for i := 0; i < 2; i++ {
		if _, err := r.Next(); !errors.Is(err, errBoom) || errors.Is(err, record.ErrSyntax) {
			t.Fatalf("got %v, want the read error", err)
		}
	}
}

func TestReset(t *testing.T) {
	r := record.NewReader(strings.NewReader("1. e4 *"), "a")
	r.Next()
	r.Reset(bytes.NewReader([]byte("1. d4 *")), "b")
	g, err := r.Next()
	if err != nil || g.Moves[0].Text != "d4" || g.Pos.File != "b" {
		t.Fatalf("%v %v", g, err)
	}
}

func TestLongLineWithoutNewline(t *testing.T) {
	// 3 MiB of moves on one line: read in bounded pieces, all on line 1.
	var b strings.Builder
	for b.Len() < 3<<20 {
		b.WriteString("32-28 19-23 ")
	}
	col := b.Len() + 1
	b.WriteString("*")
	r := record.NewReader(strings.NewReader(b.String()), "t.pdn")
	r.SetMaxRecord(32 << 20)
	g, err := r.Next()
	if err != nil {
		t.Fatal(err)
	}
	if g.Result != "*" || len(g.Moves) != (col-1)/6 {
		t.Fatalf("%d moves, result %q", len(g.Moves), g.Result)
	}
	last := g.Moves[len(g.Moves)-1]
	if last.Pos.Line != 1 || last.Pos.Col != col-6 || last.Text != "19-23" {
		t.Fatalf("last move %q at %v, want 1:%d", last.Text, last.Pos, col-6)
	}
}

// TestResetAt: a game read from the middle of a stream with ResetAt has the
// positions a Reader of the whole stream gives it.
func TestResetAt(t *testing.T) {
	src := "[Event \"a\"]\n\n1. e4 e5 1-0\n\n[Event \"b\"]\n\n1. d4 {é} d5 *\n"
	r := record.NewReader(strings.NewReader(src), "f.pdn")
	if _, err := r.Next(); err != nil {
		t.Fatal(err)
	}
	want, err := r.Next()
	if err != nil {
		t.Fatal(err)
	}
	at := want.Pos
	if at.Line != 5 || at.Col != 1 {
		t.Fatalf("second game at %v", at)
	}
	r.ResetAt(strings.NewReader(src[at.Offset:]), at)
	got, err := r.Next()
	if err != nil {
		t.Fatal(err)
	}
	if got.Pos != want.Pos || got.Tag("Event") != "b" {
		t.Fatalf("game at %v (Event %q), want %v", got.Pos, got.Tag("Event"), want.Pos)
	}
	if g, w := got.Moves[1].Pos, want.Moves[1].Pos; g != w {
		t.Fatalf("second move at %v, want %v", g, w)
	}
}
