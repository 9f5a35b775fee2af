package rules_test

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"sort"
	"testing"

	"github.com/plateau/plateau/record/recordtest"
	"github.com/plateau/plateau/replay"
	"github.com/plateau/plateau/rules"
	_ "github.com/plateau/plateau/rules/all"
)

// cellsAgree checks that pos implements rules.Cells and that its cells
// describe exactly Board's placements. The buffers are filled with junk
// first: Cells must write every square and every hand slot.
func cellsAgree(pos rules.Position) error {
	c, ok := pos.(rules.Cells)
	if !ok {
		return fmt.Errorf("%T does not implement rules.Cells", pos)
	}
	l := c.Layout()
	if l == nil || len(l.Squares) == 0 || c.Layout() != l {
		return fmt.Errorf("no stable layout")
	}
	if l.Codes[0].Kind != 0 {
		return fmt.Errorf("code 0 is not an empty square")
	}
	board, hand := make([]byte, len(l.Squares)+8), make([]byte, len(l.Hand)+8)
	for i := range board {
		board[i] = 0xA5
	}
	for i := range hand {
		hand[i] = 0xA5
	}
	c.Cells(board[:len(l.Squares)], hand[:len(l.Hand)])
	for _, b := range append(board[len(l.Squares):], hand[len(l.Hand):]...) {
		if b != 0xA5 {
			return fmt.Errorf("Cells wrote beyond the layout's lengths")
		}
	}
	got := rules.Placements(l, board[:len(l.Squares)], hand[:len(l.Hand)])
	want := pos.Board()
	key := func(p rules.Placement) string {
		return fmt.Sprintf("%s/%d/%c/%v/%d", p.Square, p.Side, p.Kind, p.Promoted, p.Count)
	}
	var g, w []string
	for _, p := range got {
		g = append(g, key(p))
	}
	for _, p := range want {
		w = append(w, key(p))
	}
	sort.Strings(g)
	sort.Strings(w)
	if fmt.Sprint(g) != fmt.Sprint(w) {
		return fmt.Errorf("cells say %v, Board says %v", g, w)
	}
	return nil
}

// TestCellsAgreeWithBoardOnSamples plays every sample record of every game
// (main lines and variations) and compares the cells of every position with
// Board.
func TestCellsAgreeWithBoardOnSamples(t *testing.T) {
	files, err := filepath.Glob("../samples/*/*.pdn")
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]int{}
	for _, f := range files {
		games, _ := recordtest.ReadFile(t, f)
		for i, rec := range games {
			g := replay.Replay(rec, replay.Options{})
			if g.Start == nil {
				continue // a broken sample whose start cannot be read
			}
			var walk func(steps []*replay.Step, pos rules.Position) error
			walk = func(steps []*replay.Step, pos rules.Position) error {
				if err := cellsAgree(pos); err != nil {
					return err
				}
				seen[rec.Tag("Game")]++
				for _, s := range steps {
					for _, v := range s.Variations {
						if err := walk(v, pos.Clone()); err != nil {
							return err
						}
					}
					pos.Play(s.Move)
					if err := cellsAgree(pos); err != nil {
						return fmt.Errorf("after %s: %w", s.Text, err)
					}
					seen[rec.Tag("Game")]++
				}
				return nil
			}
			if err := walk(g.Main, g.Start.Clone()); err != nil {
				t.Errorf("%s game %d: %v", f, i+1, err)
			}
		}
	}
	for _, g := range rules.Games() {
		if seen[g.ID()] == 0 {
			t.Errorf("no sample position of %s was checked", g.ID())
		}
	}
	t.Logf("positions checked: %v", seen)
}

// TestCellsAgreeWithBoardRandomPlay compares cells and Board along random
// legal games of every ruleset (promotions, drops and hands, kings, the
// 8×8 and 10×10 boards), which the samples may not all reach.
func TestCellsAgreeWithBoardRandomPlay(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	games := 30
	if testing.Short() {
		games = 5
	}
	for _, g := range rules.Games() {
		starts := []string{""}
		if g.ID() == "loup-moutons" {
			starts = append(starts, "B:W46,47,48,49,50:B3") // the 10×10 board
		}
		for _, fen := range starts {
			for n := 0; n < games; n++ {
				pos, err := g.NewPosition(fen)
				if err != nil {
					t.Fatalf("%s %q: %v", g.ID(), fen, err)
				}
				for ply := 0; ply < 300; ply++ {
					if err := cellsAgree(pos); err != nil {
						t.Fatalf("%s game %d ply %d (%s): %v", g.ID(), n, ply, pos, err)
					}
					moves := pos.Legal(nil)
					if pos.Outcome().Over || len(moves) == 0 {
						break
					}
					pos.Play(moves[r.IntN(len(moves))])
				}
			}
		}
	}
}

// TestCloneReserveIsClone plays the same random moves on a Clone and on a
// CloneReserve copy, from random points of random games, and expects the
// same positions, keys, legal moves and outcomes (repetition rules
// included); the original must not change.
func TestCloneReserveIsClone(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	reservers := 0
	for _, g := range rules.Games() {
		pos, err := g.NewPosition("")
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := pos.(rules.Reserver); !ok {
			continue
		}
		reservers++
		for n := 0; n < 20; n++ {
			pos, _ := g.NewPosition("")
			for ply := r.IntN(60); ply > 0; ply-- {
				moves := pos.Legal(nil)
				if pos.Outcome().Over || len(moves) == 0 {
					break
				}
				pos.Play(moves[r.IntN(len(moves))])
			}
			before, key := pos.String(), pos.Key()
			a, b := pos.Clone(), pos.(rules.Reserver).CloneReserve(r.IntN(40))
			for ply := 0; ply < 100; ply++ {
				if a.String() != b.String() || a.Key() != b.Key() || a.Outcome() != b.Outcome() {
					t.Fatalf("%s: Clone %s (%x %v), CloneReserve %s (%x %v)", g.ID(), a, a.Key(), a.Outcome(), b, b.Key(), b.Outcome())
				}
				ma, mb := a.Legal(nil), b.Legal(nil)
				if fmt.Sprint(ma) != fmt.Sprint(mb) {
					t.Fatalf("%s %s: legal moves differ", g.ID(), a)
				}
				if a.Outcome().Over || len(ma) == 0 {
					break
				}
				m := ma[r.IntN(len(ma))]
				a.Play(m)
				b.Play(m)
			}
			if pos.String() != before || pos.Key() != key {
				t.Fatalf("%s: the original changed", g.ID())
			}
		}
	}
	if reservers == 0 {
		t.Fatal("no game implements rules.Reserver")
	}
}
