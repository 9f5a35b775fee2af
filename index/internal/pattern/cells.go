package pattern

import (
	"encoding/binary"
	"math/bits"
	"slices"

	"github.com/plateau/plateau/rules"
)

// A pattern is tested on millions of positions. Positions that implement
// rules.Cells are tested through their cells: the pattern is compiled once
// per rules.Layout into square indexes and tables of accepted codes, and a
// position costs one copy of its cells plus a few table look-ups, without
// allocation. Other positions are tested on Board (Matcher.match).

// cellTerm is a pattern term compiled for one layout.
type cellTerm struct {
	kind  TermKind
	cells []int     // OnSquares, Empty: the indexes of the named squares
	ok    [256]bool // OnSquares: codes of matching pieces; Empty: empty codes
	count int       // OnBoard: the index of its count, when cubes is nil
	cubes []cube    // OnBoard: the codes it counts, when they are a few cubes
	slots []int     // InHand: the hand slots of matching pieces
	op    cmpOp
	n     int
	cost  int
}

// cellMatcher is a matcher compiled for one layout.
type cellMatcher struct {
	terms []cellTerm
	// The OnBoard counts are taken in one pass over the board: packs[k][c]
	// adds 1 to byte j of a sum for code c when count 8k+j counts it (a
	// board has fewer than 256 squares, so bytes do not carry).
	packs  [][256]uint64
	counts []int // the counts of the position being tested
}

func (t *mterm) fits(pc rules.Piece) bool {
	if pc.Kind == 0 {
		return false
	}
	return t.piece(&rules.Placement{Side: pc.Side, Kind: pc.Kind, Promoted: pc.Promoted})
}

func (m *Matcher) compileCells(l *rules.Layout) *cellMatcher {
	index := make(map[string]int, len(l.Squares))
	for i, s := range l.Squares {
		index[s] = i
	}
	cm := &cellMatcher{}
	for i := range m.terms {
		t := &m.terms[i]
		ct := cellTerm{kind: t.Kind, op: opOf(t.Op), n: t.N}
		switch t.Kind {
		case OnSquares, Empty:
			for _, s := range t.Squares {
				// A square the layout does not have holds no piece, as
				// for Board.
				if k, ok := index[s]; ok && !slices.Contains(ct.cells, k) {
					ct.cells = append(ct.cells, k)
				}
			}
			for c := range l.Codes {
				if t.Kind == Empty {
					ct.ok[c] = l.Codes[c].Kind == 0
				} else {
					ct.ok[c] = t.fits(l.Codes[c])
				}
			}
			ct.cost = len(ct.cells)
		case InHand:
			for k, pc := range l.Hand {
				if t.fits(pc) {
					ct.slots = append(ct.slots, k)
				}
			}
			ct.cost = 2*len(ct.slots) + 2
		case OnBoard:
			var codes []byte
			for c := range l.Codes {
				if t.fits(l.Codes[c]) {
					codes = append(codes, byte(c))
				}
			}
			if ct.cubes = coverCodes(codes, maxCubes); ct.cubes != nil {
				ct.cost = len(ct.cubes) * len(l.Squares) / 2
				break
			}
			ct.count = len(cm.counts)
			cm.counts = append(cm.counts, 0)
			if ct.count%8 == 0 {
				cm.packs = append(cm.packs, [256]uint64{})
			}
			pack := &cm.packs[ct.count/8]
			for c := range l.Codes {
				if t.fits(l.Codes[c]) {
					pack[c] |= 1 << (8 * (ct.count % 8))
				}
			}
			ct.cost = 4 * len(l.Squares) // every count is taken in one pass
		}
		cm.terms = append(cm.terms, ct)
	}
	// Every term must hold: test the cheap ones first.
	slices.SortStableFunc(cm.terms, func(a, b cellTerm) int { return a.cost - b.cost })
	return cm
}

// count takes the OnBoard counts of a board.
func (cm *cellMatcher) count(board []byte) {
	for k := range cm.packs {
		pack := &cm.packs[k]
		var a0, a1, a2, a3 uint64
		i := 0
		for ; i+4 <= len(board); i += 4 {
			a0 += pack[board[i]]
			a1 += pack[board[i+1]]
			a2 += pack[board[i+2]]
			a3 += pack[board[i+3]]
		}
		for ; i < len(board); i++ {
			a0 += pack[board[i]]
		}
		sum := a0 + a1 + a2 + a3
		for j := 8 * k; j < min(8*k+8, len(cm.counts)); j++ {
			cm.counts[j] = int(sum >> (8 * (j % 8)) & 0xff)
		}
	}
}

// A cube is the set of codes c with c&mask == val (broadcast to every byte
// of a word). An OnBoard term whose codes are a few disjoint cubes (a side,
// a kind, promoted or not: bits of most layouts' codes) is counted 8 squares
// at a time, with word operations, instead of a table look-up per square.
type cube struct{ mask, val uint64 }

// maxCubes is the most cubes a term is counted with: beyond, the table.
const maxCubes = 2

// coverCodes returns at most limit disjoint cubes whose union is exactly
// codes (distinct), or nil. Each split is on a bit that the codes do not
// agree on; the halves are covered in turn.
func coverCodes(codes []byte, limit int) []cube {
	if len(codes) == 0 || limit < 1 {
		return nil
	}
	and, or := byte(0xff), byte(0)
	for _, c := range codes {
		and &= c
		or |= c
	}
	agree := ^(and ^ or) // the bits every code has alike
	if 1<<(8-bits.OnesCount8(agree)) == len(codes) {
		// The smallest cube holding the codes has as many codes: it is theirs.
		return []cube{{mask: bcast(agree), val: bcast(and & agree)}}
	}
	for b := 0; b < 8 && limit > 1; b++ {
		if agree&(1<<b) != 0 {
			continue
		}
		var lo, hi []byte
		for _, c := range codes {
			if c&(1<<b) == 0 {
				lo = append(lo, c)
			} else {
				hi = append(hi, c)
			}
		}
		if a := coverCodes(lo, limit-1); a != nil {
			if z := coverCodes(hi, limit-len(a)); z != nil {
				return append(a, z...)
			}
		}
	}
	return nil
}

// bcast repeats a byte in every byte of a word.
func bcast(b byte) uint64 { return uint64(b) * 0x0101010101010101 }

const lo7 = 0x7f7f7f7f7f7f7f7f

// countCubes counts the squares of board whose code is in one of cubes
// (disjoint): a byte of (w&mask)^val is zero where the code is in the cube.
// The zero bytes are summed in the bytes of a word (1 each), then across
// them: a board has fewer than 256 squares, so bytes do not carry. One
// cube (the common case: a side, a kind, every piece) has a loop of its
// own.
func countCubes(cubes []cube, board []byte) int {
	var sum uint64
	if len(cubes) == 1 {
		sum = countCube(cubes[0].mask, cubes[0].val, board)
	} else {
		for _, c := range cubes {
			sum += countCube(c.mask, c.val, board)
		}
	}
	return int(sum * 0x0101010101010101 >> 56)
}

// countCube is countCubes for one cube, before the sum across bytes.
func countCube(mask, val uint64, board []byte) uint64 {
	var s0, s1 uint64
	i := 0
	for ; i+16 <= len(board); i += 16 {
		b := board[i : i+16 : i+16]
		x := binary.LittleEndian.Uint64(b)&mask ^ val
		y := binary.LittleEndian.Uint64(b[8:])&mask ^ val
		s0 += ^(x&lo7 + lo7 | x | lo7) >> 7 // 1 in each zero byte
		s1 += ^(y&lo7 + lo7 | y | lo7) >> 7
	}
	for ; i+8 <= len(board); i += 8 {
		x := binary.LittleEndian.Uint64(board[i:i+8:i+8])&mask ^ val
		s0 += ^(x&lo7 + lo7 | x | lo7) >> 7
	}
	if i < len(board) {
		var w uint64
		for j, c := range board[i:] {
			w |= uint64(c) << (8 * j)
		}
		x := w&mask ^ val
		lanes := uint64(0x0101010101010101) >> (64 - 8*(len(board)-i)) // the board's bytes
		s0 += ^(x&lo7 + lo7 | x | lo7) >> 7 & lanes
	}
	return s0 + s1
}

// match tests a position's cells. It is not safe for concurrent use (the
// counts are kept in cm): each worker has its own compiled matchers.
func (cm *cellMatcher) match(board, hand []byte) bool {
	counted := false
	for i := range cm.terms {
		t := &cm.terms[i]
		switch t.kind {
		case OnSquares:
			ok := false
			for _, k := range t.cells {
				if t.ok[board[k]] {
					ok = true
					break
				}
			}
			if !ok {
				return false
			}
		case Empty:
			for _, k := range t.cells {
				if !t.ok[board[k]] {
					return false
				}
			}
		case InHand:
			n := 0
			for _, k := range t.slots {
				n += int(hand[k])
			}
			if !t.op.holds(n, t.n) {
				return false
			}
		case OnBoard:
			if t.cubes != nil {
				if !t.op.holds(countCubes(t.cubes, board), t.n) {
					return false
				}
				continue
			}
			if !counted {
				cm.count(board)
				counted = true
			}
			if !t.op.holds(cm.counts[t.count], t.n) {
				return false
			}
		}
	}
	return true
}

// cmpOp is a count comparison.
type cmpOp uint8

const (
	opEq cmpOp = iota
	opNe
	opLt
	opLe
	opGt
	opGe
)

func opOf(op string) cmpOp {
	switch op {
	case "!=":
		return opNe
	case "<":
		return opLt
	case "<=":
		return opLe
	case ">":
		return opGt
	case ">=":
		return opGe
	}
	return opEq
}

func (o cmpOp) holds(n, v int) bool {
	switch o {
	case opNe:
		return n != v
	case opLt:
		return n < v
	case opLe:
		return n <= v
	case opGt:
		return n > v
	case opGe:
		return n >= v
	}
	return n == v
}
