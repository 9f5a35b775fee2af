package dejarik

import (
	"math/bits"

	"github.com/plateau/plateau/rules"
)

// A move is encoded as
//
//	bits  0–4   origin cell
//	bits  5–9   first landing cell (the cell the notation names)
//	bits 10–14  final cell, after the forced augmentations
//	bits 15–26  pawns taken: bit K-1 for iK
//	bits 27–28  kind
//
// so that Play, Describe and FormatMove need no search.
const (
	kindStraight = iota // oK-iK, oK-c, c-oK, iK-oK: one cell, no augmentation
	kindDiagonal        // oK-iK±1
	kindDouble          // oK-iK±2
)

func mkMove(from, land, final int, taken uint32, kind int) rules.Move {
	return rules.Move(uint64(from) | uint64(land)<<5 | uint64(final)<<10 | uint64(taken)<<15 | uint64(kind)<<27)
}

func moveFrom(m rules.Move) int     { return int(m & 31) }
func moveLand(m rules.Move) int     { return int(m >> 5 & 31) }
func moveFinal(m rules.Move) int    { return int(m >> 10 & 31) }
func moveTaken(m rules.Move) uint32 { return uint32(m>>15) & 0xfff }
func moveKind(m rules.Move) int     { return int(m >> 27 & 3) }

// Legal appends every legal move: one per origin and first landing cell.
// A finished game has none.
func (p *Position) Legal(dst []rules.Move) []rules.Move {
	if _, over := p.stateOutcome(); over {
		return dst
	}
	return p.gen(dst)
}

// gen appends the moves of the side to move, whether or not the game is over.
func (p *Position) gen(dst []rules.Move) []rules.Move {
	s := p.toMove
	occ := p.pawns[0] | p.pawns[1]
	for set := p.pawns[s]; set != 0; set &= set - 1 {
		from := bits.TrailingZeros32(set)
		switch {
		case from == centre:
			// Dejarik inverse: centre to oK through the empty iK.
			for k := 1; k <= ring; k++ {
				if occ&(bit(inner(k))|bit(outer(k))) == 0 {
					dst = append(dst, mkMove(from, outer(k), outer(k), 0, kindStraight))
				}
			}
		case isInner(from):
			// Re-entry, the only move from the inner ring.
			if o := outer(from); occ&bit(o) == 0 {
				dst = append(dst, mkMove(from, o, o, 0, kindStraight))
			}
		default:
			k := ringNum(from)
			front := inner(k)
			if occ&bit(front) != 0 {
				continue // every move from oK crosses or lands on iK but the diagonal ones, which need it empty too
			}
			dst = append(dst, mkMove(from, front, front, 0, kindStraight))
			if occ&centreBit == 0 {
				dst = append(dst, mkMove(from, centre, centre, 0, kindStraight))
			}
			if p.first[s] {
				continue
			}
			for _, d := range [2]int{1, -1} {
				diag := inner(around(k, d))
				if occ&bit(diag) != 0 {
					continue
				}
				final, taken := p.resolve(s, from, diag, d)
				dst = append(dst, mkMove(from, diag, final, taken, kindDiagonal))
				dbl := inner(around(k, 2*d))
				if occ&(bit(outer(around(k, d)))|bit(dbl)) != 0 {
					continue
				}
				final, taken = p.resolve(s, from, dbl, d)
				dst = append(dst, mkMove(from, dbl, final, taken, kindDouble))
			}
		}
	}
	return dst
}

// hasMove reports whether the side to move has a move (game end aside).
func (p *Position) hasMove() bool {
	var buf [64]rules.Move
	return len(p.gen(buf[:0])) > 0
}

// resolve follows a diagonal exit of side s from cell from landing on land
// (direction d round the ring): at each landing, enemy pawns beside it on
// the inner ring are taken and the move ends; otherwise, if the pawn stands
// in front of one of its own pawns, it moves two more cells in direction d
// when both are empty, and stops when they are not.
func (p *Position) resolve(s rules.Side, from, land, d int) (final int, taken uint32) {
	own := p.pawns[s] &^ bit(from)
	enemy := p.pawns[s.Other()]
	occ := own | enemy
	for range ring / 2 {
		k := land
		beside := (bit(inner(around(k, 1))) | bit(inner(around(k, -1)))) & enemy
		if beside != 0 {
			return land, innerRing(beside)
		}
		if own&bit(outer(k)) == 0 {
			return land, 0
		}
		step, next := inner(around(k, d)), inner(around(k, 2*d))
		if occ&(bit(step)|bit(next)) != 0 {
			return land, 0
		}
		land = next
	}
	return land, 0
}

// Play makes a move of this position (from Legal or ParseMove).
func (p *Position) Play(m rules.Move) {
	s := p.toMove
	from, final, taken := moveFrom(m), moveFinal(m), moveTaken(m)<<1
	p.pawns[s] = p.pawns[s]&^bit(from) | bit(final)
	p.key ^= zobrist.cell[s][from] ^ zobrist.cell[s][final]
	irreversible := false
	if taken != 0 {
		o := s.Other()
		p.pawns[o] &^= taken
		for t := taken; t != 0; t &= t - 1 {
			p.key ^= zobrist.cell[o][bits.TrailingZeros32(t)]
		}
		irreversible = true
	}
	if p.first[s] {
		p.first[s] = false
		p.key ^= zobrist.first[s]
		irreversible = true
	}
	p.toMove = s.Other()
	p.key ^= zobrist.black
	if irreversible {
		p.irrev = len(p.hist)
	}
	p.hist = append(p.hist, p.key)
}
