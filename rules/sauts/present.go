package sauts

import (
	"math/bits"

	"github.com/plateau/plateau/rules"
	"github.com/plateau/plateau/rules/draw"
)

var (
	_ draw.Drawer    = Game{}
	_ rules.Profiler = Game{}
)

// Drawing implements draw.Drawer: 8×8, rows A–H top down, columns 1–8 left
// to right (as Diagram), the goal squares marked, plain discs.
func (Game) Drawing(rules.Position) draw.Board {
	b := draw.Checkered(draw.NumbersUp(8), draw.Letters('A', 8), true)
	goals := map[string]bool{}
	for t := targetOf[0] | targetOf[1]; t != 0; t &= t - 1 {
		goals[squareName(bits.TrailingZeros64(t))] = true
	}
	for i := range b.Cells {
		b.Cells[i].Goal = goals[b.Cells[i].Name]
	}
	b.Style, b.Colors = draw.Disc, [2]string{"#fafafa", "#222"}
	return b
}

// Profile implements rules.Profiler: each side races for its targets;
// nobody resigns or agrees a draw; moves are few, so each is tried with the
// opponent's replies.
func (Game) Profile() rules.Profile {
	p := rules.DefaultProfile()
	for s, t := range targetOf {
		for ; t != 0; t &= t - 1 {
			p.Goals[s] = append(p.Goals[s], rules.CoordOf(squareName(bits.TrailingZeros64(t))))
		}
	}
	p.Resign = 0
	p.Agree = 0
	p.Progress = 20
	p.Lookahead = 200
	p.Replies = true
	return p
}
