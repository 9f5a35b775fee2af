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
	if binary.LittleEndian.Uint64(h[0:8])&^(0xff<<(8*pawn)) == 0 && binary.LittleEndian.Uint64(h[8:16]) == 0 {
		return dst // nothing to drop: the common case in the opening
	}
	var slots [16]uint8
	ns := 0
	for slot := 1; slot < 16; slot++ {
		if h[slot] != 0 && slot != pawn {
			slots[ns] = uint8(slot)
			ns++
		}
	}
	// At most 32 pieces (the full set) leave at least 32 empty squares.
	if ns*32 <= 2*n && ns*p.emptyCount() <= 2*n {
		return p.drops(dst)
	}
	// Draw (slot, square) pairs, a square up to four times until it is
	// empty; an impossible pair (a dead-end square) or one drawn before is
	// a lost draw, so fewer than n drops may come back, never a wrong one.
	start := len(dst)
draws:
	for k := 0; k < n; k++ {
		seed += 0xa0761d6478bd642f
		hi, lo := bits.Mul64(seed, seed^0xe7037ed1a0b428db)
		x := hi ^ lo
		slot := int(slots[(x>>32)*uint64(ns)>>32])
		sq := -1
		for j := 0; j < 4; j++ {
			if t := int(x>>(6*j)) & 63; p.board[t] == 0 {
				sq = t
				break
			}
		}
		prom := slot&promBit != 0
		if sq < 0 || (!prom && deadEnd(us, slot&7, sq)) {
			continue
		}
		m := encode(0, sq, makeCode(us, slot&7, prom), 0, mDrop)
		for _, d := range dst[start:] {
			if d == m {
				continue draws
			}
		}
		dst = append(dst, m)
	}
	if len(dst) == start { // every draw was lost: take them all
		dst = p.drops(dst)
	}
	return dst
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
