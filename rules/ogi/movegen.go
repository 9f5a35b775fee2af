package ogi

import "github.com/plateau/plateau/rules"

// Move layout (rules.Move is a uint64):
//
//	bits  0-5   destination square
//	bits  6-11  origin square (0 for a drop)
//	bit  12     drop
//	bit  13     promotes
//	bit  14     King's privilege: the captured promoted piece stays promoted in hand
//	bit  15     a choice existed (promotion possible / King captured a promoted piece)
//	bits 16-21  the moving piece's code (side, kind, state before the move)
//	bits 24-29  the captured piece's code (0 if none)
//
// The identity of a move for the repetition rule is every bit except the
// choice flag and the captured piece.
const (
	mDrop    = 1 << 12
	mPromote = 1 << 13
	mKeep    = 1 << 14
	mChoice  = 1 << 15
	idMask   = 0x3F7FFF
)

func mTo(m rules.Move) int        { return int(m & 63) }
func mFrom(m rules.Move) int      { return int(m>>6) & 63 }
func mPiece(m rules.Move) uint8   { return uint8(m>>16) & 63 }
func mCapture(m rules.Move) uint8 { return uint8(m>>24) & 63 }

func encode(from, to int, piece, capt uint8, flags rules.Move) rules.Move {
	return rules.Move(to) | rules.Move(from)<<6 | rules.Move(piece)<<16 | rules.Move(capt)<<24 | flags
}

// addMoves appends the board move(s) of piece from→to capturing capt: both
// promotion choices where promotion is optional, only the promotion where it
// is compulsory, and the King's two choices on a promoted piece.
func addMoves(dst []rules.Move, from, to int, piece, capt uint8) []rules.Move {
	m := encode(from, to, piece, capt, 0)
	k := kindOf(piece)
	if k == king {
		if capt != 0 && promoted(capt) {
			return append(dst, m|mChoice|mKeep, m|mChoice)
		}
		return append(dst, m)
	}
	s := sideOf(piece)
	if promoted(piece) || !(inZone(s, from) || inZone(s, to)) {
		return append(dst, m)
	}
	if deadEnd(s, k, to) {
		return append(dst, m|mPromote)
	}
	return append(dst, m|mChoice|mPromote, m|mChoice)
}

// Legal appends every legal move: pseudo-legal moves (there is no check
// rule) minus those the repetition rule forbids.
func (p *Position) Legal(dst []rules.Move) []rules.Move {
	if p.kingCaptured() {
		return dst
	}
	start := len(dst)
	dst = p.pseudo(dst)
	return p.filterRepetitions(dst, start)
}

func (p *Position) pseudo(dst []rules.Move) []rules.Move {
	return p.drops(p.boardPseudo(dst))
}

// boardPseudo appends the pseudo-legal moves that are not drops.
func (p *Position) boardPseudo(dst []rules.Move) []rules.Move {
	us := p.side
	for sq := 0; sq < 64; sq++ {
		c := p.board[sq]
		if c == 0 || sideOf(c) != us {
			continue
		}
		dst = p.pieceMoves(dst, sq, c)
	}
	return dst
}

func (p *Position) pieceMoves(dst []rules.Move, sq int, c uint8) []rules.Move {
	us := sideOf(c)
	for _, t := range steps[c&31][sq] {
		tc := p.board[t]
		if tc != 0 && sideOf(tc) == us {
			continue
		}
		dst = addMoves(dst, sq, int(t), c, tc)
	}
	for _, d := range slideDirs[c&31] {
		for _, t := range rays[d][sq] {
			tc := p.board[t]
			if tc != 0 {
				if sideOf(tc) != us {
					dst = addMoves(dst, sq, int(t), c, tc)
				}
				break
			}
			dst = addMoves(dst, sq, int(t), c, 0)
		}
	}
	return dst
}

func (p *Position) drops(dst []rules.Move) []rules.Move {
	us := p.side
	h := &p.hand[us]
	for slot := 1; slot < 16; slot++ {
		if h[slot] == 0 || slot == pawn {
			continue
		}
		c := makeCode(us, slot&7, slot&promBit != 0)
		prom := slot&promBit != 0
		k := slot & 7
		for sq := 0; sq < 64; sq++ {
			if p.board[sq] != 0 || (!prom && deadEnd(us, k, sq)) {
				continue
			}
			dst = append(dst, encode(0, sq, c, 0, mDrop))
		}
	}
	return dst
}

// filterRepetitions removes from dst[start:] the moves that repeat a move
// already played (by the same piece) with the same resulting position. Rather than hashing every
// generated move, it asks each earlier move of the side to move whether
// playing it again here would give the same position as it gave then.
func (p *Position) filterRepetitions(dst []rules.Move, start int) []rules.Move {
	var buf [16]uint32
	forbidden := buf[:0]
	for j := len(p.hist) - 2; j >= p.since; j -= 2 {
		e := p.hist[j]
		if m, ok := p.replayable(e.id); ok && p.key^p.delta(m) == e.key && p.samePiece(m, j) {
			forbidden = append(forbidden, e.id)
		}
	}
	if len(forbidden) == 0 {
		return dst
	}
	out := dst[:start]
	for _, m := range dst[start:] {
		keep := true
		for _, id := range forbidden {
			if uint32(m&idMask) == id {
				keep = false
				break
			}
		}
		if keep {
			out = append(out, m)
		}
	}
	return out
}

// replayable rebuilds a move from its identity if its piece is where it was
// (on the origin square, or in hand for a drop), with what it would capture now.
func (p *Position) replayable(id uint32) (rules.Move, bool) {
	m := rules.Move(id)
	pc := mPiece(m)
	if sideOf(pc) != p.side {
		return 0, false
	}
	if m&mDrop != 0 {
		return m, p.hand[p.side][pc&15] > 0 && p.board[mTo(m)] == 0
	}
	if p.board[mFrom(m)] != pc {
		return 0, false
	}
	tc := p.board[mTo(m)]
	if tc != 0 && sideOf(tc) == p.side {
		return 0, false
	}
	return m | rules.Move(tc)<<24, true
}

// repeats reports whether m breaks the repetition rule.
func (p *Position) repeats(m rules.Move) bool {
	if len(p.hist)-p.since < 2 {
		return false
	}
	// The key after m is computed only when the move was played
	// before: most moves are new, and most of those are not in seen.
	id := uint32(m & idMask)
	if w, bit := seenBit(id); p.seen[w]&bit == 0 {
		return false
	}
	k, known := uint64(0), false
	for j := len(p.hist) - 2; j >= p.since; j -= 2 {
		e := p.hist[j]
		if e.id != id {
			continue
		}
		if !known {
			k, known = p.key^p.delta(m), true
		}
		if e.key == k && p.samePiece(m, j) {
			return true
		}
	}
	return false
}

// seenBit is the word and bit of Position.seen for a move identity.
func seenBit(id uint32) (int, uint64) {
	h := (id * 0x9E3779B1) >> 25
	return int(h >> 6), 1 << (h & 63)
}

// samePiece reports whether m, which has the identity of the history move
// j, is made by the same piece (« la même pièce »); a drop only needs « une
// pièce de même type et de même état », which the identity says. The piece
// on m's origin is followed back through the moves played since j: the
// latest move ending on its square brought it there, from that move's
// origin; a drop there means it entered the board after j (pieces in hand
// of one kind and state are interchangeable: a dropped piece is a new one).
// It is the piece of move j if it stood on j's destination right after j.
// This runs only when a move and a position already match, which is rare,
// so Play keeps no identities.
func (p *Position) samePiece(m rules.Move, j int) bool {
	if m&mDrop != 0 {
		return true
	}
	sq := mFrom(m)
	for i := len(p.hist) - 1; i > j; i-- {
		h := rules.Move(p.hist[i].id)
		if mTo(h) != sq {
			continue
		}
		if h&mDrop != 0 {
			return false
		}
		sq = mFrom(h)
	}
	return sq == mTo(rules.Move(p.hist[j].id))
}

// handSlotAfterCapture is where a captured piece goes: demoted, unless the
// King keeps it promoted.
func handSlotAfterCapture(m rules.Move) int {
	capt := mCapture(m)
	if m&mKeep != 0 {
		return int(capt & 15)
	}
	return int(capt & 7)
}

// delta is the key change m makes.
func (p *Position) delta(m rules.Move) uint64 {
	us := p.side
	to := mTo(m)
	pc := mPiece(m)
	d := zSide
	if m&mDrop != 0 {
		n := p.hand[us][pc&15]
		return d ^ zHand[us][pc&15][n] ^ zHand[us][pc&15][n-1] ^ zPiece[pc&31][to]
	}
	from := mFrom(m)
	np := pc
	if m&mPromote != 0 {
		np |= promBit
	}
	d ^= zPiece[pc&31][from] ^ zPiece[np&31][to]
	if capt := mCapture(m); capt != 0 {
		slot := handSlotAfterCapture(m)
		n := p.hand[us][slot]
		d ^= zPiece[capt&31][to] ^ zHand[us][slot][n] ^ zHand[us][slot][n+1]
	}
	return d
}

// Play makes m, a move from Legal or ParseMove of this position.
func (p *Position) Play(m rules.Move) {
	us := p.side
	to := mTo(m)
	pc := mPiece(m)
	p.key ^= p.delta(m)
	if m&mDrop != 0 {
		p.hand[us][pc&15]--
		p.board[to] = pc
		p.occ[us] |= 1 << to
		p.quiet++
	} else {
		from := mFrom(m)
		np := pc
		if m&mPromote != 0 {
			np |= promBit
		}
		p.board[from] = 0
		p.board[to] = np
		p.occ[us] = p.occ[us]&^(1<<from) | 1<<to
		if pc&7 == king {
			p.kingSq[us] = int8(to)
		}
		if capt := mCapture(m); capt != 0 {
			p.occ[us^1] &^= 1 << to
			if capt&7 == king {
				p.kingSq[us^1] = -1
			}
			p.hand[us][handSlotAfterCapture(m)]++
			p.quiet = 0
		} else if pc&15 == pawn {
			p.quiet = 0
		} else {
			p.quiet++
		}
	}
	p.side ^= 1
	p.ply++
	if len(p.hist) == cap(p.hist) && p.since > 0 {
		// A clone's history is full: copy only the entries the
		// repetition rule can still read, not the whole game.
		live := p.hist[p.since:]
		h := make([]histEntry, len(live), 2*len(live)+16)
		copy(h, live)
		p.hist, p.since = h, 0
	}
	id := uint32(m & idMask)
	p.hist = append(p.hist, histEntry{key: p.key, id: id})
	w, bit := seenBit(id)
	if m&mDrop == 0 && pc&15 == pawn {
		p.since = len(p.hist) - 1
		p.seen = [2]uint64{}
	}
	p.seen[w] |= bit
}

// hasLegal reports whether the side to move has at least one legal move,
// stopping at the first one found.
func (p *Position) hasLegal() bool {
	if p.kingCaptured() {
		return false
	}
	if len(p.hist)-p.since < 2 {
		return p.hasPseudo() // no move can repeat
	}
	// The moves of pieceMoves, one destination at a time: the first
	// move that does not repeat ends the search.
	var buf [2]rules.Move
	us := p.side
	for sq := 0; sq < 64; sq++ {
		c := p.board[sq]
		if c == 0 || sideOf(c) != us {
			continue
		}
		for _, t := range steps[c&31][sq] {
			tc := p.board[t]
			if tc != 0 && sideOf(tc) == us {
				continue
			}
			for _, m := range addMoves(buf[:0], sq, int(t), c, tc) {
				if !p.repeats(m) {
					return true
				}
			}
		}
		for _, d := range slideDirs[c&31] {
			for _, t := range rays[d][sq] {
				tc := p.board[t]
				if tc != 0 && sideOf(tc) == us {
					break
				}
				for _, m := range addMoves(buf[:0], sq, int(t), c, tc) {
					if !p.repeats(m) {
						return true
					}
				}
				if tc != 0 {
					break
				}
			}
		}
	}
	for _, m := range p.drops(nil) {
		if !p.repeats(m) {
			return true
		}
	}
	return false
}

// hasPseudo reports whether the side to move has a pseudo-legal move.
func (p *Position) hasPseudo() bool {
	us := p.side
	for sq := 0; sq < 64; sq++ {
		c := p.board[sq]
		if c == 0 || sideOf(c) != us {
			continue
		}
		for _, t := range steps[c&31][sq] {
			if tc := p.board[t]; tc == 0 || sideOf(tc) != us {
				return true
			}
		}
		for _, d := range slideDirs[c&31] {
			if r := rays[d][sq]; len(r) > 0 {
				if tc := p.board[r[0]]; tc == 0 || sideOf(tc) != us {
					return true
				}
			}
		}
	}
	for slot := 1; slot < 16; slot++ {
		if p.hand[us][slot] == 0 || slot == pawn {
			continue
		}
		for sq := 0; sq < 64; sq++ {
			if p.board[sq] == 0 && (slot&promBit != 0 || !deadEnd(us, slot&7, sq)) {
				return true
			}
		}
	}
	return false
}
