package pattern

import (
	"strings"

	"github.com/plateau/plateau/rules"
)

// Matcher is a pattern resolved for one ruleset.
type Matcher struct {
	terms []mterm
}

type mterm struct {
	Term
	side int // -1 any
	sq   map[string]bool
}

// Compile resolves p for the ruleset g: its side names, prefixes or
// numbers; its errors are *Error.
func Compile(p *Pattern, g rules.Game) (*Matcher, error) {
	m := &Matcher{}
	sides := g.Sides()
	for _, t := range p.Terms {
		mt := mterm{Term: t, side: -1}
		if t.Side != "" {
			switch strings.ToLower(t.Side) {
			case "0":
				mt.side = 0
			case "1":
				mt.side = 1
			default:
				for i, s := range sides {
					if strings.HasPrefix(strings.ToLower(s), strings.ToLower(t.Side)) {
						if mt.side >= 0 {
							return nil, errorf("side %q is ambiguous in %s", t.Side, g.ID())
						}
						mt.side = i
					}
				}
				if mt.side < 0 {
					return nil, errorf("%s has no side %q (sides: %s, %s)", g.ID(), t.Side, sides[0], sides[1])
				}
			}
		}
		if len(t.Squares) > 0 {
			mt.sq = map[string]bool{}
			for _, s := range t.Squares {
				mt.sq[s] = true
			}
		}
		m.terms = append(m.terms, mt)
	}
	return m, nil
}

func (t *mterm) piece(pl *rules.Placement) bool {
	if t.side >= 0 && int(pl.Side) != t.side {
		return false
	}
	if t.Piece != 0 && pl.Kind != t.Piece {
		return false
	}
	if t.Promo >= 0 && pl.Promoted != (t.Promo == 1) {
		return false
	}
	return true
}

func compare(n int, op string, v int) bool {
	switch op {
	case "=":
		return n == v
	case "!=":
		return n != v
	case "<":
		return n < v
	case "<=":
		return n <= v
	case ">":
		return n > v
	case ">=":
		return n >= v
	}
	return false
}

// match tests a position given by its Board.
func (m *Matcher) match(board []rules.Placement) bool {
	for i := range m.terms {
		t := &m.terms[i]
		switch t.Kind {
		case OnSquares:
			ok := false
			for j := range board {
				pl := &board[j]
				if pl.Square != "" && t.sq[pl.Square] && t.piece(pl) {
					ok = true
					break
				}
			}
			if !ok {
				return false
			}
		case Empty:
			for j := range board {
				if pl := &board[j]; pl.Square != "" && t.sq[pl.Square] {
					return false
				}
			}
		case InHand, OnBoard:
			n := 0
			for j := range board {
				pl := &board[j]
				if (pl.Square == "") == (t.Kind == InHand) && t.piece(pl) {
					n += max(pl.Count, 1)
				}
			}
			if !compare(n, t.Op, t.N) {
				return false
			}
		}
	}
	return true
}
