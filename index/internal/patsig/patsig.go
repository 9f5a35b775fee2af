// Package patsig is the pattern signature of a stored game: a few bytes
// that summarise every position of the game (main line and variations)
// so that a pattern scan skips, without replaying it, a game none of whose
// positions can match. A Builder takes the positions' cells
// (rules.Cells) and writes the signature; a Sig reads it back as bounds.
//
// Decisions:
//
//   - The signature is a superset, never a guess: a bound it gives holds
//     for every position of the game, so a pattern term that no value
//     within the bounds satisfies cannot hold at any position. Counts
//     saturate (a maximum of MaxNibble means "at least that"; a minimum
//     is never more than the true one).
//   - It is written in the codes of the game's rules.Layout: for each
//     piece code that ever stood on the board, its least and greatest
//     count over the positions (a nibble each) and the regions of the
//     board it stood on (Regions of them, by square index); for each hand
//     slot ever filled, its least and greatest count; and for each side
//     and both, the least and greatest number of pieces on the board and
//     in hand. Codes and slots never seen take no byte, so that a game of
//     few piece kinds has a short signature.
//   - The format starts with a version byte and the number of squares of
//     the game's board, which a reader compares with the boards it
//     compiled a pattern for (a board it was not compiled for bounds
//     nothing); a signature of another
//     version, or one that does not parse, bounds nothing (Sig.OK false:
//     the game is tested).
//   - Version 2 (layout 22) says which codes and slots it holds by a
//     bitmap, where version 1 wrote each one's byte before its bounds: a
//     game sees 20 to 30 codes, of values below 64 in every ruleset's
//     layout. A reader reads both (Parse), and Convert writes a version-1
//     signature as version 2.
package patsig

import (
	"encoding/binary"
	"math/bits"
	"slices"

	"github.com/plateau/plateau/rules"
)

// Version is the format of the signatures a Builder writes.
const Version = 2

// Version1 is the format of layouts 14 to 21.
const Version1 = 1

// Regions is the number of board regions a piece code's squares are
// summarised in: square index i of a board of n squares is in region
// i*Regions/n.
const Regions = 8

// MaxNibble is the greatest count a code's or slot's bounds hold; a
// greatest count of MaxNibble means MaxNibble or more.
const MaxNibble = 15

// Region is the region of square index i on a board of n squares.
func Region(i, n int) int { return i * Regions / n }

// Totals are the side totals of a signature, by side (0, 1) and for both
// (2).
type Totals struct{ Min, Max [3]int }

// Builder summarises the positions of one game at a time: Reset, Add for
// every position, Append. It keeps its memory from game to game. A
// position is compared with the one added before it, word by word: a move
// changes a few squares, and only they change the counts and regions.
type Builder struct {
	l        *rules.Layout
	region   []uint8     // bit of each square index's region
	side     [256]uint8  // side of each code; 2 for no piece
	pieces   []byte      // the codes of pieces, in code order
	slotSide []uint8     // side of each hand slot; 2 for none
	prev     []byte      // the board added last
	prevHand []byte      // the hand added last
	cnt      [256]uint8  // the counts of prev's codes (of pieces: exact)
	changed  []byte      // codes whose count the position changed
	codes    [256]codeSt // by code
	slots    []slotSt    // by hand slot
	tot      [2][3]int   // the totals of prev and prevHand
	last     [4]int      // tot's sides when totals last took them
	totals   [2]Totals   // [0] board, [1] hand totals
	npos     int         // positions added
	ok       bool
}

type codeSt struct {
	min, max uint8
	regions  uint8
}

type slotSt struct {
	min, max uint8
}

// Reset starts the signature of a game whose positions have layout l.
func (b *Builder) Reset(l *rules.Layout) {
	if b.l != l {
		b.setLayout(l)
	}
	for _, c := range b.pieces {
		b.codes[c] = codeSt{min: 255}
	}
	clear(b.cnt[:])
	b.npos, b.ok = 0, true
	for i := range b.slots {
		b.slots[i] = slotSt{min: 255}
	}
	for k := range b.totals {
		b.totals[k] = Totals{Min: [3]int{1 << 30, 1 << 30, 1 << 30}}
	}
}

// setLayout prepares the tables of layout l.
func (b *Builder) setLayout(l *rules.Layout) {
	b.l = l
	b.region = make([]uint8, len(l.Squares))
	for i := range b.region {
		b.region[i] = 1 << Region(i, len(l.Squares))
	}
	b.pieces = b.pieces[:0]
	for c := range l.Codes {
		b.side[c] = 2
		if pc := l.Codes[c]; pc.Kind != 0 {
			b.side[c] = uint8(pc.Side & 1)
			b.pieces = append(b.pieces, byte(c))
		}
	}
	b.slots = make([]slotSt, len(l.Hand))
	b.slotSide = make([]uint8, len(l.Hand))
	for k, pc := range l.Hand {
		b.slotSide[k] = 2
		if pc.Kind != 0 {
			b.slotSide[k] = uint8(pc.Side & 1)
		}
	}
	b.prev, b.prevHand = make([]byte, len(l.Squares)), make([]byte, len(l.Hand))
}

// Add adds a position: its cells as rules.Cells writes them for the
// layout of Reset.
func (b *Builder) Add(board, hand []byte) {
	board, hand = board[:len(b.prev)], hand[:len(b.prevHand)]
	if b.npos == 0 {
		b.first(board, hand)
	} else {
		b.changed = b.changed[:0]
		b.squares(board)
		for _, c := range b.changed {
			st := &b.codes[c]
			st.min, st.max = min(st.min, b.cnt[c]), max(st.max, b.cnt[c])
		}
		b.hand(hand)
	}
	last := [4]int{b.tot[0][0], b.tot[0][1], b.tot[1][0], b.tot[1][1]}
	if b.npos > 0 && b.last == last {
		// Most moves take nothing and drop nothing: the totals are
		// those of the position before, already bounded.
		b.npos++
		return
	}
	b.npos++
	b.last = last
	b.totals[0].bound(last[0], last[1])
	b.totals[1].bound(last[2], last[3])
}

// bound widens t to hold the totals s0 of side 0 and s1 of side 1.
func (t *Totals) bound(s0, s1 int) {
	t.Min[0], t.Max[0] = min(t.Min[0], s0), max(t.Max[0], s0)
	t.Min[1], t.Max[1] = min(t.Min[1], s1), max(t.Max[1], s1)
	t.Min[2], t.Max[2] = min(t.Min[2], s0+s1), max(t.Max[2], s0+s1)
}

// first adds the first position of a game.
func (b *Builder) first(board, hand []byte) {
	copy(b.prev, board)
	copy(b.prevHand, hand)
	b.tot = [2][3]int{}
	for i, c := range board {
		b.cnt[c]++
		b.tot[0][b.side[c]]++
		b.codes[c].regions |= b.region[i]
	}
	for _, c := range b.pieces {
		st := &b.codes[c]
		st.min, st.max = b.cnt[c], b.cnt[c]
	}
	for k, n := range hand {
		b.slots[k] = slotSt{min: n, max: n}
		b.tot[1][b.slotSide[k]] += int(n)
	}
}

// square changes square i of prev to code c.
func (b *Builder) square(i int, c byte) {
	o := b.prev[i]
	b.prev[i] = c
	b.cnt[o]--
	b.cnt[c]++
	b.tot[0][b.side[o]]--
	b.tot[0][b.side[c]]++
	b.codes[c].regions |= b.region[i]
	if b.side[o] < 2 {
		b.changed = append(b.changed, o)
	}
	if b.side[c] < 2 {
		b.changed = append(b.changed, c)
	}
}

// slot changes hand slot k of prevHand to n pieces.
func (b *Builder) slot(k int, n byte) {
	b.tot[1][b.slotSide[k]] += int(n) - int(b.prevHand[k])
	b.prevHand[k] = n
	st := &b.slots[k]
	st.min, st.max = min(st.min, n), max(st.max, n)
}

// squares changes the squares of prev where board differs from it,
// comparing them a word at a time: the bytes that differ are found in the
// word's XOR, without a test a byte (a move changes a few squares, in
// places no branch predicts).
func (b *Builder) squares(board []byte) {
	prev := b.prev[:len(board)]
	if len(board) == 64 {
		// An 8×8 board (Ōgi, Sauts): its words at constant places,
		// without a bounds check each.
		x := xor64((*[64]byte)(board), (*[64]byte)(prev))
		for w := range x {
			if x[w] != 0 {
				b.squareBytes(board, 8*w, x[w])
			}
		}
		return
	}
	i := 0
	for ; i+8 <= len(board); i += 8 {
		if x := binary.LittleEndian.Uint64(board[i:]) ^ binary.LittleEndian.Uint64(prev[i:]); x != 0 {
			b.squareBytes(board, i, x)
		}
	}
	if i < len(board) {
		b.squareBytes(board, i, word(board, i)^word(prev, i))
	}
}

// squareBytes changes the squares of prev from i where x, the XOR of
// board's word from i and prev's, has a byte that is not zero.
func (b *Builder) squareBytes(board []byte, i int, x uint64) {
	for x != 0 {
		j := bits.TrailingZeros64(x) >> 3 // the first byte that differs
		x &^= 0xff << (8 * j)
		b.square(i+j, board[i+j])
	}
}

// hand changes the slots of prevHand where hand differs from it, as
// squares does.
func (b *Builder) hand(hand []byte) {
	prev := b.prevHand[:len(hand)]
	if len(hand) == 32 {
		// Two hands of 16 slots (Ōgi), as squares does an 8×8 board.
		x := xor32((*[32]byte)(hand), (*[32]byte)(prev))
		for w := range x {
			if x[w] != 0 {
				b.slotBytes(hand, 8*w, x[w])
			}
		}
		return
	}
	i := 0
	for ; i+8 <= len(hand); i += 8 {
		if x := binary.LittleEndian.Uint64(hand[i:]) ^ binary.LittleEndian.Uint64(prev[i:]); x != 0 {
			b.slotBytes(hand, i, x)
		}
	}
	if i < len(hand) {
		b.slotBytes(hand, i, word(hand, i)^word(prev, i))
	}
}

// slotBytes changes the slots of prevHand from i where x, the XOR of
// hand's word from i and prevHand's, has a byte that is not zero.
func (b *Builder) slotBytes(hand []byte, i int, x uint64) {
	for x != 0 {
		k := bits.TrailingZeros64(x) >> 3
		x &^= 0xff << (8 * k)
		b.slot(i+k, hand[i+k])
	}
}

// xor64 is the XOR of the words of a and b.
func xor64(a, b *[64]byte) (x [8]uint64) {
	le := binary.LittleEndian
	x[0] = le.Uint64(a[0:]) ^ le.Uint64(b[0:])
	x[1] = le.Uint64(a[8:]) ^ le.Uint64(b[8:])
	x[2] = le.Uint64(a[16:]) ^ le.Uint64(b[16:])
	x[3] = le.Uint64(a[24:]) ^ le.Uint64(b[24:])
	x[4] = le.Uint64(a[32:]) ^ le.Uint64(b[32:])
	x[5] = le.Uint64(a[40:]) ^ le.Uint64(b[40:])
	x[6] = le.Uint64(a[48:]) ^ le.Uint64(b[48:])
	x[7] = le.Uint64(a[56:]) ^ le.Uint64(b[56:])
	return x
}

// xor32 is the XOR of the words of a and b.
func xor32(a, b *[32]byte) (x [4]uint64) {
	le := binary.LittleEndian
	x[0] = le.Uint64(a[0:]) ^ le.Uint64(b[0:])
	x[1] = le.Uint64(a[8:]) ^ le.Uint64(b[8:])
	x[2] = le.Uint64(a[16:]) ^ le.Uint64(b[16:])
	x[3] = le.Uint64(a[24:]) ^ le.Uint64(b[24:])
	return x
}

// word is the little-endian word of p's 8 bytes from i, those past p's
// end taken as zeros.
func word(p []byte, i int) uint64 {
	if i+8 <= len(p) {
		return binary.LittleEndian.Uint64(p[i:])
	}
	var w uint64
	for j, c := range p[i:] {
		w |= uint64(c) << (8 * j)
	}
	return w
}

// Fail marks the game as one whose positions are not all known (a move
// that does not play): Append then writes no signature.
func (b *Builder) Fail() { b.ok = false }

// Append appends the signature of the positions added since Reset to dst;
// it appends nothing when none was added or after Fail.
func (b *Builder) Append(dst []byte) []byte {
	if !b.ok || b.npos == 0 || len(b.pieces) > 255 || len(b.slots) > 256 {
		return dst
	}
	var codes, slots bitmap
	ncodes, nslots := 0, 0
	for _, c := range b.pieces {
		if b.codes[c].max > 0 {
			codes.set(int(c))
			ncodes++
		}
	}
	for k, st := range b.slots {
		if st.max > 0 {
			slots.set(k)
			nslots++
		}
	}
	// The signature's length, so that dst grows once.
	dst = slices.Grow(dst, 3+2*3*len(b.totals)+1+codes.n+2*ncodes+1+slots.n+nslots)
	n := len(b.l.Squares)
	dst = append(dst, Version, byte(n), byte(n>>8))
	for k := range b.totals {
		for s := range 3 {
			dst = append(dst, sat(b.totals[k].Min[s], 255), sat(b.totals[k].Max[s], 255))
		}
	}
	dst = codes.append(dst)
	for _, c := range b.pieces {
		if st := &b.codes[c]; st.max > 0 {
			dst = append(dst, nibbles(st.min, st.max), st.regions)
		}
	}
	dst = slots.append(dst)
	for _, st := range b.slots {
		if st.max > 0 {
			dst = append(dst, nibbles(st.min, st.max))
		}
	}
	return dst
}

func sat(n, limit int) byte { return byte(min(n, limit)) }

func nibbles(lo, hi uint8) byte { return min(lo, MaxNibble)<<4 | min(hi, MaxNibble) }
