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
	// noDist stands for kingDist[enemy King] when there is none.
	noDist [64]int8
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
//
// Most choices are settled by the best move weighed, so Choose generates and
// weighs the moves in one pass keeping only the best, and the King's moves
// when it is attacked (then the King's escapes come next, in the same
// order chooseAll would try them). When these do not settle the choice,
// chooseAll weighs the same moves with the same noise again, keeping them
// all.
func (p *Position) Choose(pol *rules.Policy, seed uint64, skip rules.Move) (rules.Move, bool, bool) {
	if p.kingCaptured() {
		return 0, false, false
	}
	own, other, ourKing, enemyKing := p.occupancy(p.side)
	// Only a King move, a piece leaving a line through the King, or a King
	// already attacked can leave the King capturable.
	safety := pol.Safety && ourKing >= 0
	kingAttacked := safety && attackedBy(&p.board, ourKing, other, own|other)
	var escapes *kingMoves // the King's moves, when kingAttacked
	if kingAttacked {
		escapes = new(kingMoves)
	}
	sc := scorer{pol: pol, wide: uint64(max(pol.Noise, 0)), seed: seed, ourKing: ourKing, enemyKing: enemyKing}
	// dist[sq]: King steps from sq to the enemy King (all 0 without one).
	dist := &noDist
	if enemyKing >= 0 {
		dist = &kingDist[enemyKing]
	}
	best, bestS := p.bestBoardMove(&sc, dist, own, other, skip, escapes)
	best, bestS = p.bestDrop(&sc, dist, seed, skip, best, bestS)
	if bestS == skipScore || p.repeats(best) {
		return p.chooseAll(pol, seed, skip, kingAttacked)
	}
	if !safety || takesKing(best) || p.kingSafeAfter(best, ourKing, kingAttacked, own, other) {
		return best, false, true
	}
	if kingAttacked {
		// As chooseAll: the King's moves, raised by 1<<20, come next, in
		// order while they score above every other move.
		for _, e := range escapes.m[:escapes.n] {
			if e.m == best {
				continue
			}
			if e.s+1<<20 <= bestS {
				break
			}
			if !p.repeats(e.m) && p.kingSafeAfter(e.m, ourKing, true, own, other) {
				return e.m, false, true
			}
		}
	}
	return p.chooseAll(pol, seed, skip, kingAttacked)
}

// bestBoardMove weighs every board move of the side to move (own its
// pieces, other the enemy's) with sc, in chooseAll's order, and returns the
// best one other than skip with its score (skipScore when there is none).
// With escapes, it also keeps the King's moves there.
func (p *Position) bestBoardMove(sc *scorer, dist *[64]int8, own, other uint64, skip rules.Move, escapes *kingMoves) (best rules.Move, bestS int32) {
	bestS = skipScore
	occ := own | other
	pol := sc.pol
	for rest := own; rest != 0; rest &= rest - 1 {
		sq := bits.TrailingZeros64(rest)
		c := p.board[sq]
		t := p.targets(sq, c, occ) &^ own
		if plainMover(c, sq, t, p.side) {
			// score, unrolled: no King, promotion or drop here.
			base := encode(sq, 0, c, 0, 0)
			from := int(dist[sq]) * pol.Progress
			for ; t != 0; t &= t - 1 {
				to := bits.TrailingZeros64(t)
				capt := p.board[to]
				m := base | rules.Move(to) | rules.Move(capt)<<24
				s := sc.noise() + from - pol.Progress*int(dist[to])
				if capt != 0 {
					if kindOf(capt) == king {
						s += 1 << 20
					} else {
						s += pol.Capture
					}
				}
				if s32 := int32(max(s, skipScore+1)); s32 > bestS && m != skip {
					best, bestS = m, s32
				}
			}
			continue
		}
		for ; t != 0; t &= t - 1 {
			to := bits.TrailingZeros64(t)
			var two [2]rules.Move
			for _, m := range addMoves(two[:0], sq, to, c, p.board[to]) {
				s := sc.score(m)
				if s > bestS && m != skip {
					best, bestS = m, s
				}
				if escapes != nil && sq == sc.ourKing && m != skip {
					escapes.add(m, s)
				}
			}
		}
	}
	return best, bestS
}

// bestDrop weighs a sample of drops (sampleDrops of seed) with sc, after
// the board moves, and returns the better of the best one and best, bestS.
func (p *Position) bestDrop(sc *scorer, dist *[64]int8, seed uint64, skip, best rules.Move, bestS int32) (rules.Move, int32) {
	pol := sc.pol
	var dbuf [2 * chooseDrops]rules.Move
	// score, unrolled for drops.
	dropBase := pol.Drop
	if sc.enemyKing >= 0 {
		dropBase += 4 * pol.Progress
	}
	for _, m := range p.sampleDrops(dbuf[:0], chooseDrops, seed^0x5bd1e995) {
		s := sc.noise() + dropBase - pol.Progress*int(dist[mTo(m)])
		if s32 := int32(max(s, skipScore+1)); s32 > bestS && m != skip {
			best, bestS = m, s32
		}
	}
	return best, bestS
}

// kingMoves are the King's moves with their scores, best first and in the
// order they came among equals (as chooseAll's bestScore takes them).
type kingMoves struct {
	n int
	m [16]struct {
		m rules.Move
		s int32
	}
}

func (k *kingMoves) add(m rules.Move, s int32) {
	if k.n == len(k.m) {
		return // never: eight squares, two moves at most on each
	}
	i := k.n
	for ; i > 0 && k.m[i-1].s < s; i-- {
		k.m[i] = k.m[i-1]
	}
	k.m[i].m, k.m[i].s = m, s
	k.n++
}

// plainMover reports whether piece c on sq, going to the targets t, has one
// move per target: no promotion choice and no King's privilege (else
// addMoves makes its moves).
func plainMover(c uint8, sq int, t uint64, us int) bool {
	return c&7 != king && (promoted(c) || (zoneMask[us]&(1<<sq) == 0 && zoneMask[us]&t == 0))
}

// takesKing reports whether m captures a King.
func takesKing(m rules.Move) bool {
	c := mCapture(m)
	return c != 0 && kindOf(c) == king
}

// scorer weighs moves for Choose and chooseAll: the k-th move weighed gets
// the k-th noise of the seed, so that both weigh every move alike.
type scorer struct {
	pol                *rules.Policy
	wide               uint64
	seed               uint64
	ourKing, enemyKing int
}

// noise is the next random number in [0, pol.Noise).
func (sc *scorer) noise() int {
	sc.seed += 0xa0761d6478bd642f
	hi, lo := bits.Mul64(sc.seed, sc.seed^0xe7037ed1a0b428db)
	return int(((hi ^ lo) >> 32) * sc.wide >> 32)
}

// score is the weight of m, the next move (Choose unrolls it for the
// pieces without choices).
func (sc *scorer) score(m rules.Move) int32 {
	s := sc.noise()
	pol := sc.pol
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
	if m&mDrop != 0 {
		s += pol.Drop
		if sc.enemyKing >= 0 {
			s += pol.Progress * (4 - int(kingDist[mTo(m)][sc.enemyKing]))
		}
	} else if from := mFrom(m); from == sc.ourKing {
		s -= pol.Royal
	} else if sc.enemyKing >= 0 {
		s += pol.Progress * (int(kingDist[from][sc.enemyKing]) - int(kingDist[mTo(m)][sc.enemyKing]))
	}
	return int32(max(s, skipScore+1))
}

// chooseAll is Choose keeping every move weighed, for the choices the best
// few moves do not settle (kingAttacked: pol.Safety holds and the King of
// the side to move is attacked).
func (p *Position) chooseAll(pol *rules.Policy, seed uint64, skip rules.Move, kingAttacked bool) (rules.Move, bool, bool) {
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
	sc := scorer{pol: pol, wide: uint64(max(pol.Noise, 0)), seed: seed, ourKing: ourKing, enemyKing: enemyKing}
	best, bestS := -1, int32(skipScore)
	for k, m := range moves {
		s := sc.score(m)
		if m == skip {
			s = skipScore
		}
		if s > bestS {
			best, bestS = k, s
		}
		scores = append(scores, s)
	}
	first := rules.Move(0)
	found := false
	for tries, i := 0, best; i >= 0; i = bestScore(scores) {
		m := moves[i]
		scores[i] = skipScore
		if p.repeats(m) {
			continue // illegal: not a try
		}
		if !found {
			first, found = m, true
		}
		if !pol.Safety || ourKing < 0 || takesKing(m) || p.kingSafeAfter(m, ourKing, kingAttacked, own, other) {
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
