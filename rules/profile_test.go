package rules_test

import (
	"reflect"
	"testing"

	"github.com/plateau/plateau/rules"
	_ "github.com/plateau/plateau/rules/all"
	"github.com/plateau/plateau/rules/draw"
)

// plain hides every optional interface of a game: only rules.Game's
// methods are promoted.
type plain struct{ rules.Game }

// TestProfileOf: a game that says nothing gets DefaultProfile; every game
// Plateau plays says its own.
func TestProfileOf(t *testing.T) {
	for _, g := range rules.Games() {
		if got := rules.ProfileOf(plain{g}); !reflect.DeepEqual(got, rules.DefaultProfile()) {
			t.Errorf("%s hidden: %+v, want the default", g.ID(), got)
		}
		if _, ok := g.(rules.Profiler); !ok {
			t.Errorf("%s is not a rules.Profiler", g.ID())
		}
	}
	a := rules.DefaultProfile()
	a.BookWidth[0] = 99
	if rules.DefaultProfile().BookWidth[0] == 99 {
		t.Error("DefaultProfile shares its BookWidth")
	}
}

// TestProfilesNameTheirPieces: a profile names its game's pieces and
// squares: a target or a chief is a piece each side has at the start, a
// goal a square of the board.
func TestProfilesNameTheirPieces(t *testing.T) {
	for _, g := range rules.Games() {
		p := rules.ProfileOf(g)
		start, err := g.NewPosition("")
		if err != nil {
			t.Fatalf("%s: %v", g.ID(), err)
		}
		for _, kind := range []byte{p.Target, p.Chief} {
			if kind == 0 {
				continue
			}
			var has [2]bool
			for _, pl := range start.Board() {
				if pl.Kind == kind && pl.Square != "" {
					has[pl.Side] = true
				}
			}
			if !has[0] || !has[1] {
				t.Errorf("%s: royal piece %c on the start board of side 0, 1: %v", g.ID(), kind, has)
			}
		}
		squares := map[rules.Coord]bool{}
		for _, c := range draw.Of(g, start).Cells {
			if c.Name != "" {
				squares[rules.CoordOf(c.Name)] = true
			}
		}
		for s, goals := range p.Goals {
			for _, c := range goals {
				if c == (rules.Coord{}) || !squares[c] {
					t.Errorf("%s: side %d's goal %v is not a square of the board", g.ID(), s, c)
				}
			}
		}
		if len(p.BookWidth) < p.BookDepth || len(p.Wins[0]) == 0 || len(p.Wins[1]) == 0 || len(p.Draws) == 0 {
			t.Errorf("%s: book %d deep, widths %v, wins %v, draws %v", g.ID(), p.BookDepth, p.BookWidth, p.Wins, p.Draws)
		}
	}
}
