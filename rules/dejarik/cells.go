package dejarik

import (
	"math/bits"

	"github.com/plateau/plateau/rules"
)

// layout is Dejarik's rules.Layout: the 25 cells (c, i1..i12, o1..o12) by
// number; code 1 a White pawn, 2 a Black pawn; no hands.
var layout = func() *rules.Layout {
	l := &rules.Layout{Squares: make([]string, numCells)}
	for c := range l.Squares {
		l.Squares[c] = cellName(c)
	}
	l.Codes[1] = rules.Piece{Kind: 'P', Side: 0}
	l.Codes[2] = rules.Piece{Kind: 'P', Side: 1}
	return l
}()

var _ rules.Cells = (*Position)(nil)

// Layout implements rules.Cells.
func (p *Position) Layout() *rules.Layout { return layout }

// Cells implements rules.Cells.
func (p *Position) Cells(board, hand []byte) {
	board = board[:numCells]
	clear(board)
	for side := range p.pawns {
		for set := p.pawns[side]; set != 0; set &= set - 1 {
			board[bits.TrailingZeros32(set)] = byte(side + 1)
		}
	}
}

var _ rules.Reserver = (*Position)(nil)

// CloneReserve implements rules.Reserver: Clone, the history with room for
// n more moves.
func (p *Position) CloneReserve(n int) rules.Position {
	c := *p
	c.hist = make([]uint64, len(p.hist), len(p.hist)+max(n, 0))
	copy(c.hist, p.hist)
	return &c
}

var _ rules.Copier = (*Position)(nil)

// CopyInto implements rules.Copier. It copies only the history entries that
// can recur (from irrev on).
func (p *Position) CopyInto(dst rules.Position, n int) rules.Position {
	d, _ := dst.(*Position)
	reuse := d != nil && d.own == d // else d's array may be shared
	if d == nil {
		d = new(Position)
	}
	h := rules.CopyHistory(d.hist, reuse, p.hist[p.irrev:], n)
	*d = *p
	d.hist, d.irrev, d.own = h, 0, d
	return d
}

var _ rules.TurnKeeper = (*Position)(nil)

// KeepsTurn implements rules.TurnKeeper: no move of Dejarik keeps the turn.
func (p *Position) KeepsTurn(m rules.Move) bool { return false }
