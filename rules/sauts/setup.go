package sauts

import "github.com/plateau/plateau/rules"

var _ rules.Composer = Game{}

// Compose writes the position of board with toMove to play (rules.Composer):
// a Sauts position is its pawns and the side to move, nothing of base.
func (Game) Compose(_ rules.Position, board []rules.Placement, toMove rules.Side) (string, error) {
	p := &Position{stm: toMove}
	for _, pl := range board {
		if err := rules.PawnSetupError(pl, "Sauts"); err != nil {
			return "", err
		}
		sq, ok := parseSquare(pl.Square)
		if !ok {
			return "", rules.SetupError(pl, "not a square (A1–H8)")
		}
		if (p.pawns[0]|p.pawns[1])&(1<<sq) != 0 {
			return "", rules.SetupError(pl, "two pieces on %s", pl.Square)
		}
		p.pawns[pl.Side] |= 1 << sq
	}
	return p.String(), nil
}
