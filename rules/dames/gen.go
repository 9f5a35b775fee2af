package dames

import (
	"math/bits"

	"github.com/plateau/plateau/rules"
)

// This file holds the move generator only.

// forward reports whether direction d is forward for side.
func forward(side, d int) bool {
	if side == white {
		return d == upLeft || d == upRight
	}
	return d == downLeft || d == downRight
}

// canStep reports whether the piece on s has a non-capturing move.
func (p *Position) canStep(s int) bool {
	c := p.cell[s]
	side := sideOf(c)
	wolf := p.g.v == vLoup && side == black
	for d := 0; d < 4; d++ {
		if !isKing(c) && !wolf && !forward(side, d) {
			continue
		}
		if t := p.geo.steps[s][d]; t >= 0 && p.cell[t] == empty {
			return true
		}
	}
	return false
}

// canCapture reports whether the piece on s can take something.
func (p *Position) canCapture(s int) bool {
	if p.g.v == vLoup {
		return false
	}
	c := p.cell[s]
	side := sideOf(c)
	g := p.geo
	f := &p.g.f
	if !isKing(c) || !f.flying {
		enemy := p.occ[1-side]
		if !isKing(c) && f.manNoKing {
			enemy = 0
			for e := p.occ[1-side]; e != 0; e &= e - 1 {
				if t := bits.TrailingZeros64(e); !isKing(p.cell[t]) {
					enemy |= bit(t)
				}
			}
		}
		free := ^(p.occ[0] | p.occ[1])
		for d := 0; d < 4; d++ {
			if !isKing(c) && !f.manBack && !forward(side, d) {
				continue
			}
			if g.rayN[s][d] >= 2 && enemy&bit(int(g.ray[s][d][0])) != 0 && free&bit(int(g.ray[s][d][1])) != 0 {
				return true
			}
		}
		return false
	}
	for d := 0; d < 4; d++ {
		n := int(g.rayN[s][d])
		ray := &g.ray[s][d]
		i := 0
		for i < n && p.cell[ray[i]] == empty {
			i++
		}
		if i+1 < n {
			if t := p.cell[ray[i]]; t != empty && sideOf(t) != side && p.cell[ray[i+1]] == empty {
				return true
			}
		}
	}
	return false
}

// anyCapture reports whether the side to move can take something.
func (p *Position) anyCapture() bool {
	for own := p.occ[p.turn]; own != 0; own &= own - 1 {
		if p.canCapture(bits.TrailingZeros64(own)) {
			return true
		}
	}
	return false
}

// hasMove reports whether the side to move has a legal move.
func (p *Position) hasMove() bool {
	for own := p.occ[p.turn]; own != 0; own &= own - 1 {
		s := bits.TrailingZeros64(own)
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
	if p.g.v != vLoup {
		dst = p.captures(dst, true)
		if len(dst) > start {
			return dst
		}
	}
	return p.steps(dst)
}

func (p *Position) steps(dst []rules.Move) []rules.Move {
	side := int(p.turn)
	g := p.geo
	wolfOrSheep := p.g.v == vLoup
	for own := p.occ[p.turn]; own != 0; own &= own - 1 {
		s := bits.TrailingZeros64(own)
		c := p.cell[s]
		for d := 0; d < 4; d++ {
			if isKing(c) {
				n := int(g.rayN[s][d])
				if !p.g.f.flying && n > 1 {
					n = 1
				}
				for i := 0; i < n; i++ {
					t := int(g.ray[s][d][i])
					if p.cell[t] != empty {
						break
					}
					dst = append(dst, mkMove(s, t, 0))
				}
				continue
			}
			if !forward(side, d) && !(wolfOrSheep && side == black) {
				continue
			}
			if t := g.steps[s][d]; t >= 0 && p.cell[t] == empty {
				dst = append(dst, mkMove(s, int(t), 0))
			}
		}
	}
	return dst
}

// capGen walks capture sequences of one piece. The piece is lifted from its
// origin; captured pieces stay on the board (they block and cannot be jumped
// twice) until the sequence ends.
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
	depth int
	// paths mode: every complete sequence with its landing squares.
	paths   bool
	path    []int8
	records []capPath
	// prefixes mode: also record every intermediate landing.
	prefixes bool
}

type capPath struct {
	move rules.Move
	path []int8 // landing squares, origin first
}

// walk goes on from cur, having taken caps; king is whether the piece moves
// as a king now, crowned whether it was crowned during this capture.
func (cg *capGen) walk(cur int, caps uint64, king, crowned bool) {
	p := cg.p
	g := p.geo
	f := cg.f
	long := king && f.flying
	found := false
	for d := 0; d < 4; d++ {
		if !king && !f.manBack && !forward(cg.side, d) {
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
		if c == empty || sideOf(c) == cg.side || caps&bit(t) != 0 {
			continue
		}
		if !king && f.manNoKing && isKing(c) {
			continue
		}
		for j := i + 1; j < n; j++ {
			l := int(ray[j])
			if p.cell[l] != empty {
				break
			}
			found = true
			if cg.paths {
				cg.path = append(cg.path, int8(l))
				if cg.prefixes {
					cg.record(l, caps|bit(t), crowned)
				}
			}
			saved := cg.order
			if isKing(c) {
				cg.order |= 1 << uint(31-cg.depth)
			}
			cg.depth++
			if !king && f.crownMid && g.farRow(l, cg.side) {
				cg.walk(l, caps|bit(t), true, true)
			} else {
				cg.walk(l, caps|bit(t), king, crowned)
			}
			cg.depth--
			cg.order = saved
			if cg.paths {
				cg.path = cg.path[:len(cg.path)-1]
			}
			if !long {
				break
			}
		}
	}
	if !found && caps != 0 && !cg.prefixes {
		cg.record(cur, caps, crowned)
	}
}

// score ranks a complete sequence under the ruleset's precedence; only the
// sequences with the highest score are legal.
func (cg *capGen) score(caps uint64) uint64 {
	switch cg.f.prec {
	case precMajority:
		return uint64(popcount(caps))
	case precKing:
		if cg.king {
			return 1
		}
	case precItalian:
		s := uint64(popcount(caps)) << 40
		if cg.king {
			s |= 1 << 39
		}
		s |= uint64(bits.OnesCount64(cg.order)) << 32
		return s | cg.order
	}
	return 0
}

func (cg *capGen) record(to int, caps uint64, crowned bool) {
	m := mkMove(cg.from, to, caps)
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
	for own := p.occ[p.turn]; own != 0; own &= own - 1 {
		s := bits.TrailingZeros64(own)
		c := p.cell[s]
		if !p.canCapture(s) {
			continue
		}
		cg.from, cg.king = s, isKing(c)
		p.cell[s] = empty
		cg.walk(s, 0, cg.king, false)
		p.cell[s] = c
	}
	return cg.dst
}

// capturePaths lists every complete capture sequence of the piece on from
// with its landing squares (several paths may give the same move). With
// prefixes, it lists every partial sequence instead.
func (p *Position) capturePaths(from int, prefixes bool) []capPath {
	c := p.cell[from]
	if c == empty || sideOf(c) != int(p.turn) || p.g.v == vLoup {
		return nil
	}
	cg := capGen{p: p, f: &p.g.f, side: int(p.turn), from: from, king: isKing(c), paths: true, prefixes: prefixes}
	cg.path = append(cg.path, int8(from))
	p.cell[from] = empty
	cg.walk(from, 0, cg.king, false)
	p.cell[from] = c
	return cg.records
}
