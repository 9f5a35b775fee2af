package dejarik

import (
	"math"
	"strconv"

	"github.com/plateau/plateau/rules"
	"github.com/plateau/plateau/rules/draw"
)

var (
	_ draw.Drawer    = game{}
	_ rules.Profiler = game{}
)

// Drawing implements draw.Drawer: a round board, the centre c, the inner
// ring i1–i12 in front of the outer ring o1–o12, 12 at the top and numbers
// running clockwise (as Diagram), plain discs.
func (game) Drawing(rules.Position) draw.Board {
	const size, mid = 10.0, 5.0
	b := draw.Board{Shape: draw.Ring, W: size, H: size, Style: draw.Disc, Colors: [2]string{"#fafafa", "#222"},
		Legend: "outer ring o1–o12, inner ring i1–i12, centre c"}
	b.Cells = append(b.Cells, draw.Cell{Name: cellName(centre), X: mid, Y: mid, R: 0.55, Dark: true})
	for k := 1; k <= ring; k++ {
		a := float64(k) * math.Pi / 6
		s, c := math.Sin(a), -math.Cos(a)
		b.Cells = append(b.Cells,
			draw.Cell{Name: cellName(inner(k)), X: mid + 2.1*s, Y: mid + 2.1*c, R: 0.5},
			draw.Cell{Name: cellName(outer(k)), X: mid + 3.9*s, Y: mid + 3.9*c, R: 0.5, Dark: true})
		b.Labels = append(b.Labels, draw.Label{Text: strconv.Itoa(k), X: mid + 4.75*s, Y: mid + 4.75*c})
	}
	return b
}

// Profile implements rules.Profiler: results are points; nobody resigns or
// agrees a draw; moves are few, so each is tried with the opponent's
// replies.
func (game) Profile() rules.Profile {
	p := rules.DefaultProfile()
	p.Resign = 0
	p.Agree = 0
	p.Wins = [2][]string{{"3-0", "2-0", "1-0"}, {"0-3", "0-2", "0-1"}}
	p.Draws = []string{"1-1", "0-0"}
	p.Replies = true
	p.BookDepth = 4
	p.BookWidth = []int{3, 3, 2, 2}
	return p
}
