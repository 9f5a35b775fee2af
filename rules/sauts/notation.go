package sauts

import (
	"fmt"
	"math/bits"
	"strings"

	"github.com/plateau/plateau/rules"
)

// maxSquares bounds the squares a move text may list: a chain never lands
// twice on a square, so it has at most 64 of them.
const maxSquares = 64

// parseSquare reads "G6" (the row letter may be lower case).
func parseSquare(s string) (int, bool) {
	if len(s) != 2 {
		return 0, false
	}
	r, c := s[0]|0x20, s[1]
	if r < 'a' || r > 'h' || c < '1' || c > '8' {
		return 0, false
	}
	return int(r-'a')*8 + int(c-'1'), true
}

// ParseMove implements rules.Position. It reads a home move "G2-E2", a jump
// chain with every landing square "G6-E4-C4-A2-A4", or the short form of a
// chain "G6-A4" (origin and destination only, which is unambiguous because
// all chains between two squares are one move).
func (p *Position) ParseMove(text string) (rules.Move, error) {
	var buf [maxSquares]uint8 // bytes: a small array to clear at each move
	sqs, err := scanSquares(text, buf[:0])
	if err != nil {
		return 0, err
	}
	if o := p.Outcome(); o.Over {
		return illegal(text, RuleGameOver, "the game is over (%s, %s)", o.Reason, o.Result)
	}
	s := p.stm
	from := int(sqs[0])
	if p.pawns[s]&(1<<from) == 0 {
		what := "is empty"
		if p.pawns[s.Other()]&(1<<from) != 0 {
			what = "holds a " + sideWord(s.Other()) + " pawn"
		}
		return illegal(text, RuleNoPawn, "%s %s; %s is to move", squareName(from), what, sideWord(s))
	}
	if len(sqs) == 2 {
		to := int(sqs[1])
		if to == from {
			return illegal(text, RuleSameSquare, "a move may not end where it began")
		}
		if p.dests(from)&(1<<to) != 0 {
			return makeMove(from, to), nil
		}
		return p.whyNot(text, from, to)
	}
	return p.parseChain(text, sqs)
}

// scanSquares reads the squares of a move text, joined by '-', into dst
// (of capacity maxSquares): at least two.
func scanSquares(text string, dst []uint8) ([]uint8, error) {
	const want = "want squares joined by '-', as G2-E2 or G6-E4-C4"
	for rest := strings.TrimSpace(text); ; {
		part := rest
		i := strings.IndexByte(rest, '-')
		if i >= 0 {
			part, rest = rest[:i], rest[i+1:]
		}
		if len(dst) == maxSquares {
			return nil, &rules.MoveError{Text: text, Kind: rules.Syntax, Detail: "more squares than a chain can land on"}
		}
		sq, ok := parseSquare(part)
		if !ok {
			if i < 0 && len(dst) == 0 {
				return nil, &rules.MoveError{Text: text, Kind: rules.Syntax, Detail: want}
			}
			return nil, &rules.MoveError{Text: text, Kind: rules.Syntax, Detail: fmt.Sprintf("%q is not a square (A1 to H8)", part)}
		}
		dst = append(dst, uint8(sq))
		if i < 0 {
			break
		}
	}
	if len(dst) < 2 {
		return nil, &rules.MoveError{Text: text, Kind: rules.Syntax, Detail: want}
	}
	return dst, nil
}

// parseChain checks a chain of three squares or more, sqs[0] holding a
// pawn of the side to move: every step is one jump.
func (p *Position) parseChain(text string, sqs []uint8) (rules.Move, error) {
	s := p.stm
	from := int(sqs[0])
	jumpable, land := p.jumpSetup(from)
	visited := uint64(1) << from
	cur := from
	for i, sq := range sqs[1:] {
		next := int(sq)
		if targetOf[s]&(1<<cur) != 0 {
			return illegal(text, RuleAfterGoal, "the chain ends on the goal %s", squareName(cur))
		}
		dr, dc := next/8-cur/8, next%8-cur%8
		geomOK := (dr == 0 || dr == 2 || dr == -2) && (dc == 0 || dc == 2 || dc == -2) && (dr != 0 || dc != 0)
		mid := cur
		if geomOK {
			mid = cur + (dr/2)*8 + dc/2
		}
		if !geomOK || jumpable&(1<<mid) == 0 {
			if i == 0 && p.slides(from)&(1<<next) != 0 {
				return illegal(text, RuleHomeThenJmp, "%s-%s is a home move; a chain is made of jumps only", squareName(from), squareName(next))
			}
			if !geomOK {
				return illegal(text, RuleNotJump, "%s-%s is not a jump to the square just behind a neighbour", squareName(cur), squareName(next))
			}
			return illegal(text, RuleJumpOwn, "%s-%s: no %s pawn on %s to jump over", squareName(cur), squareName(next), sideWord(s), squareName(mid))
		}
		if visited&(1<<next) != 0 {
			return illegal(text, RuleRevisit, "the chain lands on %s twice", squareName(next))
		}
		if ownGoalOf[s]&(1<<next) != 0 {
			return illegal(text, RuleOwnGoal, "%s is %s's own goal", squareName(next), sideName(s))
		}
		if land&(1<<next) == 0 {
			return illegal(text, RuleOccupied, "%s is occupied", squareName(next))
		}
		visited |= 1 << next
		cur = next
	}
	return makeMove(from, cur), nil
}

// illegal is the error of move text that breaks rule.
func illegal(text, rule, format string, args ...any) (rules.Move, error) {
	return 0, &rules.MoveError{Text: text, Kind: rules.Illegal, Rule: rule, Detail: fmt.Sprintf(format, args...)}
}

// whyNot explains why from-to (two squares, from holding a pawn of the side to
// move) is not a move.
func (p *Position) whyNot(text string, from, to int) (rules.Move, error) {
	s := p.stm
	f, t := squareName(from), squareName(to)
	if ownGoalOf[s]&(1<<to) != 0 {
		return illegal(text, RuleOwnGoal, "%s is %s's own goal", t, sideName(s))
	}
	if (p.pawns[0]|p.pawns[1])&(1<<to) != 0 {
		return illegal(text, RuleOccupied, "%s is occupied", t)
	}
	if from/8 == to/8 || from%8 == to%8 {
		half := halfOf[s]
		switch {
		case half&(1<<from) == 0:
			return illegal(text, RuleNotHome, "%s is not in %s's half, and no jump chain leads to %s", f, sideName(s), t)
		case half&(1<<to) == 0:
			return illegal(text, RuleMiddleLine, "a home move may not cross the middle line, and no jump chain leads to %s", t)
		}
		d := north
		switch {
		case to/8 > from/8:
			d = south
		case to%8 < from%8:
			d = west
		case to%8 > from%8:
			d = east
		}
		for x := step(1<<from, d); x != 0 && x != 1<<to; x = step(x, d) {
			sq := bits.TrailingZeros64(x)
			if ownGoalOf[s]&x != 0 {
				return illegal(text, RuleOwnGoal, "%s-%s crosses %s's own goal %s", f, t, sideName(s), squareName(sq))
			}
			if (p.pawns[0]|p.pawns[1])&x != 0 {
				return illegal(text, RuleBlocked, "%s stands between %s and %s, and no jump chain leads there", squareName(sq), f, t)
			}
		}
	}
	return illegal(text, RuleNoPath, "no home move or jump chain leads from %s to %s", f, t)
}

func sideName(s rules.Side) string {
	if s == white {
		return "White"
	}
	return "Black"
}

func sideWord(s rules.Side) string {
	if s == white {
		return "white"
	}
	return "black"
}

// FormatMove implements rules.Position: a home move as "G2-E2"; a move made
// only by jumps as its chain with every landing square, the shortest such
// chain and, among those, the first in alphabetical order of squares
// (A1 < A2 < … < H8). A move reachable both ways is written as the home move.
func (p *Position) FormatMove(m rules.Move) string {
	from, to := moveSquares(m)
	if p.slides(from)&(1<<to) == 0 && p.pawns[p.stm]&(1<<from) != 0 {
		if path := p.chainPath(from, to); path != "" {
			return path
		}
	}
	return squareName(from) + "-" + squareName(to)
}

// chainPath returns the canonical chain from from to to, or "" if none.
func (p *Position) chainPath(from, to int) string {
	jumpable, land := p.jumpSetup(from)
	target := targetOf[p.stm]
	toBit := uint64(1) << to
	var layers [maxSquares + 1]uint64
	layers[0] = 1 << from
	seen := layers[0]
	k := 0
	for layers[k]&toBit == 0 {
		next := jumpsFrom(layers[k]&^target, jumpable, land) &^ seen
		if next == 0 {
			return ""
		}
		k++
		layers[k] = next
		seen |= next
	}
	// onPath[j]: squares of layer j from which to is k-j jumps away.
	var onPath [maxSquares + 1]uint64
	onPath[k] = toBit
	for j := k - 1; j >= 0; j-- {
		for b := layers[j] &^ target; b != 0; b &= b - 1 {
			x := b & -b
			if jumpsFrom(x, jumpable, land)&onPath[j+1] != 0 {
				onPath[j] |= x
			}
		}
	}
	var sb strings.Builder
	sb.WriteString(squareName(from))
	cur := uint64(1) << from
	for j := 1; j <= k; j++ {
		next := jumpsFrom(cur, jumpable, land) & onPath[j]
		cur = next & -next
		sb.WriteByte('-')
		sb.WriteString(squareName(bits.TrailingZeros64(cur)))
	}
	return sb.String()
}

// Zobrist keys: one per side and square, one for Black to move. Filled once
// from a fixed seed, never changed afterwards.
var (
	zobrist      [2][64]uint64
	zobristBlack uint64
)

func init() {
	x := uint64(0x5a075a075a075a07)
	next := func() uint64 { // splitmix64
		x += 0x9e3779b97f4a7c15
		z := x
		z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
		z = (z ^ z>>27) * 0x94d049bb133111eb
		return z ^ z>>31
	}
	for s := range zobrist {
		for sq := range zobrist[s] {
			zobrist[s][sq] = next()
		}
	}
	zobristBlack = next()
}
