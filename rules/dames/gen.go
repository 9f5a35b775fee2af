package dames

import (
	"math/bits"

	"github.com/plateau/plateau/rules"
)

// This file holds the move generator only.

// nextDir removes the lowest direction of a set that is not empty and
// returns it.
func nextDir(ds *dirSet) int {
	d := bits.TrailingZeros8(uint8(*ds))
	*ds &= *ds - 1
	return d
}

// moveDirs are the directions the piece c steps in.
func (f *family) moveDirs(c int8) dirSet {
	if isKing(c) {
		return f.kingMove
	}
	return f.manMove[sideOf(c)]
}

// capDirs are the directions the piece c captures in, as a king or not.
func (f *family) capDirs(side int, king bool) dirSet {
	if king {
		return f.kingCap
	}
	return f.manCap[side]
}

// canStep reports whether the piece on s has a non-capturing move.
func (p *Position) canStep(s int) bool {
	c := p.cell[s]
	if isKing(c) && p.runOut(s) {
		return false
	}
	for ds := p.g.f.moveDirs(c); ds != 0; {
		if t := p.geo.steps[s][nextDir(&ds)]; t >= 0 && p.cell[t] == empty {
			return true
		}
	}
	return false
}

// canCapture reports whether the piece on s can take something.
func (p *Position) canCapture(s int) bool {
	c := p.cell[s]
	side := sideOf(c)
	g := p.geo
	f := &p.g.f
	king := isKing(c)
	long := king && f.flying
	for ds := f.capDirs(side, king); ds != 0; {
		d := nextDir(&ds)
		n := int(g.rayN[s][d])
		ray := &g.ray[s][d]
		i := 0
		if long {
			for i < n && p.cell[ray[i]] == empty {
				i++
			}
		}
		if i+1 >= n {
			continue
		}
		t := p.cell[ray[i]]
		if t != empty && sideOf(t) != side && p.cell[ray[i+1]] == empty && (king || !f.manNoKing || !isKing(t)) {
			return true
		}
	}
	return false
}

// anyCapture reports whether the side to move can take something.
func (p *Position) anyCapture() bool {
	for own := p.occ[p.turn]; !own.empty(); {
		if p.canCapture(own.pop()) {
			return true
		}
	}
	return false
}

// hasMove reports whether the side to move has a legal move.
func (p *Position) hasMove() bool {
	for own := p.occ[p.turn]; !own.empty(); {
		s := own.pop()
		if p.canStep(s) || p.canCapture(s) {
			return true
		}
	}
	return false
}

// Legal appends the legal moves: the complete capture sequences when a
// capture is possible (those the ruleset's precedence allows), otherwise the
// steps. Faults and huffs are never listed.
func (p *Position) Legal(dst []rules.Move) []rules.Move {
	start := len(dst)
	dst = p.captures(dst, true)
	if len(dst) > start {
		return dst
	}
	return p.steps(dst)
}

func (p *Position) steps(dst []rules.Move) []rules.Move {
	g := p.geo
	f := &p.g.f
	for own := p.occ[p.turn]; !own.empty(); {
		s := own.pop()
		c := p.cell[s]
		n := 1
		if isKing(c) {
			if f.flying {
				n = maxRay
			}
			if p.runOut(s) {
				continue
			}
		}
		for ds := f.moveDirs(c); ds != 0; {
			d := nextDir(&ds)
			ray := &g.ray[s][d]
			for i := 0; i < n && i < int(g.rayN[s][d]); i++ {
				t := int(ray[i])
				if p.cell[t] != empty {
					break
				}
				dst = append(dst, p.mkMove(s, t, sqset{}))
			}
		}
	}
	return dst
}

// capGen walks capture sequences of one piece. The piece is lifted from its
// origin; captured pieces stay on the board (they block and cannot be jumped
// twice) until the sequence ends, or leave it at once where the ruleset
// says so (removeNow: their squares may then be crossed again).
type capGen struct {
	p      *Position
	f      *family
	side   int
	from   int
	king   bool // the moving piece is a king at the start
	ranked bool // apply the ruleset's precedence
	start  int
	best   uint64
	dst    []rules.Move
	// order has bit 31-i set when the i-th piece taken is a king (Italian
	// precedence: kings taken earlier rank higher).
	order uint64
	kings int // kings taken so far
	depth int
	// paths mode: every complete sequence with its landing squares.
	paths   bool
	path    []int8
	records []capPath
	// prefixes mode: also record every intermediate landing.
	prefixes bool
	// anyLanding lets a flying king land on any square beyond a piece, even
	// where the capture stops although another landing would go on (to
	// name the rule a move broke).
	anyLanding bool
}

type capPath struct {
	move rules.Move
	path []int8 // landing squares, origin first
}

// walk goes on from cur, having taken caps; king is whether the piece moves
// as a king now, crowned whether it was crowned during this capture, last
// the direction of the last capture (-1 before the first).
func (cg *capGen) walk(cur int, caps sqset, king, crowned bool, last int) {
	p := cg.p
	g := p.geo
	f := cg.f
	long := king && f.flying
	found := false
	for ds := f.capDirs(cg.side, king); ds != 0; {
		d := nextDir(&ds)
		if f.noReverse && last >= 0 && d == opposite[last] {
			continue
		}
		n := int(g.rayN[cur][d])
		ray := &g.ray[cur][d]
		i := 0
		if long {
			for i < n && p.cell[ray[i]] == empty {
				i++
			}
		}
		if i+1 >= n {
			continue
		}
		t := int(ray[i])
		c := p.cell[t]
		if c == empty || sideOf(c) == cg.side || caps.has(t) {
			continue
		}
		if !king && f.manNoKing && isKing(c) {
			continue
		}
		if f.removeNow {
			p.cell[t] = empty
		}
		// A flying king that can land on several squares beyond the piece
		// must take one from which the capture goes on, when there is one
		// (where the precedence counts pieces, that follows from it).
		goOn := long && !f.landNext && !cg.anyLanding && f.prec.free() && cg.continues(ray[i+1:n], caps.with(t), d)
		for j := i + 1; j < n; j++ {
			l := int(ray[j])
			if p.cell[l] != empty {
				break
			}
			if goOn && !cg.kingCanTake(l, caps.with(t), d) {
				continue
			}
			found = true
			cg.jump(l, caps.with(t), king, crowned, d, isKing(c))
			if !long || f.landNext {
				break
			}
		}
		p.cell[t] = c
	}
	if !found && !caps.empty() && !cg.prefixes {
		cg.record(cur, caps, crowned)
	}
}

// jump lands on l having taken caps (the last piece taken in direction d,
// a king or not) and goes on from there.
func (cg *capGen) jump(l int, caps sqset, king, crowned bool, d int, tookKing bool) {
	if cg.paths {
		cg.path = append(cg.path, int8(l))
		if cg.prefixes {
			cg.record(l, caps, crowned)
		}
	}
	saved := cg.order
	if tookKing {
		cg.kings++
		if cg.depth < 32 {
			cg.order |= 1 << uint(31-cg.depth)
		}
	}
	cg.depth++
	if !king && cg.f.crownMid && cg.p.geo.farRow(l, cg.side) {
		cg.walk(l, caps, true, true, d)
	} else {
		cg.walk(l, caps, king, crowned, d)
	}
	cg.depth--
	cg.order = saved
	if tookKing {
		cg.kings--
	}
	if cg.paths {
		cg.path = cg.path[:len(cg.path)-1]
	}
}

// continues reports whether a flying king landing on one of the empty
// squares at the head of landings, having taken caps in direction d, could
// take again.
func (cg *capGen) continues(landings []int8, caps sqset, d int) bool {
	for _, l := range landings {
		if cg.p.cell[l] != empty {
			return false
		}
		if cg.kingCanTake(int(l), caps, d) {
			return true
		}
	}
	return false
}

// kingCanTake reports whether the moving piece, a flying king standing on
// cur after a capture in direction last, could take a piece not in caps;
// pieces in caps still block (unless the ruleset removes them at once).
func (cg *capGen) kingCanTake(cur int, caps sqset, last int) bool {
	p := cg.p
	g := p.geo
	for ds := cg.f.kingCap; ds != 0; {
		d := nextDir(&ds)
		if cg.f.noReverse && d == opposite[last] {
			continue
		}
		n := int(g.rayN[cur][d])
		ray := &g.ray[cur][d]
		i := 0
		for i < n && p.cell[ray[i]] == empty {
			i++
		}
		if i+1 >= n {
			continue
		}
		t := int(ray[i])
		if c := p.cell[t]; c != empty && sideOf(c) != cg.side && !caps.has(t) && p.cell[ray[i+1]] == empty {
			return true
		}
	}
	return false
}

// score ranks a complete sequence under the ruleset's precedence; only the
// sequences with the highest score are legal.
func (cg *capGen) score(caps sqset) uint64 {
	n := uint64(caps.count())
	k := uint64(cg.kings)
	switch cg.f.prec {
	case precMajority:
		return n
	case precKing:
		if cg.king {
			return 1
		}
	case precQuality:
		return n<<8 | k
	case precValue:
		// men + 2·kings first; at equal sums the fewer kings (a king is
		// worth a little less than two men), then a capture by a king.
		s := (n+k)<<16 | (0xff-k)<<8
		if cg.king {
			s |= 1
		}
		return s
	case precItalian:
		s := n << 40
		if cg.king {
			s |= 1 << 39
		}
		s |= k << 32
		return s | cg.order
	}
	return 0
}

func (cg *capGen) record(to int, caps sqset, crowned bool) {
	m := cg.p.mkMove(cg.from, to, caps)
	if crowned {
		m |= rules.Move(crownBit)
	}
	if cg.paths {
		cg.records = append(cg.records, capPath{m, append([]int8(nil), cg.path...)})
		return
	}
	if cg.ranked {
		k := cg.score(caps)
		if k < cg.best {
			return
		}
		if k > cg.best {
			cg.best = k
			cg.dst = cg.dst[:cg.start]
		}
	}
	for _, x := range cg.dst[cg.start:] {
		if x == m {
			return
		}
	}
	cg.dst = append(cg.dst, m)
}

// captures appends the complete capture sequences of the side to move, one
// per (origin, destination, captured set, crowned during the capture); with
// ranked only those the ruleset's precedence allows.
func (p *Position) captures(dst []rules.Move, ranked bool) []rules.Move {
	cg := capGen{p: p, f: &p.g.f, side: int(p.turn), ranked: ranked && p.g.f.prec != precFree, start: len(dst), dst: dst}
	for own := p.occ[p.turn]; !own.empty(); {
		s := own.pop()
		c := p.cell[s]
		if !p.canCapture(s) {
			continue
		}
		cg.from, cg.king = s, isKing(c)
		p.cell[s] = empty
		cg.walk(s, sqset{}, cg.king, false, -1)
		p.cell[s] = c
	}
	return cg.dst
}

// capturePaths lists every complete capture sequence of the piece on from
// with its landing squares (several paths may give the same move). With
// prefixes, it lists every partial sequence instead; with anyLanding, also
// those where a flying king lands where its capture stops although another
// landing would go on.
func (p *Position) capturePaths(from int, prefixes, anyLanding bool) []capPath {
	c := p.cell[from]
	if c == empty || sideOf(c) != int(p.turn) {
		return nil
	}
	cg := capGen{p: p, f: &p.g.f, side: int(p.turn), from: from, king: isKing(c), paths: true, prefixes: prefixes, anyLanding: anyLanding}
	cg.path = append(cg.path, int8(from))
	p.cell[from] = empty
	cg.walk(from, sqset{}, cg.king, false, -1)
	p.cell[from] = c
	return cg.records
}
