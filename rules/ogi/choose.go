package ogi

import (
	"math/bits"

	"github.com/plateau/plateau/rules"
)

// Tables for Choose.
var (
	// nearMask[sq] are the squares within two King steps of sq: every
	// square from which a step or a jump can reach sq.
	nearMask [64]uint64
	// kingDist[a][b] is the number of King steps from a to b.
	kingDist [64][64]int8
	// lines[sq] has a bit for every square on a line (rank, file or
	// diagonal) through sq: a piece that leaves one of them may open a
	// slider's way to sq.
	lines [64]uint64
	// oppositeDir[d] is the direction opposite to d in dirDelta.
	oppositeDir = [8]uint8{1, 0, 3, 2, 7, 6, 5, 4}
)

func init() {
	for a := 0; a < 64; a++ {
		for b := 0; b < 64; b++ {
			df, dr := a&7-b&7, a>>3-b>>3
			d := int8(max(df, -df, dr, -dr))
			kingDist[a][b] = d
			if d > 0 && d <= 2 {
				nearMask[a] |= 1 << b
			}
			if d > 0 && (df == 0 || dr == 0 || df == dr || df == -dr) {
				lines[a] |= 1 << b
			}
		}
	}
}

// chooseDrops is how many drops Choose weighs (sampleDrops).
const chooseDrops = 8

// Choose picks a move by pol (rules.Chooser): it weighs every board move
// and a sample of drops (sampleDrops), each with its own random noise,
// captures (taking the King wins and is always chosen), promotions, drops,
// and for the other pieces the King steps gained towards the enemy King;
// moving the King costs pol.Royal. With pol.Safety it plays the best move
// after which the enemy cannot take the King; when the best one fails, King
// moves become the first idea, then every move weighed is tried in order.
// The repetition rule is checked on the moves tried only, so that
// the cost of a choice does not grow with the history.
func (p *Position) Choose(pol *rules.Policy, seed uint64, skip rules.Move) (rules.Move, bool, bool) {
	if p.kingCaptured() {
		return 0, false, false
	}
	var mbuf [256]rules.Move
	var sbuf [256]int32
	us := p.side
	own, other, ourKing, enemyKing := p.occupancy(us)
	moves := p.boardMoves(mbuf[:0], own, other)
	moves = p.sampleDrops(moves, chooseDrops, seed^0x5bd1e995)
	scores := sbuf[:0]
	if cap(scores) < len(moves) {
		scores = make([]int32, 0, len(moves))
	}
	wide := uint64(max(pol.Noise, 0))
	best, bestS := -1, int32(skipScore)
	for k, m := range moves {
		seed += 0xa0761d6478bd642f
		hi, lo := bits.Mul64(seed, seed^0xe7037ed1a0b428db)
		s := int(((hi ^ lo) >> 32) * wide >> 32)
		to := mTo(m)
		if capt := mCapture(m); capt != 0 {
			if kindOf(capt) == king {
				s += 1 << 20
			} else {
				s += pol.Capture
			}
		}
		if m&mPromote != 0 {
			s += pol.Promote
		}
		drop := m&mDrop != 0
		switch {
		case !drop && mFrom(m) == ourKing:
			s -= pol.Royal
		case enemyKing >= 0:
			before := 4
			if !drop {
				before = int(kingDist[mFrom(m)][enemyKing])
			}
			s += pol.Progress * (before - int(kingDist[to][enemyKing]))
		}
		if drop {
			s += pol.Drop
		}
		s32 := int32(max(s, skipScore+1))
		if m == skip {
			s32 = skipScore
		}
		if s32 > bestS {
			best, bestS = k, s32
		}
		scores = append(scores, s32)
	}
	first := rules.Move(0)
	found := false
	// Only a King move, a piece leaving a line through the King, or a King
	// already attacked can leave the King capturable.
	kingAttacked := pol.Safety && ourKing >= 0 && attackedBy(&p.board, ourKing, other, own|other)
	for tries, i := 0, best; i >= 0; i = bestScore(scores) {
		m := moves[i]
		scores[i] = skipScore
		if p.repeats(m) {
			continue // illegal: not a try
		}
		if !found {
			first, found = m, true
		}
		if !pol.Safety || ourKing < 0 || (mCapture(m) != 0 && kindOf(mCapture(m)) == king) || p.kingSafeAfter(m, ourKing, kingAttacked, own, other) {
			return m, false, true
		}
		if tries++; tries == 1 {
			// The King is in danger: moving it is the first idea.
			for k, x := range moves {
				if x&mDrop == 0 && mFrom(x) == ourKing && scores[k] != skipScore {
					scores[k] += 1 << 20
				}
			}
		}
	}
	if found {
		return first, pol.Safety, true
	}
	// Every move weighed repeats: look at all the legal moves.
	for _, m := range p.Legal(mbuf[:0]) {
		if m != skip {
			return m, false, true
		}
	}
	return 0, false, false
}

// skipScore marks a move Choose must not take (again).
const skipScore = -1 << 30

func bestScore(scores []int32) int {
	b, bs := -1, int32(skipScore)
	for i, s := range scores {
		if s > bs {
			b, bs = i, s
		}
	}
	return b
}

// kingSafeAfter reports whether, after m, the enemy cannot take the King of
// the side to move, which stands on king (attackedNow: before m; own and
// other: the squares of each side before m).
func (p *Position) kingSafeAfter(m rules.Move, king int, attackedNow bool, own, other uint64) bool {
	to := mTo(m)
	if m&mDrop != 0 {
		if !attackedNow {
			return true
		}
		own |= 1 << to
	} else {
		from := mFrom(m)
		if !attackedNow && from != king && lines[king]&(1<<from) == 0 {
			return true
		}
		own = own&^(1<<from) | 1<<to
		other &^= 1 << to
		if from == king {
			king = to
		}
	}
	// The enemy pieces left are where they were, so their codes are still
	// those of the board.
	return !attackedBy(&p.board, king, other, own|other)
}
