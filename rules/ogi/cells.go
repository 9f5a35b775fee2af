package ogi

import "github.com/plateau/plateau/rules"

// layout is Ōgi's rules.Layout: the 64 squares a1..h8 by index, the board
// codes as they are (see piece.go), and 32 hand slots, side*16 + slot.
var layout = func() *rules.Layout {
	l := &rules.Layout{Squares: sqNames[:], Hand: make([]rules.Piece, 32)}
	for c := presentBit; c < 2*presentBit; c++ {
		code := uint8(c)
		l.Codes[c] = rules.Piece{Kind: pieceLetters[kindOf(code)], Side: rules.Side(sideOf(code)), Promoted: promoted(code)}
	}
	for s := 0; s < 2; s++ {
		for _, slot := range handOrder {
			l.Hand[s*16+slot] = rules.Piece{Kind: pieceLetters[slot&7], Side: rules.Side(s), Promoted: slot&promBit != 0}
		}
	}
	return l
}()

var _ rules.Cells = (*Position)(nil)

// Layout implements rules.Cells.
func (p *Position) Layout() *rules.Layout { return layout }

// Cells implements rules.Cells.
func (p *Position) Cells(board, hand []byte) {
	// Copies of arrays: moves of words, without a call to memmove (a
	// pattern scan copies every position of every game).
	*(*[64]byte)(board) = p.board
	*(*[16]byte)(hand) = p.hand[0]
	*(*[16]byte)(hand[16:]) = p.hand[1]
}

var _ rules.Reserver = (*Position)(nil)

// CloneReserve implements rules.Reserver: Clone, the history with room for
// n more moves.
func (p *Position) CloneReserve(n int) rules.Position {
	c := *p
	c.hist = make([]histEntry, len(p.hist), len(p.hist)+max(n, 0))
	copy(c.hist, p.hist)
	return &c
}

var _ rules.Copier = (*Position)(nil)

// CopyInto implements rules.Copier. It copies only the history entries that
// the repetition rule can still read (from since on), as Play does when a
// clone's history is full.
func (p *Position) CopyInto(dst rules.Position, n int) rules.Position {
	d, _ := dst.(*Position)
	reuse := d != nil && d.own == d // else d's array may be shared
	if d == nil {
		d = new(Position)
	}
	h := rules.CopyHistory(d.hist, reuse, p.hist[p.since:], n)
	*d = *p
	d.hist, d.since, d.own = h, 0, d
	return d
}

var _ rules.TurnKeeper = (*Position)(nil)

// KeepsTurn implements rules.TurnKeeper: no move of Ōgi keeps the turn.
func (p *Position) KeepsTurn(m rules.Move) bool { return false }
