package dames

import (
	"strconv"
	"strings"

	"github.com/plateau/plateau/rules"
)

// The Frisian limit on king moves (family.kingRun): "a player may not move
// (as opposed to capture) more than three times in succession with the same
// king … This restriction does not apply for a player who has only kings"
// (Frisian rules as mindsports.nl and lidraughts state them). The position
// keeps, for each side, the square of the king that made the last
// non-capturing moves of that side and how many it made in a row; a capture,
// a man's move or a move of another king starts again. A side without men
// keeps no count, nor a side whose counted king was taken. The count is part of the position: its key and its FEN
// (Plateau's section ":RW28/2,B3/1", written only when a count is not 0).

// kingRun is the run of non-capturing moves of one king of a side.
type kingRun struct {
	sq int8 // the king's square
	n  int8 // moves in a row; 0 for none
}

// Keys of the runs, after every other key (position.go).
var zRun [2][maxSq][4]uint64

func init() {
	x := uint64(0x2545F4914F6CDD1D)
	for side := range zRun {
		for s := range zRun[side] {
			for n := range zRun[side][s] {
				x ^= x << 13
				x ^= x >> 7
				x ^= x << 17
				zRun[side][s][n] = x
			}
		}
	}
}

func (r kingRun) key(side int) uint64 {
	if r.n == 0 {
		return 0
	}
	return zRun[side][r.sq][min(r.n, 3)]
}

// setRun changes the run of side, keeping the key.
func (p *Position) setRun(side int, r kingRun) {
	p.key ^= p.run[side].key(side) ^ r.key(side)
	p.run[side] = r
}

// hasMen reports whether side has a man on the board.
func (p *Position) hasMen(side int) bool {
	for own := p.occ[side]; !own.empty(); {
		if !isKing(p.cell[own.pop()]) {
			return true
		}
	}
	return false
}

// runOut reports whether the king on s has made all the non-capturing moves
// in a row the ruleset allows it.
func (p *Position) runOut(s int) bool {
	r := p.run[p.turn]
	return p.g.f.kingRun > 0 && r.n >= p.g.f.kingRun && int(r.sq) == s
}

// updateRuns follows a move of the piece c from → to that took captured
// pieces (Play calls it after the board has changed, before the turn passes).
func (p *Position) updateRuns(c int8, from, to int, captured bool) {
	side := int(p.turn)
	r := kingRun{}
	if isKing(c) && !captured {
		r = kingRun{sq: int8(to), n: 1}
		if old := p.run[side]; old.n > 0 && int(old.sq) == from {
			r.n = min(old.n+1, 3)
		}
	}
	p.setRun(side, r)
	for s := 0; s < 2; s++ {
		// A count ends with its king (taken) or with the side's last man.
		if r := p.run[s]; r.n > 0 && (p.cell[r.sq] != wKing+int8(2*s) || !p.hasMen(s)) {
			p.setRun(s, kingRun{})
		}
	}
}

// parseRuns reads the section "RW28/2,B3/1" (without its R).
func (p *Position) parseRuns(text, list string) error {
	if p.g.f.kingRun == 0 {
		return rules.PositionError(text, "%s has no limit on king moves (section R)", p.g.id)
	}
	for _, item := range strings.Split(list, ",") {
		if item == "" {
			continue
		}
		side := -1
		switch item[0] {
		case 'W', 'w':
			side = white
		case 'B', 'b':
			side = black
		}
		sq, n, ok := strings.Cut(item[min(1, len(item)):], "/")
		s, err1 := strconv.Atoi(sq)
		k, err2 := strconv.Atoi(n)
		if side < 0 || !ok || err1 != nil || err2 != nil || k < 0 || k > int(p.g.f.kingRun) {
			return rules.PositionError(text, "%q is not a king run (W28/2: White's king on 28 made 2 moves in a row)", item)
		}
		if s < 1 || s > p.geo.n || p.cell[s-1] != wKing+int8(2*side) {
			return rules.PositionError(text, "run %q: no king of that side on %d", item, s)
		}
		if k > 0 && !p.hasMen(side) {
			return rules.PositionError(text, "run %q: a side without men has no limit on king moves", item)
		}
		p.run[side] = kingRun{sq: int8(s - 1), n: int8(k)}
	}
	return nil
}

// writeRuns appends the section ":RW28/2,B3/1" when a run is counting.
func (p *Position) writeRuns(b *strings.Builder) {
	sep := ":R"
	for side, r := range p.run {
		if r.n == 0 {
			continue
		}
		b.WriteString(sep + "WB"[side:side+1] + strconv.Itoa(int(r.sq)+1) + "/" + strconv.Itoa(int(r.n)))
		sep = ","
	}
}
