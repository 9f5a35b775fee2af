package web

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/plateau/plateau/record"
	"github.com/plateau/plateau/replay"
	"github.com/plateau/plateau/rules"
	_ "github.com/plateau/plateau/rules/all"
)

func read(t *testing.T, text string) *Collection {
	t.Helper()
	c := NewCollection(replay.Options{DefaultGame: "draughts"})
	r := record.NewReader(strings.NewReader(text), "test.pdn")
	for n := 1; ; n++ {
		g, err := r.Next()
		if errors.Is(err, io.EOF) {
			return c
		}
		var se *record.Error
		if err != nil && !errors.As(err, &se) {
			t.Fatal(err)
		}
		c.Add("test.pdn", n, g, err)
	}
}

const ogiGame = `[Game "ogi"]
[Sente "Tanaka, Haruki"]
[Gote "Fujii, Sora"]
[Result "*"]

{intro} 1. Rg2-f2 Id8-c7 2. La1-a2 {after} (2. Ke1-e2 $1 Rb7-a7 (2... Pb6-b5) 3. Ke2-d2) 2... Ic7-d8 *
`

// TestTree checks the move tree of a game with nested variations, and every
// position against a replay of the moves by hand.
func TestTree(t *testing.T) {
	c := read(t, ogiGame)
	d, err := c.Detail(1)
	if err != nil {
		t.Fatal(err)
	}
	if !d.Valid || d.Players != [2]string{"Tanaka, Haruki", "Fujii, Sora"} || d.Sides != [2]string{"Sente", "Gote"} {
		t.Fatalf("summary %+v", d.Summary)
	}
	if len(d.Intro) != 1 || d.Intro[0] != "intro" {
		t.Errorf("intro %q", d.Intro)
	}
	byMove := map[string]int{}
	for id, n := range d.Nodes {
		byMove[n.Move] = id
	}
	main := []string{}
	for id := d.Nodes[0].Next; id >= 0; id = d.Nodes[id].Next {
		main = append(main, d.Nodes[id].Move)
	}
	if got := strings.Join(main, " "); got != "Rg2-f2 Id8-c7 La1-a2 Ic7-d8" {
		t.Fatalf("main line %q", got)
	}
	la := d.Nodes[byMove["La1-a2"]]
	if len(la.After) != 1 || la.After[0] != "after" || len(la.Vars) != 1 {
		t.Fatalf("La1-a2: %+v", la)
	}
	v := d.Nodes[la.Vars[0]]
	if v.Move != "Ke1-e2" || v.Parent != la.Parent || v.Depth != 1 || v.NAGs != "!" || v.Number != "2." {
		t.Fatalf("variation: %+v", v)
	}
	rb := d.Nodes[v.Next]
	if rb.Move != "Rb7-a7" || len(rb.Vars) != 1 || d.Nodes[rb.Vars[0]].Move != "Pb6-b5" || d.Nodes[rb.Vars[0]].Depth != 2 {
		t.Fatalf("nested variation: %+v", rb)
	}
	if rb.Number != "2..." || rb.Ply != 4 {
		t.Errorf("Rb7-a7 number %q ply %d", rb.Number, rb.Ply)
	}
	// Every node's position is the one reached by playing the moves from
	// the start along its parents.
	g, _ := rules.Lookup("ogi")
	for id := range d.Nodes {
		var path []string
		for p := id; p > 0; p = d.Nodes[p].Parent {
			path = append([]string{d.Nodes[p].Move}, path...)
		}
		pos, _ := g.NewPosition("")
		for _, m := range path {
			mv, err := pos.ParseMove(m)
			if err != nil {
				t.Fatalf("node %d path %v: %v", id, path, err)
			}
			pos.Play(mv)
		}
		if pos.String() != d.Nodes[id].FEN || int(pos.ToMove()) != d.Nodes[id].ToMove {
			t.Fatalf("node %d: %s, want %s", id, d.Nodes[id].FEN, pos.String())
		}
		// The pieces are Board's (in an order of their own).
		var want, got []string
		for _, pl := range pos.Board() {
			want = append(want, fmt.Sprint(pl.Square, pl.Side, string(rune(pl.Kind)), pl.Promoted, pl.Count))
		}
		for _, pl := range d.Nodes[id].Pieces {
			got = append(got, fmt.Sprint(pl.Square, pl.Side, pl.Kind, pl.Promoted, pl.Count))
		}
		slices.Sort(want)
		slices.Sort(got)
		if !slices.Equal(got, want) {
			t.Fatalf("node %d: pieces %v, want %v", id, got, want)
		}
	}
}

// TestInvalid: an invalid record shows the moves played, the rest as
// written, and the first error.
func TestInvalid(t *testing.T) {
	c := read(t, `[Game "draughts"]
[White "Ébrard"]
[Black "Sijbrands"]
[Result "*"]

1. 32-28 19-23 2. 28x19 14x23 3. 32-27 *
`)
	s := c.Summaries()
	if len(s) != 1 || s[0].Valid || s[0].Error == "" || s[0].ErrorLine != 6 {
		t.Fatalf("summary %+v", s)
	}
	d, err := c.Detail(1)
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Nodes) != 5 || len(d.Rest) != 1 || d.Rest[0] != "32-27" {
		t.Fatalf("%d nodes, rest %q", len(d.Nodes), d.Rest)
	}
	if _, err := c.Detail(2); !errors.Is(err, ErrNoGame) {
		t.Errorf("Detail(2): %v", err)
	}
}

// TestReadError: a record with a syntax error is listed as invalid with the
// reader's message, and what was read is still shown.
func TestReadError(t *testing.T) {
	c := read(t, "[Game \"dejarik\"]\n[Result \"*\"]\n\n1. o1-i1 ) *\n")
	s := c.Summaries()
	if len(s) == 0 || s[0].Valid || s[0].Error == "" {
		t.Fatalf("summary %+v", s)
	}
}

func cellAt(t *testing.T, g Geometry, name string) Cell {
	t.Helper()
	for _, c := range g.Cells {
		if c.Name == name {
			return c
		}
	}
	t.Fatalf("no cell %q", name)
	return Cell{}
}

// TestGeometry checks each board's layout against its rules' Diagram.
func TestGeometry(t *testing.T) {
	type at struct {
		sq   string
		x, y float64
	}
	for _, tc := range []struct {
		id    string
		fen   string
		w, h  int
		cells int // named cells
		want  []at
	}{
		{"ogi", "", 8, 8, 64, []at{{"a1", 0, 7}, {"h8", 7, 0}, {"e1", 4, 7}}},
		{"jetan", "", 10, 10, 100, []at{{"a1", 0, 9}, {"j10", 9, 0}, {"e1", 4, 9}}},
		{"sauts", "", 8, 8, 64, []at{{"A1", 0, 0}, {"A8", 7, 0}, {"H1", 0, 7}, {"G6", 5, 6}}},
		{"draughts", "", 10, 10, 50, []at{{"1", 1, 0}, {"5", 9, 0}, {"6", 0, 1}, {"46", 0, 9}, {"50", 8, 9}}},
		{"dames", "", 10, 10, 50, []at{{"1", 1, 0}, {"50", 8, 9}}},
		{"loup-moutons", "", 8, 8, 32, []at{{"1", 1, 0}, {"4", 7, 0}, {"5", 0, 1}, {"29", 0, 7}, {"32", 6, 7}}},
		{"loup-moutons", "B:W46-50:B3", 10, 10, 50, []at{{"46", 0, 9}}},
		{"loup-moutons", "B:W23,24,31,32:B18:10x10", 10, 10, 50, []at{{"46", 0, 9}}},
		{"checkers", "", 8, 8, 32, []at{{"1", 1, 0}, {"4", 7, 0}, {"29", 0, 7}, {"32", 6, 7}}},
		{"pool", "", 8, 8, 32, []at{{"1", 1, 0}, {"29", 0, 7}}},
		{"italian", "", 8, 8, 32, []at{{"1", 0, 0}, {"4", 6, 0}, {"29", 1, 7}, {"32", 7, 7}}},
		{"russian", "", 8, 8, 32, []at{{"a1", 0, 7}, {"h8", 7, 0}, {"c3", 2, 5}}},
		{"brazilian", "", 8, 8, 32, []at{{"a1", 0, 7}, {"g1", 6, 7}}},
		{"czech", "", 8, 8, 32, []at{{"b8", 1, 0}}},
	} {
		var start rules.Position
		if g, err := rules.Lookup(tc.id); err == nil {
			start, err = g.NewPosition(tc.fen)
			if err != nil {
				t.Fatalf("%s %q: %v", tc.id, tc.fen, err)
			}
		}
		g := GeometryOf(tc.id, start)
		named := 0
		for _, c := range g.Cells {
			if c.Name != "" {
				named++
			}
		}
		if g.W != tc.w || g.H != tc.h || named != tc.cells {
			t.Errorf("%s: %d×%d with %d squares, want %d×%d with %d", tc.id, g.W, g.H, named, tc.w, tc.h, tc.cells)
		}
		for _, a := range tc.want {
			if c := cellAt(t, g, a.sq); c.X != a.x || c.Y != a.y {
				t.Errorf("%s %s at (%v,%v), want (%v,%v)", tc.id, a.sq, c.X, c.Y, a.x, a.y)
			}
		}
	}
	s := GeometryOf("sauts", nil)
	for _, sq := range []string{"A4", "A5", "H4", "H5"} {
		if !cellAt(t, s, sq).Goal {
			t.Errorf("sauts %s not a goal", sq)
		}
	}
	if cellAt(t, s, "A3").Goal {
		t.Error("sauts A3 is a goal")
	}
	// Dejarik: 12 at the top, 3 on the right, 6 at the bottom, 9 on the
	// left; iK between the centre and oK.
	d := GeometryOf("dejarik", nil)
	cen := cellAt(t, d, "c")
	near := func(a, b float64) bool { return a-b < 1e-9 && b-a < 1e-9 }
	o12, o3, o6, o9 := cellAt(t, d, "o12"), cellAt(t, d, "o3"), cellAt(t, d, "o6"), cellAt(t, d, "o9")
	if !near(o12.X, cen.X) || o12.Y >= cen.Y || !near(o3.Y, cen.Y) || o3.X <= cen.X ||
		!near(o6.X, cen.X) || o6.Y <= cen.Y || !near(o9.Y, cen.Y) || o9.X >= cen.X {
		t.Errorf("dejarik ring: c %+v o12 %+v o3 %+v o6 %+v o9 %+v", cen, o12, o3, o6, o9)
	}
	o1, i1 := cellAt(t, d, "o1"), cellAt(t, d, "i1")
	if o1.X <= cen.X || o1.Y >= cen.Y || !near((i1.X-cen.X)*(o1.Y-cen.Y), (i1.Y-cen.Y)*(o1.X-cen.X)) {
		t.Errorf("dejarik o1 %+v i1 %+v", o1, i1)
	}
}

// TestRulesetsPieces: the pattern form's pieces and boards, per ruleset:
// what a pattern of the game can name.
func TestRulesetsPieces(t *testing.T) {
	byID := map[string]Ruleset{}
	for _, r := range Rulesets() {
		byID[r.ID] = r
		if len(r.Pieces) == 0 || len(r.Geometry.Cells) == 0 {
			t.Errorf("%s: %d pieces, %d cells", r.ID, len(r.Pieces), len(r.Geometry.Cells))
		}
	}
	kinds := func(id string) string {
		var s []string
		for _, k := range byID[id].Pieces {
			f := k.Kind
			if k.Promoted {
				f = "+" + f
				if k.Plain {
					f += "/" + k.Kind
				}
			}
			s = append(s, f)
		}
		return strings.Join(s, " ")
	}
	for id, want := range map[string]string{
		"ogi":      "+K/K +I/I +R/R +B/B +S/S +N/N +L/L +P/P",
		"draughts": "M +K",
		"dejarik":  "P",
		"sauts":    "P",
		"jetan":    "C P F D W A T N",
	} {
		if got := kinds(id); got != want {
			t.Errorf("%s pieces: %s, want %s", id, got, want)
		}
	}
	if !byID["ogi"].Hands || byID["draughts"].Hands {
		t.Errorf("hands: ogi %v, draughts %v", byID["ogi"].Hands, byID["draughts"].Hands)
	}
}

// TestGeometryPieceLegend: the page is sent the piece legend of the games
// whose pieces are letters, promoted forms included, in its JSON; none for
// draughts.
func TestGeometryPieceLegend(t *testing.T) {
	for _, tc := range []struct {
		id   string
		want string // in the geometry's JSON
		n    int
	}{
		{"ogi", `{"letter":"R","name":"Rook","mark":"飛","promoted":"Dragon","promotedMark":"龍"}`, 8},
		{"jetan", `{"letter":"A","name":"Padwar"}`, 8},
		{"draughts", "", 0},
	} {
		g := GeometryOf(tc.id, nil)
		j, err := json.Marshal(g)
		if err != nil {
			t.Fatal(err)
		}
		if len(g.Pieces) != tc.n || !strings.Contains(string(j), tc.want) || (tc.n == 0 && strings.Contains(string(j), `"pieces"`)) {
			t.Errorf("%s: %d pieces, JSON %s; want %d and %s", tc.id, len(g.Pieces), j, tc.n, tc.want)
		}
	}
}
