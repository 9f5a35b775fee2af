package ogi

import (
	"math/bits"

	"github.com/plateau/plateau/rules"
)

// Bitboards for Choose: the board is 8×8, so a set of squares is a uint64
// (bit sq). They are built from the mailbox when needed, not kept in the
// Position.
var (
	// stepMask[code&31][sq]: the squares a piece reaches by steps and jumps.
	stepMask [32][64]uint64
	// rayMask[dir][sq]: the squares from sq (excluded) to the edge.
	rayMask [8][64]uint64
	// slideMask[code&31] has bit d for each sliding direction of the piece.
	slideMask [32]uint8
	// dirTo[from][to] is the direction of the ray from from that holds
	// to, noDir when none does.
	dirTo [64][64]uint8
)

// noDir is dirTo's value for two squares on no common line.
const noDir = 0xFF

// zoneMask[side]: the side's promotion zone (its three far ranks).
var zoneMask = [2]uint64{0xFFFFFF << 40, 0xFFFFFF}

// positiveDir[d]: direction d goes to higher square indexes (N, E, NE, NW).
var positiveDir = [8]bool{true, false, true, false, true, true, false, false}

// initBitboards builds the masks from the step and ray tables (called by
// the init of piece.go once those exist).
func initBitboards() {
	for c := 0; c < 32; c++ {
		for sq := 0; sq < 64; sq++ {
			for _, t := range steps[c][sq] {
				stepMask[c][sq] |= 1 << t
			}
		}
		for _, d := range slideDirs[c] {
			slideMask[c] |= 1 << d
		}
	}
	for from := range dirTo {
		for to := range dirTo[from] {
			dirTo[from][to] = noDir
		}
	}
	for d := 0; d < 8; d++ {
		for sq := 0; sq < 64; sq++ {
			for _, t := range rays[d][sq] {
				rayMask[d][sq] |= 1 << t
				dirTo[sq][t] = uint8(d)
			}
		}
	}
}

// rayAttacks is the squares a slider on sq reaches in direction d on a
// board occupied by occ: up to and including the first piece.
func rayAttacks(d, sq int, occ uint64) uint64 {
	ray := rayMask[d][sq]
	blockers := ray & occ
	if blockers == 0 {
		return ray
	}
	var b int
	if positiveDir[d] {
		b = bits.TrailingZeros64(blockers)
	} else {
		b = 63 - bits.LeadingZeros64(blockers)
	}
	return ray &^ rayMask[d][b]
}

// occupancy returns the squares occupied by side us, by the other side,
// and the squares of both Kings (-1 when not on the board).
func (p *Position) occupancy(us int) (own, other uint64, ourKing, enemyKing int) {
	return p.occ[us], p.occ[us^1], int(p.kingSq[us]), int(p.kingSq[us^1])
}

// boardMoves appends the pseudo-legal board moves of side us (Legal's
// board moves before the repetition rule), from bitboards.
func (p *Position) boardMoves(dst []rules.Move, own, other uint64) []rules.Move {
	occ := own | other
	us := p.side
	for rest := own; rest != 0; rest &= rest - 1 {
		sq := bits.TrailingZeros64(rest)
		c := p.board[sq]
		t := p.targets(sq, c, occ) &^ own
		if plainMover(c, sq, t, us) {
			// No promotion choice and no King's privilege: one move per
			// target, as addMoves would make.
			base := encode(sq, 0, c, 0, 0)
			for ; t != 0; t &= t - 1 {
				to := bits.TrailingZeros64(t)
				dst = append(dst, base|rules.Move(to)|rules.Move(p.board[to])<<24)
			}
			continue
		}
		for ; t != 0; t &= t - 1 {
			to := bits.TrailingZeros64(t)
			dst = addMoves(dst, sq, to, c, p.board[to])
		}
	}
	return dst
}

// targets is the squares piece c on sq reaches (steps, jumps and slides up
// to the first piece) on a board occupied by occ, its own pieces included.
func (p *Position) targets(sq int, c uint8, occ uint64) uint64 {
	t := stepMask[c&31][sq]
	for dirs := slideMask[c&31]; dirs != 0; dirs &= dirs - 1 {
		t |= rayAttacks(bits.TrailingZeros8(dirs), sq, occ)
	}
	return t
}

// attackedBy reports whether one of the pieces on theirs, whose codes are
// on board b, could move to sq, with the squares of occ occupied.
func attackedBy(b *[64]uint8, sq int, theirs, occ uint64) bool {
	for t := theirs & nearMask[sq]; t != 0; t &= t - 1 {
		from := bits.TrailingZeros64(t)
		if stepMask[b[from]&31][from]&(1<<sq) != 0 {
			return true
		}
	}
	// On each line from sq, the first piece, if theirs, slides back to sq.
	for _, d := range [4]uint8{0, 2, 4, 5} { // positiveDir
		if blockers := rayMask[d][sq] & occ; blockers != 0 {
			from := bits.TrailingZeros64(blockers)
			if theirs&(1<<from) != 0 && slideMask[b[from]&31]&(1<<oppositeDir[d]) != 0 {
				return true
			}
		}
	}
	for _, d := range [4]uint8{1, 3, 6, 7} {
		if blockers := rayMask[d][sq] & occ; blockers != 0 {
			from := 63 - bits.LeadingZeros64(blockers)
			if theirs&(1<<from) != 0 && slideMask[b[from]&31]&(1<<oppositeDir[d]) != 0 {
				return true
			}
		}
	}
	return false
}
