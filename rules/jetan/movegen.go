package jetan

import "github.com/plateau/plateau/rules"

// A move is from | to<<7 | escape<<14 | capture<<15.
const (
	moveEscape  = 1 << 14
	moveCapture = 1 << 15
)

func newMove(from, to int, escape, capture bool) rules.Move {
	m := rules.Move(from | to<<7)
	if escape {
		m |= moveEscape
	}
	if capture {
		m |= moveCapture
	}
	return m
}

func moveFrom(m rules.Move) int { return int(m & 127) }
func moveTo(m rules.Move) int   { return int(m >> 7 & 127) }

// clear reports whether one of the paths has all its intermediate squares
// empty.
func (p *Position) clear(paths [][2]int8) bool {
	for _, pa := range paths {
		if pa[0] >= 0 && p.board[pa[0]] != 0 {
			continue
		}
		if pa[1] >= 0 && p.board[pa[1]] != 0 {
			continue
		}
		return true
	}
	return false
}

// reaches reports whether the piece c standing on from has a path to to
// (whatever stands on to).
func (p *Position) reaches(c uint8, from, to int) bool {
	k := kindOf(c)
	mk := moveClass(k, sideOf(c))
	i := reach[mk][from][to]
	if i == 0 {
		return false
	}
	return jumps(k) || p.clear(geo[mk][from][i-1].paths)
}

// threatened reports whether a piece of side by, other than its Princess,
// could move to sq once the square vacated is empty.
func (p *Position) threatened(sq int, by rules.Side, vacated int) bool {
	saved := p.board[vacated]
	p.board[vacated] = 0
	defer func() { p.board[vacated] = saved }()
	for s, c := range p.board {
		if c == 0 || sideOf(c) != by || kindOf(c) == princess {
			continue
		}
		if p.reaches(c, s, sq) {
			return true
		}
	}
	return false
}

// attacks marks every square a piece of side by, other than its Princess,
// could move to once the square vacated is empty.
func (p *Position) attacks(by rules.Side, vacated int) (att [squares]bool) {
	saved := p.board[vacated]
	p.board[vacated] = 0
	for s, c := range p.board {
		if c == 0 || sideOf(c) != by || kindOf(c) == princess {
			continue
		}
		k := kindOf(c)
		mk := moveClass(k, by)
		for _, d := range geo[mk][s] {
			if !att[d.to] && (jumps(k) || p.clear(d.paths)) {
				att[d.to] = true
			}
		}
	}
	p.board[vacated] = saved
	return att
}

// Legal implements rules.Position. A finished game has no legal move.
func (p *Position) Legal(dst []rules.Move) []rules.Move {
	if p.end != endNone || p.counter >= drawPlies {
		return dst
	}
	side := p.toMove
	for sq, c := range p.board {
		if c == 0 || sideOf(c) != side {
			continue
		}
		k := kindOf(c)
		if k == princess {
			dst = p.princessMoves(dst, sq)
			continue
		}
		j := jumps(k)
		for _, d := range geo[moveClass(k, side)][sq] {
			t := p.board[d.to]
			if t != 0 && sideOf(t) == side {
				continue
			}
			if j || p.clear(d.paths) {
				dst = append(dst, newMove(sq, int(d.to), false, t != 0))
			}
		}
	}
	return dst
}

func (p *Position) princessMoves(dst []rules.Move, from int) []rules.Move {
	att := p.attacks(p.toMove.Other(), from)
	for _, d := range geo[princess][from] {
		if p.board[d.to] == 0 && !att[d.to] {
			dst = append(dst, newMove(from, int(d.to), false, false))
		}
	}
	if p.escape[p.toMove] {
		for _, to := range escapes[from] {
			if p.board[to] == 0 && !att[to] {
				dst = append(dst, newMove(from, int(to), true, false))
			}
		}
	}
	return dst
}

// Play implements rules.Position.
func (p *Position) Play(m rules.Move) {
	from, to := moveFrom(m), moveTo(m)
	side := p.toMove
	c := p.board[from]
	t := p.board[to]
	k := kindOf(c)
	key := p.key ^ zPiece[side][k][from] ^ zPiece[side][k][to] ^ zOrange ^ zCounter[p.counter]
	p.board[from] = 0
	p.board[to] = c
	if t != 0 {
		other := side.Other()
		tk := kindOf(t)
		key ^= zPiece[other][tk][to]
		p.pieces[other]--
		p.value[other] -= int16(marks[tk])
		switch {
		case tk == princess:
			p.end = endPrincess
		case tk == chief && k == chief:
			p.end = endChiefByChief
		case tk == chief:
			p.end = endChiefTaken
		}
		key ^= zEnd[p.end]
		p.counter = 0
	} else if p.equalForces() {
		p.counter++
	} else {
		p.counter = 0
	}
	if m&moveEscape != 0 && p.escape[side] {
		p.escape[side] = false
		key ^= zEscape[side]
	}
	p.toMove = side.Other()
	p.key = key ^ zCounter[p.counter]
}

// Describe implements rules.Position.
func (p *Position) Describe(m rules.Move) rules.MoveInfo {
	info := rules.MoveInfo{From: SquareName(moveFrom(m)), To: SquareName(moveTo(m))}
	if m&moveCapture != 0 {
		info.Captures = 1
	}
	return info
}
