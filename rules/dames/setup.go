package dames

import "github.com/plateau/plateau/rules"

var _ rules.Composer = (*Game)(nil)

// Compose writes the position of board with toMove to play (rules.Composer):
// men (M) and kings (K, or a promoted M) on the squares as Board names them;
// the board size is base's (a 10×10 loup-moutons game stays one), and no
// huff, Frisian king run or ending count is carried over.
func (g *Game) Compose(base rules.Position, board []rules.Placement, toMove rules.Side) (string, error) {
	p := &Position{g: g, geo: g.f.geo, turn: g.side(int(toMove))}
	if b, ok := base.(*Position); ok && b.g == g {
		p.geo = b.geo
	}
	names := make(map[string]int, p.geo.n)
	for s := 0; s < p.geo.n; s++ {
		names[p.sqName(s)] = s
	}
	for _, pl := range board {
		switch {
		case pl.Kind != 'M' && pl.Kind != 'K' || pl.Side < 0 || pl.Side > 1:
			return "", rules.SetupError(pl, "draughts pieces are men (M) and kings (K)")
		case pl.Square == "":
			return "", rules.SetupError(pl, "draughts have no pieces in hand")
		}
		s, ok := names[pl.Square]
		if !ok {
			return "", rules.SetupError(pl, "not a square of the %s board", p.geo.size())
		}
		if p.cell[s] != empty {
			return "", rules.SetupError(pl, "two pieces on %s", pl.Square)
		}
		c := wMan
		if int(g.side(int(pl.Side))) == black {
			c = bMan
		}
		if pl.Kind == 'K' || pl.Promoted {
			c++
		}
		p.cell[s] = c
	}
	return p.String(), nil
}
