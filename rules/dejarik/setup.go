package dejarik

import "github.com/plateau/plateau/rules"

var _ rules.Composer = game{}

// Compose writes the position of board with toMove to play (rules.Composer);
// which sides are still in their first turn is base's.
func (game) Compose(base rules.Position, board []rules.Placement, toMove rules.Side) (string, error) {
	p := &Position{toMove: toMove, first: [2]bool{true, true}}
	if b, ok := base.(*Position); ok {
		p.first = b.first
	}
	for _, pl := range board {
		if err := rules.PawnSetupError(pl, "Dejarik"); err != nil {
			return "", err
		}
		c, ok := parseCell(pl.Square)
		if !ok {
			return "", rules.SetupError(pl, "not a cell (c, i1–i12, o1–o12)")
		}
		if (p.pawns[0]|p.pawns[1])&bit(c) != 0 {
			return "", rules.SetupError(pl, "two pieces on %s", pl.Square)
		}
		p.pawns[pl.Side] |= bit(c)
	}
	return p.String(), nil
}
