package index

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/plateau/plateau/rules"
)

// Pattern is a set of conditions on one position; every term must hold.
//
// Syntax: terms separated by spaces.
//
//	[SIDE:][+|-]K@SQ,SQ,…     a piece on one of the squares
//	empty@SQ,SQ,…             every one of the squares is empty
//	[SIDE:][+|-]K@hand[OP N]  pieces in hand (default: at least one)
//	[SIDE:][+|-]K OP N        pieces on the board (material count)
//
// SIDE is a side name of the game (Sente, White, …, any unambiguous
// prefix, case-insensitive) or 0/1; without it either side matches. + asks
// for a promoted piece, - for an unpromoted one. K is a piece letter of the
// game's notation (upper case) or * for any piece. OP is one of = == != < <=
// > >=. Example (Ōgi): "Sente:R@e1,e2,e3 empty@e4 Gote:P@hand>=2 Gote:*<=10".
type Pattern struct {
	Text  string
	Terms []Term
}

// TermKind is what a pattern term tests.
type TermKind int

// Pattern term kinds.
const (
	OnSquares TermKind = iota // a matching piece on one of Squares
	Empty                     // every one of Squares empty
	InHand                    // count of matching pieces in hand
	OnBoard                   // count of matching pieces on the board
)

// Term is one condition of a Pattern.
type Term struct {
	Kind    TermKind
	Side    string // "" for either side; else a side name, prefix, "0" or "1"
	Piece   byte   // 0 for any piece
	Promo   int    // -1 any, 0 unpromoted, 1 promoted
	Squares []string
	Op      string
	N       int
}

// ParsePattern reads a pattern.
func ParsePattern(text string) (*Pattern, error) {
	p := &Pattern{Text: text}
	for _, f := range strings.Fields(text) {
		t, err := parseTerm(f)
		if err != nil {
			return nil, fmt.Errorf("%w: pattern term %q: %v", ErrQuery, f, err)
		}
		p.Terms = append(p.Terms, t)
	}
	if len(p.Terms) == 0 {
		return nil, fmt.Errorf("%w: empty pattern", ErrQuery)
	}
	return p, nil
}

var ops = []string{"==", "!=", "<=", ">=", "=", "<", ">"}

func parseTerm(f string) (Term, error) {
	t := Term{Promo: -1}
	// (Compared without case on the bytes: lower-casing the whole term
	// could change its length.)
	if len(f) >= len("empty@") && strings.EqualFold(f[:len("empty@")], "empty@") {
		t.Kind = Empty
		t.Squares = splitSquares(f[len("empty@"):])
		if len(t.Squares) == 0 {
			return t, fmt.Errorf("no squares")
		}
		return t, nil
	}
	if side, rest, ok := strings.Cut(f, ":"); ok {
		t.Side, f = side, rest
	}
	switch {
	case strings.HasPrefix(f, "+"):
		t.Promo, f = 1, f[1:]
	case strings.HasPrefix(f, "-"):
		t.Promo, f = 0, f[1:]
	}
	if f == "" {
		return t, fmt.Errorf("no piece")
	}
	if f[0] != '*' {
		t.Piece = strings.ToUpper(f[:1])[0]
	}
	f = f[1:]
	if rest, ok := strings.CutPrefix(f, "@"); ok {
		if h, ok := strings.CutPrefix(strings.ToLower(rest), "hand"); ok {
			t.Kind, t.Op, t.N = InHand, ">=", 1
			if h != "" {
				op, n, err := parseCount(h)
				if err != nil {
					return t, err
				}
				t.Op, t.N = op, n
			}
			return t, nil
		}
		t.Kind = OnSquares
		t.Squares = splitSquares(rest)
		if len(t.Squares) == 0 {
			return t, fmt.Errorf("no squares")
		}
		return t, nil
	}
	op, n, err := parseCount(f)
	if err != nil {
		return t, err
	}
	t.Kind, t.Op, t.N = OnBoard, op, n
	return t, nil
}

func splitSquares(s string) []string {
	var out []string
	for _, q := range strings.Split(s, ",") {
		if q = strings.TrimSpace(q); q != "" {
			out = append(out, q)
		}
	}
	return out
}

func parseCount(s string) (string, int, error) {
	for _, op := range ops {
		if rest, ok := strings.CutPrefix(s, op); ok {
			n, err := strconv.Atoi(rest)
			if err != nil || n < 0 {
				return "", 0, fmt.Errorf("bad count %q", rest)
			}
			if op == "==" {
				op = "="
			}
			return op, n, nil
		}
	}
	return "", 0, fmt.Errorf("expected @squares, @hand or a count such as >=2 after the piece, not %q", s)
}

// matcher is a pattern resolved for one ruleset.
type matcher struct {
	terms []mterm
}

type mterm struct {
	Term
	side int // -1 any
	sq   map[string]bool
}

func (p *Pattern) compile(g rules.Game) (*matcher, error) {
	m := &matcher{}
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
							return nil, fmt.Errorf("%w: side %q is ambiguous in %s", ErrQuery, t.Side, g.ID())
						}
						mt.side = i
					}
				}
				if mt.side < 0 {
					return nil, fmt.Errorf("%w: %s has no side %q (sides: %s, %s)", ErrQuery, g.ID(), t.Side, sides[0], sides[1])
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

func (m *matcher) match(board []rules.Placement) bool {
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
