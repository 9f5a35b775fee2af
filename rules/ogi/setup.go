package ogi

import (
	"math"

	"github.com/plateau/plateau/rules"
)

var _ rules.Composer = game{}

// Compose writes the position of board with toMove to play (rules.Composer);
// the move number and the quiet-ply count are base's.
func (game) Compose(base rules.Position, board []rules.Placement, toMove rules.Side) (string, error) {
	p := &Position{side: int(toMove), ply: 1}
	if b, ok := base.(*Position); ok {
		p.ply, p.quiet = b.ply, b.quiet
	}
	for _, pl := range board {
		k := letterKind(pl.Kind)
		if k < 0 || pl.Side < 0 || pl.Side > 1 {
			return "", rules.SetupError(pl, "not a piece of Ōgi (%s)", pieceLetters)
		}
		slot := k
		if pl.Promoted {
			slot |= promBit
		}
		if pl.Square == "" {
			n := int(p.hand[pl.Side][slot]) + pl.Count
			if pl.Count < 0 || n > math.MaxUint8 {
				return "", rules.SetupError(pl, "a hand holds 0 to %d of a piece", math.MaxUint8)
			}
			p.hand[pl.Side][slot] = uint8(n)
			continue
		}
		sq, ok := square(pl.Square, 0)
		if !ok || len(pl.Square) != 2 {
			return "", rules.SetupError(pl, "not a square (a1–h8)")
		}
		if p.board[sq] != 0 {
			return "", rules.SetupError(pl, "two pieces on %s", pl.Square)
		}
		p.board[sq] = makeCode(int(pl.Side), k, pl.Promoted)
	}
	return p.String(), nil
}
