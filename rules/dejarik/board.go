package dejarik

import (
	"math/bits"
	"strconv"
)

// Cells are numbered 0 (the centre c), 1–12 (the inner ring i1–i12) and
// 13–24 (the outer ring o1–o12). A side's pawns are a bit set over cells.
const (
	centre   = 0
	numCells = 25
	ring     = 12

	centreBit = uint32(1)
	innerMask = uint32(0xfff) << 1  // i1..i12
	outerMask = uint32(0xfff) << 13 // o1..o12
)

// inner returns the cell of iK (K in 1..12), outer that of oK.
func inner(k int) int { return k }
func outer(k int) int { return ring + k }

// ringNum returns K for iK or oK (0 for the centre).
func ringNum(c int) int {
	if c > ring {
		return c - ring
	}
	return c
}

func isInner(c int) bool { return c >= 1 && c <= ring }
func isOuter(c int) bool { return c > ring && c < numCells }

// around returns the ring number k moved d steps round the ring (12 ↔ 1).
func around(k, d int) int {
	return ((k-1+d)%ring+ring)%ring + 1
}

func bit(c int) uint32 { return 1 << uint(c) }

func cellName(c int) string {
	if c >= 0 && c < numCells {
		return cellNames[c]
	}
	return "?"
}

// cellNames are the cell names, built once: Describe names two cells per
// move, and pattern search describes every move it plays.
var cellNames = func() (n [numCells]string) {
	for c := range n {
		n[c] = cellText(c)
	}
	return n
}()

func cellText(c int) string {
	switch {
	case c == centre:
		return "c"
	case isInner(c):
		return "i" + strconv.Itoa(c)
	case isOuter(c):
		return "o" + strconv.Itoa(c-ring)
	}
	return "?"
}

// parseCell reads c, iK or oK (case-insensitive); ok is false otherwise.
func parseCell(s string) (int, bool) {
	if s == "c" || s == "C" {
		return centre, true
	}
	if len(s) < 2 || len(s) > 3 {
		return 0, false
	}
	if s[1] < '1' || s[1] > '9' {
		return 0, false // no sign, no leading zero
	}
	n, err := strconv.Atoi(s[1:])
	if err != nil || n < 1 || n > ring {
		return 0, false
	}
	switch s[0] {
	case 'i', 'I':
		return inner(n), true
	case 'o', 'O':
		return outer(n), true
	}
	return 0, false
}

// innerRing returns the inner-ring part of a cell set as 12 bits (bit K-1 = iK).
func innerRing(set uint32) uint32 { return (set & innerMask) >> 1 }

// aligned reports whether the 3 or 4 cells of set all lie on the inner ring
// and touch one another in a single run (the ring wraps from i12 to i1).
func aligned(set uint32) bool {
	if set&^innerMask != 0 {
		return false
	}
	x := innerRing(set)
	prev := (x<<1 | x>>(ring-1)) & 0xfff // bit K set when i(K-1) is occupied
	starts := x &^ prev
	return bits.OnesCount32(starts) == 1
}

// Zobrist keys: one per (side, cell), one for Black to move, one per side
// still in its first turn. Fixed values from a splitmix64 stream.
var zobrist = func() (z struct {
	cell  [2][numCells]uint64
	black uint64
	first [2]uint64
}) {
	s := uint64(0x9e3779b97f4a7c15 ^ 0xde7a41c)
	next := func() uint64 {
		s += 0x9e3779b97f4a7c15
		v := s
		v = (v ^ v>>30) * 0xbf58476d1ce4e5b9
		v = (v ^ v>>27) * 0x94d049bb133111eb
		return v ^ v>>31
	}
	for side := range z.cell {
		for c := range z.cell[side] {
			z.cell[side][c] = next()
		}
	}
	z.black = next()
	z.first[0], z.first[1] = next(), next()
	return z
}()
