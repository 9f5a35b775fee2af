package sauts

import (
	"math/bits"

	"github.com/plateau/plateau/rules"
)

// Squares are numbered row*8+col: row 0 is A (Black's side, at the top),
// row 7 is H; col 0 is column 1. A bitboard has bit sq set for each square.

const (
	white rules.Side = 0
	black rules.Side = 1

	notCol1 uint64 = ^uint64(0x0101010101010101) // squares not in column 1
	notCol8 uint64 = ^uint64(0x8080808080808080) // squares not in column 8

	blackHalf uint64 = 0x00000000FFFFFFFF // rows A–D
	whiteHalf uint64 = 0xFFFFFFFF00000000 // rows E–H

	goalsA uint64 = 0x18                    // A4, A5: White's targets, Black's own goals
	goalsH uint64 = uint64(0x18) << (7 * 8) // H4, H5: Black's targets, White's own goals
)

// Per side: its own half, its own goals (never entered or crossed) and its
// targets (the opponent's goals, reaching one wins).
var (
	halfOf    = [2]uint64{whiteHalf, blackHalf}
	ownGoalOf = [2]uint64{goalsH, goalsA}
	targetOf  = [2]uint64{goalsA, goalsH}
)

// The eight directions; the first four are orthogonal.
const (
	north = iota // towards row A
	south        // towards row H
	west         // towards column 1
	east         // towards column 8
	northWest
	northEast
	southWest
	southEast
	nDirs
)

// step moves every square of b one square in direction d, dropping those that
// would leave the board.
func step(b uint64, d int) uint64 {
	switch d {
	case north:
		return b >> 8
	case south:
		return b << 8
	case west:
		return (b & notCol1) >> 1
	case east:
		return (b & notCol8) << 1
	case northWest:
		return (b & notCol1) >> 9
	case northEast:
		return (b & notCol8) >> 7
	case southWest:
		return (b & notCol1) << 7
	case southEast:
		return (b & notCol8) << 9
	}
	return 0
}

// over reports the side that has a pawn on one of its targets, if any.
func (p *Position) winner() (rules.Side, bool) {
	if p.pawns[white]&targetOf[white] != 0 {
		return white, true
	}
	if p.pawns[black]&targetOf[black] != 0 {
		return black, true
	}
	return 0, false
}

// slides returns the squares the pawn on from reaches by a home move: an
// orthogonal slide over empty squares, inside the mover's half, never into or
// across its own goals.
func (p *Position) slides(from int) uint64 {
	s := p.stm
	fb := uint64(1) << from
	half := halfOf[s]
	if fb&half == 0 {
		return 0
	}
	free := ^(p.pawns[0] | p.pawns[1]) & half &^ ownGoalOf[s]
	var out uint64
	for d := north; d <= east; d++ {
		for x := step(fb, d) & free; x != 0; x = step(x, d) & free {
			out |= x
		}
	}
	return out
}

// jumpSetup returns, for a chain started by the pawn on from, the pawns that
// may be jumped (the mover's others: its origin is vacated) and the squares a
// jump may land on (empty, origin excluded, not an own goal).
func (p *Position) jumpSetup(from int) (jumpable, land uint64) {
	s := p.stm
	fb := uint64(1) << from
	jumpable = p.pawns[s] &^ fb
	land = ^(p.pawns[0] | p.pawns[1]) &^ ownGoalOf[s]
	return jumpable, land
}

// jumpsFrom returns the landing squares of one jump from any square of b.
func jumpsFrom(b, jumpable, land uint64) uint64 {
	var out uint64
	for d := 0; d < nDirs; d++ {
		out |= step(step(b, d)&jumpable, d) & land
	}
	return out
}

// chains returns every square a chain of jumps from from can end on. A chain
// never lands twice on one square (its origin included) and stops on a
// target, so the ends are the squares reachable in the jump graph where
// targets are not expanded; any walk there shortens to a chain.
func (p *Position) chains(from int) uint64 {
	jumpable, land := p.jumpSetup(from)
	target := targetOf[p.stm]
	var reach uint64
	frontier := uint64(1) << from
	for frontier != 0 {
		next := jumpsFrom(frontier, jumpable, land) &^ reach
		reach |= next
		frontier = next &^ target
	}
	return reach
}

// dests is every square the pawn on from can move to.
func (p *Position) dests(from int) uint64 {
	return p.slides(from) | p.chains(from)
}

// Legal appends every legal move: one per origin and destination (a home
// move and the jump chains between the same two squares are one move).
func (p *Position) Legal(dst []rules.Move) []rules.Move {
	if _, over := p.winner(); over {
		return dst
	}
	for own := p.pawns[p.stm]; own != 0; own &= own - 1 {
		from := bits.TrailingZeros64(own)
		for d := p.dests(from); d != 0; d &= d - 1 {
			dst = append(dst, makeMove(from, bits.TrailingZeros64(d)))
		}
	}
	return dst
}

// hasMove reports whether the side to move has a legal move: a home move or
// a first jump (every chain starts with one).
func (p *Position) hasMove() bool {
	s := p.stm
	own := p.pawns[s]
	empty := ^(p.pawns[0] | p.pawns[1]) &^ ownGoalOf[s]
	half := halfOf[s]
	for d := 0; d < nDirs; d++ {
		if d <= east && step(own&half, d)&empty&half != 0 {
			return true
		}
		if step(step(own, d)&own, d)&empty != 0 {
			return true
		}
	}
	return false
}

func makeMove(from, to int) rules.Move { return rules.Move(from | to<<6) }

func moveSquares(m rules.Move) (from, to int) { return int(m & 63), int(m >> 6 & 63) }

// Play makes a legal move of this position.
func (p *Position) Play(m rules.Move) {
	from, to := moveSquares(m)
	s := p.stm
	p.pawns[s] ^= uint64(1)<<from | uint64(1)<<to
	p.key ^= zobrist[s][from] ^ zobrist[s][to] ^ zobristBlack
	p.stm = s.Other()
}
