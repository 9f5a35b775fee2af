package sauts

import (
	"math/bits"

	"github.com/plateau/plateau/rules"
)

// layout is Sauts' rules.Layout: the 64 squares A1..H8 by index (row*8 +
// column); code 1 a White pawn, 2 a Black pawn; no hands.
var layout = func() *rules.Layout {
	l := &rules.Layout{Squares: make([]string, 64)}
	for sq := range l.Squares {
		l.Squares[sq] = squareName(sq)
	}
	l.Codes[1] = rules.Piece{Kind: 'P', Side: white}
	l.Codes[2] = rules.Piece{Kind: 'P', Side: black}
	return l
}()

var _ rules.Cells = (*Position)(nil)

// Layout implements rules.Cells.
func (p *Position) Layout() *rules.Layout { return layout }

// Cells implements rules.Cells.
func (p *Position) Cells(board, hand []byte) {
	board = board[:64]
	clear(board)
	for side := range p.pawns {
		for set := p.pawns[side]; set != 0; set &= set - 1 {
			board[bits.TrailingZeros64(set)] = byte(side + 1)
		}
	}
}

var _ rules.TurnKeeper = (*Position)(nil)

// KeepsTurn implements rules.TurnKeeper: no move of Sauts keeps the turn.
func (p *Position) KeepsTurn(m rules.Move) bool { return false }

var _ rules.Copier = (*Position)(nil)

// CopyInto implements rules.Copier: a position holds no slice, so a copy is
// the struct's.
func (p *Position) CopyInto(dst rules.Position, n int) rules.Position {
	return rules.CopyStruct(dst, p)
}
