package dames

import (
	"github.com/plateau/plateau/rules"
)

// Move encoding. On boards of at most 50 squares: bits 0–5 the origin, 6–11
// the destination (0-based squares), 12–60 the captured squares 0–48 (the
// last square of a 10×10 board lies on its edge and is never captured).
// Values stored by earlier versions keep their meaning. On larger boards
// (Turkish 64 squares, Canadian 72): bits 0–6 the origin, 7–13 the
// destination, 14–60 the captured pieces as ranks among the opponent's
// pieces before the move (bit i for the i-th of its occupied squares in
// ascending order), so that a position of such a board holds at most 47
// pieces of a side (the FEN reader refuses more). In both: bit 61 a man
// crowned during its capture (Russian rules), bit 62 a huff (origin = the
// piece removed), bit 63 a fault (a move that ignored a capture, Schmidt
// games only).
const (
	crownBit  = uint64(1) << 61
	huffBit   = uint64(1) << 62
	faultBit  = uint64(1) << 63
	capsBits  = 49
	maskBits  = (uint64(1) << capsBits) - 1
	wideSq    = 50 // boards with more squares use the wide encoding
	wideRanks = 47 // the most pieces of a side on a wide board
)

func (p *Position) wide() bool { return p.geo.n > wideSq }

// mkMove encodes a move that takes the pieces on caps.
func (p *Position) mkMove(from, to int, caps sqset) rules.Move {
	if !p.wide() {
		return rules.Move(uint64(from) | uint64(to)<<6 | caps[0]<<12)
	}
	var ranks uint64
	i := 0
	for opp := p.occ[1-p.turn]; !opp.empty(); i++ {
		if caps.has(opp.pop()) {
			ranks |= 1 << uint(i)
		}
	}
	return rules.Move(uint64(from) | uint64(to)<<7 | ranks<<14)
}

func (p *Position) mFrom(m rules.Move) int {
	if p.wide() && !mHuff(m) {
		return int(m & 127)
	}
	return int(m & 63)
}

func (p *Position) mTo(m rules.Move) int {
	if p.wide() {
		return int(m >> 7 & 127)
	}
	return int(m >> 6 & 63)
}

// mCaps is the set of squares move m takes pieces from.
func (p *Position) mCaps(m rules.Move) sqset {
	if !p.wide() {
		return sqset{uint64(m) >> 12 & maskBits}
	}
	var caps sqset
	ranks := uint64(m) >> 14 & (1<<wideRanks - 1)
	for opp := p.occ[1-p.turn]; ranks != 0 && !opp.empty(); ranks >>= 1 {
		s := opp.pop()
		if ranks&1 != 0 {
			caps = caps.with(s)
		}
	}
	return caps
}

// mCount is the number of pieces move m takes.
func (p *Position) mCount(m rules.Move) int {
	if !p.wide() {
		return popcount(uint64(m) >> 12 & maskBits)
	}
	return popcount(uint64(m) >> 14 & (1<<wideRanks - 1))
}

func mHuff(m rules.Move) bool  { return uint64(m)&huffBit != 0 }
func mFault(m rules.Move) bool { return uint64(m)&faultBit != 0 }
