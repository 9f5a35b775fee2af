package ogi

import "strings"

// A piece code is one byte: bits 0-2 the kind, bit 3 promoted, bit 4 Gote,
// bit 5 present (so that 0 is an empty square). code&31 indexes the tables,
// code&15 (kind and state) is a hand slot.
const (
	king = iota
	princess
	rook
	bishop
	silver
	knight
	lance
	pawn
)

const (
	promBit    = 8
	goteBit    = 16
	presentBit = 32
)

const pieceLetters = "KIRBSNLP"

func kindOf(c uint8) int    { return int(c & 7) }
func promoted(c uint8) bool { return c&promBit != 0 }
func sideOf(c uint8) int    { return int(c>>4) & 1 }
func makeCode(side, kind int, prom bool) uint8 {
	c := uint8(presentBit | kind | side<<4)
	if prom {
		c |= promBit
	}
	return c
}

func letterKind(b byte) int { return int(letterKinds[b]) }

// letterKinds is letterKind's table: a piece letter's kind, else -1.
var letterKinds = func() (t [256]int8) {
	for b := range t {
		t[b] = int8(strings.IndexByte(pieceLetters, byte(b)))
	}
	return t
}()

// sqNames are "a1".."h8" by square index.
var sqNames = func() (n [64]string) {
	for sq := range n {
		n[sq] = string([]byte{byte('a' + sq&7), byte('1' + sq>>3)})
	}
	return n
}()

// sqName returns "a1".."h8".
func sqName(sq int) string { return sqNames[sq] }

// Movement tables, built once.
var (
	// steps[code&31][sq] are the squares reached by one step or jump.
	steps [32][64][]uint8
	// slideDirs[code&31] are the sliding directions of the piece.
	slideDirs [32][]uint8
	// rays[dir][sq] are the squares from sq (excluded) to the edge.
	rays [8][64][]uint8
)

var dirDelta = [8][2]int{
	{0, 1}, {0, -1}, {1, 0}, {-1, 0}, // N S E W
	{1, 1}, {-1, 1}, {1, -1}, {-1, -1}, // NE NW SE SW
}

// dirIndex returns the index of (df, dr) in dirDelta.
func dirIndex(df, dr int) uint8 {
	for i, d := range dirDelta {
		if d[0] == df && d[1] == dr {
			return uint8(i)
		}
	}
	panic("ogi: bad direction")
}

type movement struct {
	steps  [][2]int // (file, rank) offsets in Sente's frame (forward = +rank)
	slides [][2]int
}

var (
	orth     = [][2]int{{0, 1}, {0, -1}, {1, 0}, {-1, 0}}
	diag     = [][2]int{{1, 1}, {-1, 1}, {1, -1}, {-1, -1}}
	jumps    = [][2]int{{1, 2}, {-1, 2}, {1, -2}, {-1, -2}, {2, 1}, {-2, 1}, {2, -1}, {-2, -1}}
	goldStep = [][2]int{{0, 1}, {0, -1}, {1, 0}, {-1, 0}, {1, 1}, {-1, 1}}
)

func cat(a ...[][2]int) [][2]int {
	var out [][2]int
	for _, x := range a {
		out = append(out, x...)
	}
	return out
}

// moves by kind and state, in Sente's frame; straight from the rule text.
func movementOf(kind int, prom bool) movement {
	switch {
	case kind == king:
		return movement{steps: cat(orth, diag)}
	case kind == princess && !prom:
		return movement{steps: jumps, slides: diag}
	case kind == princess:
		return movement{steps: cat(jumps, orth), slides: diag}
	case kind == rook && !prom:
		return movement{slides: orth}
	case kind == rook:
		return movement{steps: diag, slides: orth}
	case kind == bishop && !prom:
		return movement{slides: diag}
	case kind == bishop:
		return movement{steps: orth, slides: diag}
	case kind == silver && !prom:
		return movement{steps: [][2]int{{0, 1}, {1, 1}, {-1, 1}, {1, -1}, {-1, -1}}}
	case prom: // +S, +N, +L, +P: the promoted silver's six steps
		return movement{steps: goldStep}
	case kind == knight:
		return movement{steps: [][2]int{{1, 2}, {-1, 2}}}
	case kind == lance:
		return movement{slides: [][2]int{{0, 1}}}
	default: // pawn
		return movement{steps: [][2]int{{0, 1}}}
	}
}

func onBoard(f, r int) bool { return f >= 0 && f < 8 && r >= 0 && r < 8 }

func init() {
	for d, dd := range dirDelta {
		for sq := 0; sq < 64; sq++ {
			f, r := sq&7+dd[0], sq>>3+dd[1]
			for onBoard(f, r) {
				rays[d][sq] = append(rays[d][sq], uint8(r*8+f))
				f, r = f+dd[0], r+dd[1]
			}
		}
	}
	for side := 0; side < 2; side++ {
		for kind := 0; kind < 8; kind++ {
			for _, prom := range []bool{false, true} {
				if kind == king && prom {
					continue
				}
				c := makeCode(side, kind, prom) & 31
				mv := movementOf(kind, prom)
				sign := 1
				if side == 1 {
					sign = -1
				}
				for _, s := range mv.slides {
					slideDirs[c] = append(slideDirs[c], dirIndex(s[0], s[1]*sign))
				}
				for sq := 0; sq < 64; sq++ {
					for _, s := range mv.steps {
						f, r := sq&7+s[0], sq>>3+s[1]*sign
						if onBoard(f, r) {
							steps[c][sq] = append(steps[c][sq], uint8(r*8+f))
						}
					}
				}
			}
		}
	}
	initBitboards()
	initZobrist()
}

// relRank is the rank (0..7) seen from side's own camp.
func relRank(side, sq int) int {
	r := sq >> 3
	if side == 1 {
		return 7 - r
	}
	return r
}

// inZone reports whether sq is in side's promotion zone (the three far ranks).
func inZone(side, sq int) bool { return relRank(side, sq) >= 5 }

// deadEnd reports whether an unpromoted piece of that kind could never move
// again from sq: pawn or lance on the last rank, knight on the last two.
func deadEnd(side, kind, sq int) bool {
	rr := relRank(side, sq)
	switch kind {
	case pawn, lance:
		return rr == 7
	case knight:
		return rr >= 6
	}
	return false
}

// Zobrist keys.
var (
	zPiece [32][64]uint64
	zHand  [2][16][20]uint64
	zSide  uint64
)

func initZobrist() {
	s := uint64(0x9E3779B97F4A7C15 ^ 0x4F67690A) // fixed seed: keys are stable across runs
	next := func() uint64 {
		s += 0x9E3779B97F4A7C15
		z := s
		z = (z ^ z>>30) * 0xBF58476D1CE4E5B9
		z = (z ^ z>>27) * 0x94D049BB133111EB
		return z ^ z>>31
	}
	for c := range zPiece {
		for sq := range zPiece[c] {
			zPiece[c][sq] = next()
		}
	}
	for s := range zHand {
		for slot := range zHand[s] {
			for n := 1; n < len(zHand[s][slot]); n++ { // count 0 hashes to 0
				zHand[s][slot][n] = next()
			}
		}
	}
	zSide = next()
}

// maxPieces is the number of pieces of each kind in the full set (both sides).
var maxPieces = [8]int{king: 2, princess: 2, rook: 2, bishop: 2, silver: 4, knight: 4, lance: 4, pawn: 16}
