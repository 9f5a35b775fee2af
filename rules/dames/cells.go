package dames

import (
	"strconv"

	"github.com/plateau/plateau/rules"
)

// The rules.Layout of each board size: the PDN squares 1..n by index (square
// number minus 1) and the cell contents as codes. Board names men M and
// kings K (promoted) in every ruleset, the wolf and the sheep included.
var (
	layout10 = newLayout(geom10)
	layout8  = newLayout(geom8)
)

func newLayout(g *geom) *rules.Layout {
	l := &rules.Layout{Squares: make([]string, g.n)}
	for s := range l.Squares {
		l.Squares[s] = strconv.Itoa(s + 1)
	}
	for _, c := range []int8{wMan, wKing, bMan, bKing} {
		pc := rules.Piece{Kind: 'M', Side: rules.Side(sideOf(c))}
		if isKing(c) {
			pc.Kind, pc.Promoted = 'K', true
		}
		l.Codes[c] = pc
	}
	return l
}

var _ rules.Cells = (*Position)(nil)

// Layout implements rules.Cells.
func (p *Position) Layout() *rules.Layout {
	if p.geo == geom8 {
		return layout8
	}
	return layout10
}

// Cells implements rules.Cells.
func (p *Position) Cells(board, hand []byte) {
	n := p.geo.n
	board = board[:n]
	for s, c := range p.cell[:n] {
		board[s] = byte(c)
	}
}
