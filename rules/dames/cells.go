package dames

import (
	"strconv"

	"github.com/plateau/plateau/rules"
)

// The rules.Layout of each board: the squares by index (PDN number minus 1),
// named by number or algebraically, and the cell contents as codes. Board
// names men M and kings K (promoted) in every ruleset, the wolf and the
// sheep included. Each geom holds its two layouts (geom.go).
func newLayout(g *geom, algebraic bool) *rules.Layout {
	l := &rules.Layout{Squares: make([]string, g.n)}
	for s := range l.Squares {
		l.Squares[s] = strconv.Itoa(s + 1)
		if algebraic {
			l.Squares[s] = g.alg(s)
		}
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

// withoutKings is a copy of l that has no king: the encoding of a
// ruleset whose men never crown (loup-moutons), so that what reads its
// layout (the pieces a page offers, a pattern's letters) finds no king.
func withoutKings(l *rules.Layout) *rules.Layout {
	c := *l
	for i := range c.Codes {
		if c.Codes[i].Promoted {
			c.Codes[i] = rules.Piece{}
		}
	}
	return &c
}

// flipSides is a copy of l whose pieces belong to the other side: the
// layout of a ruleset where Black is side 0.
func flipSides(l *rules.Layout) *rules.Layout {
	c := *l
	for i := range c.Codes {
		if c.Codes[i] != (rules.Piece{}) {
			c.Codes[i].Side = c.Codes[i].Side.Other()
		}
	}
	return &c
}

// Layout implements rules.Cells.
func (p *Position) Layout() *rules.Layout {
	i := 0
	if p.g.f.algebraic {
		i = 1
	}
	if p.g.f.blackFirst {
		return p.g.flipped[i]
	}
	if p.g.v == vLoup {
		return p.geo.menOnly[i]
	}
	return p.geo.layouts[i]
}

// Cells implements rules.Cells.
func (p *Position) Cells(board, hand []byte) {
	n := p.geo.n
	board = board[:n]
	for s, c := range p.cell[:n] {
		board[s] = byte(c)
	}
}

var _ rules.TurnKeeper = (*Position)(nil)

// KeepsTurn implements rules.TurnKeeper: a huff keeps the turn (see
// Describe).
func (p *Position) KeepsTurn(m rules.Move) bool { return mHuff(m) }

var _ rules.Copier = (*Position)(nil)

// CopyInto implements rules.Copier: a position holds no slice, so a copy is
// the struct's.
func (p *Position) CopyInto(dst rules.Position, n int) rules.Position {
	return rules.CopyStruct(dst, p)
}
