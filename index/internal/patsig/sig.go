package patsig

import "math/bits"

// Unbounded is the greatest count of a bound that has none.
const Unbounded = 1 << 30

// Sig is a signature read back (Parse). The zero Sig bounds nothing.
// Its code and slot entries are read in place, from the signature's
// bytes, when a bound asks for them.
type Sig struct {
	OK      bool   // a signature of this version was read
	Squares int    // the number of squares of the game's board
	Board   Totals // pieces on the board, by side and for both
	Hand    Totals // pieces in hand, by side and for both
	codes   []byte // code, nibbles, regions: 3 bytes each
	slots   []byte // slot, nibbles: 2 bytes each
	// A version-2 signature's codes and slots as read (pending: not yet
	// written out), then written out as version 1 holds them (codes and
	// slots are slices of them): kept from signature to signature.
	v2         v2
	pending    bool
	cbuf, sbuf []byte
}

// v2 are the bitmaps and bounds of a version-2 signature.
type v2 struct{ codes, pairs, slots, bounds []byte }

// Parse reads a signature into s; a signature that is empty, of another
// version or of another length than its counts say leaves s.OK false (it
// bounds nothing). s keeps slices of b.
func (s *Sig) Parse(b []byte) {
	s.OK, s.pending = false, false
	if len(b) < 3+12+1 || b[0] != Version && b[0] != Version1 {
		return
	}
	s.Squares = int(b[1]) | int(b[2])<<8
	i := 3
	for k, t := range []*Totals{&s.Board, &s.Hand} {
		for side := range 3 {
			t.Min[side], t.Max[side] = int(b[i]), int(b[i+1])
			if t.Max[side] == 255 && k == 1 {
				t.Max[side] = Unbounded // hands are not bounded by a board
			}
			i += 2
		}
	}
	if b[0] == Version1 {
		s.parse1(b, i)
	} else {
		s.parse2(b, i)
	}
}

// parse1 reads the codes and slots of a version-1 signature from b[i:].
func (s *Sig) parse1(b []byte, i int) {
	n := int(b[i])
	i++
	if len(b) < i+3*n+1 {
		return
	}
	s.codes = b[i : i+3*n]
	i += 3 * n
	m := int(b[i])
	i++
	if len(b) != i+2*m {
		return
	}
	s.slots = b[i:]
	s.OK = true
}

// parse2 checks the codes and slots of a version-2 signature at b[i:]
// and keeps them for written (they are written out only when a bound
// asks for them: most patterns read the totals alone).
func (s *Sig) parse2(b []byte, i int) {
	codes, i, ok := readBitmap(b, i)
	n := count(codes)
	if !ok || len(b) < i+2*n {
		return
	}
	pairs := b[i : i+2*n]
	slots, i, ok := readBitmap(b, i+2*n)
	if !ok || len(b) != i+count(slots) {
		return
	}
	s.codes, s.slots = nil, nil
	s.v2 = v2{codes: codes, pairs: pairs, slots: slots, bounds: b[i:]}
	s.OK, s.pending = true, true
}

// written writes the codes and slots of a version-2 signature out as
// version 1 holds them, once.
func (s *Sig) written() {
	if !s.pending {
		return
	}
	s.pending = false
	s.cbuf, s.sbuf = s.cbuf[:0], s.sbuf[:0]
	k := 0
	for j, c := range s.v2.codes {
		for ; c != 0; c &= c - 1 {
			s.cbuf = append(s.cbuf, byte(j*8+bits.TrailingZeros8(c)), s.v2.pairs[k], s.v2.pairs[k+1])
			k += 2
		}
	}
	k = 0
	for j, c := range s.v2.slots {
		for ; c != 0; c &= c - 1 {
			s.sbuf = append(s.sbuf, byte(j*8+bits.TrailingZeros8(c)), s.v2.bounds[k])
			k++
		}
	}
	s.codes, s.slots = s.cbuf, s.sbuf
}

// Convert returns a version-1 signature as version 2, with the same
// bounds; any other signature as it is.
func Convert(b []byte) []byte {
	var s Sig
	if len(b) == 0 || b[0] != Version1 {
		return b
	}
	if s.Parse(b); !s.OK {
		return b
	}
	s.written()
	var codes, slots bitmap
	for c, last := s.codes, -1; len(c) >= 3; c = c[3:] {
		if int(c[0]) <= last {
			return b // not in code order, as no Builder wrote it
		}
		codes.set(int(c[0]))
		last = int(c[0])
	}
	for c, last := s.slots, -1; len(c) >= 2; c = c[2:] {
		if int(c[0]) <= last {
			return b
		}
		slots.set(int(c[0]))
		last = int(c[0])
	}
	out := append([]byte{Version}, b[1:3+12]...)
	out = codes.append(out)
	for c := s.codes; len(c) >= 3; c = c[3:] {
		out = append(out, c[1], c[2])
	}
	out = slots.append(out)
	for c := s.slots; len(c) >= 2; c = c[2:] {
		out = append(out, c[1])
	}
	return out
}

// bounds of a nibble pair: a greatest count of MaxNibble is unbounded.
func bounds(nb byte) (lo, hi int) {
	lo, hi = int(nb>>4), int(nb&MaxNibble)
	if hi == MaxNibble {
		hi = Unbounded
	}
	return lo, hi
}

// BoardCount bounds the number of pieces on the board whose code is in
// set, at any position: the sums of the codes' bounds.
func (s *Sig) BoardCount(set *[256]bool) (lo, hi int) {
	s.written()
	for c := s.codes; len(c) >= 3; c = c[3:] {
		if set[c[0]] {
			l, h := bounds(c[1])
			lo, hi = lo+l, min(hi+h, Unbounded)
		}
	}
	return lo, hi
}

// HandCount bounds the number of pieces in the hand slots of set.
func (s *Sig) HandCount(set []bool) (lo, hi int) {
	s.written()
	for c := s.slots; len(c) >= 2; c = c[2:] {
		if int(c[0]) < len(set) && set[c[0]] {
			l, h := bounds(c[1])
			lo, hi = lo+l, min(hi+h, Unbounded)
		}
	}
	return lo, hi
}

// Stood reports whether a piece whose code is in set ever stood in one of
// the regions (a bit set, bit r for region r).
func (s *Sig) Stood(set *[256]bool, regions uint8) bool {
	s.written()
	for c := s.codes; len(c) >= 3; c = c[3:] {
		if set[c[0]] && c[2]&regions != 0 {
			return true
		}
	}
	return false
}
