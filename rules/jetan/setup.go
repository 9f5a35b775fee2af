package jetan

import "github.com/plateau/plateau/rules"

var _ rules.Composer = Game{}

// Compose writes the position of board with toMove to play (rules.Composer);
// the Princesses' escape flags and the draw-rule count are base's, and the
// game is not over (a position without a Chief or a Princess is refused by
// Parse, which says so).
func (Game) Compose(base rules.Position, board []rules.Placement, toMove rules.Side) (string, error) {
	p := &Position{toMove: toMove}
	if b, ok := base.(*Position); ok {
		p.escape, p.counter = b.escape, b.counter
	}
	for _, pl := range board {
		k := kindFromLetter(pl.Kind)
		switch {
		case k == 0 || pl.Side < 0 || pl.Side > 1:
			return "", rules.SetupError(pl, "not a piece of Jetan (%s)", kindLetters[1:])
		case pl.Promoted:
			return "", rules.SetupError(pl, "Jetan has no promoted pieces")
		case pl.Square == "":
			return "", rules.SetupError(pl, "Jetan has no pieces in hand")
		}
		sq, n, ok := parseSquare(pl.Square)
		if !ok || n != len(pl.Square) {
			return "", rules.SetupError(pl, "not a square (a1–j10)")
		}
		if p.board[sq] != 0 {
			return "", rules.SetupError(pl, "two pieces on %s", pl.Square)
		}
		p.board[sq] = cell(pl.Side, k)
	}
	return p.String(), nil
}
