package jetan

import "github.com/plateau/plateau/rules"

// layout is Jetan's rules.Layout: the 100 squares a1..j10 by index and the
// board codes as they are (kind | side<<4); no hands.
var layout = func() *rules.Layout {
	l := &rules.Layout{Squares: make([]string, squares)}
	for sq := range l.Squares {
		l.Squares[sq] = SquareName(sq)
	}
	for _, s := range []rules.Side{0, 1} {
		for k := 1; k <= numKinds; k++ {
			l.Codes[cell(s, k)] = rules.Piece{Kind: kindLetters[k], Side: s}
		}
	}
	return l
}()

var _ rules.Cells = (*Position)(nil)

// Layout implements rules.Cells.
func (p *Position) Layout() *rules.Layout { return layout }

// Cells implements rules.Cells.
func (p *Position) Cells(board, hand []byte) { copy(board[:squares], p.board[:]) }

var _ rules.TurnKeeper = (*Position)(nil)

// KeepsTurn implements rules.TurnKeeper: no move of Jetan keeps the turn.
func (p *Position) KeepsTurn(m rules.Move) bool { return false }

var _ rules.Copier = (*Position)(nil)

// CopyInto implements rules.Copier: a position holds no slice, so a copy is
// the struct's.
func (p *Position) CopyInto(dst rules.Position, n int) rules.Position {
	return rules.CopyStruct(dst, p)
}
