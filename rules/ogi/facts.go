package ogi

import (
	"encoding/binary"
	"math/bits"

	"github.com/plateau/plateau/rules"
)

// sqCoords are the rules.Coord of each square index.
var sqCoords = func() (c [64]rules.Coord) {
	for sq := range c {
		c[sq] = rules.Coord{File: int8(sq&7) + 1, Rank: int8(sq>>3) + 1}
	}
	return c
}()

// AppendFacts appends the facts of each move to dst (rules.FactsDescriber):
// Describe without strings, straight from the move's bits.
func (p *Position) AppendFacts(dst []rules.MoveFacts, moves []rules.Move) []rules.MoveFacts {
	for _, m := range moves {
		f := rules.MoveFacts{To: sqCoords[m&63], Promotes: m&mPromote != 0}
		if m&mDrop != 0 {
			f.Drop = true
		} else {
			f.From = sqCoords[(m>>6)&63]
		}
		if mCapture(m) != 0 {
			f.Captures = 1
		}
		dst = append(dst, f)
	}
	return dst
}

// sampleDrops appends at most n distinct drops drawn at random, the same
// for the same position and seed, or every drop when the hand and the empty
// squares make at most 2n candidates; the repetition rule is left to the
// caller. Drops are most of Ōgi's legal moves once hands fill (a hand of
// four kinds and 40 empty squares make 160), so a move-choice policy that
// scores them all spends its time on near-identical moves.
func (p *Position) sampleDrops(dst []rules.Move, n int, seed uint64) []rules.Move {
	if p.kingCaptured() || n <= 0 {
		return dst
	}
	us := p.side
	h := &p.hand[us]
	// Slot 0 (a King in hand) never occurs here; unpromoted pawns are
	// never dropped.
	lo := binary.LittleEndian.Uint64(h[0:8]) &^ (0xff << (8 * pawn))
	hi := binary.LittleEndian.Uint64(h[8:16])
	if lo|hi == 0 {
		return dst // nothing to drop: the common case in the opening
	}
	var slots [16]uint8
	ns := 0
	for b := nonzeroBytes(lo) | nonzeroBytes(hi)<<8; b != 0; b &= b - 1 {
		slots[ns] = uint8(bits.TrailingZeros(b))
		ns++
	}
	// At most 32 pieces (the full set) leave at least 32 empty squares.
	if ns*32 <= 2*n && ns*p.emptyCount() <= 2*n {
		return p.drops(dst)
	}
	// Draw (slot, square) pairs, trying up to four squares until one takes
	// the piece (empty, and not a dead end); a draw without one, or drawn
	// before, is lost, so fewer than n drops may come back, never a wrong one.
	empty := ^(p.occ[0] | p.occ[1])
	start := len(dst)
	var drawn uint64 // the squares of the drops drawn
draws:
	for k := 0; k < n; k++ {
		seed += 0xa0761d6478bd642f
		hi, lo := bits.Mul64(seed, seed^0xe7037ed1a0b428db)
		x := hi ^ lo
		slot := slots[(x>>32)*uint64(ns)>>32]
		avail := empty &^ dropDeadEnds[us][slot]
		// The first of four squares that takes the piece, without branches.
		t0, t1, t2, t3 := x&63, x>>6&63, x>>12&63, x>>18&63
		sq, ok := t3, avail>>t3&1
		if avail>>t2&1 != 0 {
			sq, ok = t2, 1
		}
		if avail>>t1&1 != 0 {
			sq, ok = t1, 1
		}
		if avail>>t0&1 != 0 {
			sq, ok = t0, 1
		}
		if ok == 0 {
			continue
		}
		m := dropMoves[us][slot] | rules.Move(sq)
		if drawn&(1<<sq) != 0 {
			for _, d := range dst[start:] {
				if d == m {
					continue draws
				}
			}
		}
		drawn |= 1 << sq
		dst = append(dst, m)
	}
	if len(dst) == start { // every draw was lost: take them all
		dst = p.drops(dst)
	}
	return dst
}

// Drops by side and hand slot, for sampleDrops.
var (
	// dropMoves[side][slot] is the drop of the slot's piece, to square 0.
	dropMoves [2][16]rules.Move
	// dropDeadEnds[side][slot] are the squares where the piece could never
	// move (deadEnd), so cannot be dropped.
	dropDeadEnds [2][16]uint64
)

func init() {
	for side := 0; side < 2; side++ {
		for slot := 0; slot < 16; slot++ {
			prom := slot&promBit != 0
			dropMoves[side][slot] = encode(0, 0, makeCode(side, slot&7, prom), 0, mDrop)
			for sq := 0; sq < 64; sq++ {
				if !prom && deadEnd(side, slot&7, sq) {
					dropDeadEnds[side][slot] |= 1 << sq
				}
			}
		}
	}
}

// nonzeroBytes has bit i set when byte i of x is not zero.
func nonzeroBytes(x uint64) uint {
	const low7, high = 0x7f7f7f7f7f7f7f7f, 0x8080808080808080
	y := ((x&low7 + low7) | x) & high
	return uint((y >> 7) * 0x0102040810204080 >> 56)
}

// emptyCount is the number of empty squares.
func (p *Position) emptyCount() int {
	n := 0
	for _, c := range p.board {
		if c == 0 {
			n++
		}
	}
	return n
}
