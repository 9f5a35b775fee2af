package patsig

// Unbounded is the greatest count of a bound that has none.
const Unbounded = 1 << 30

// Sig is a signature read back (Parse). The zero Sig bounds nothing.
type Sig struct {
	OK      bool      // a signature of this version was read
	Squares int       // the number of squares of the game's board
	Board   Totals    // pieces on the board, by side and for both
	Hand    Totals    // pieces in hand, by side and for both
	codes   [][3]byte // code, nibbles, regions
	slots   [][2]byte // slot, nibbles
	buf     [64][3]byte
	slotsB  [32][2]byte
}

// Parse reads a signature into s; a signature that is empty, of another
// version or cut short leaves s.OK false (it bounds nothing).
func (s *Sig) Parse(b []byte) {
	s.OK = false
	if len(b) < 3+12+1 || b[0] != Version {
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
	n := int(b[i])
	i++
	if len(b) < i+3*n+1 {
		return
	}
	s.codes = s.buf[:0]
	for range n {
		s.codes = append(s.codes, [3]byte{b[i], b[i+1], b[i+2]})
		i += 3
	}
	m := int(b[i])
	i++
	if len(b) != i+2*m {
		return
	}
	s.slots = s.slotsB[:0]
	for range m {
		s.slots = append(s.slots, [2]byte{b[i], b[i+1]})
		i += 2
	}
	s.OK = true
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
	for _, c := range s.codes {
		if set[c[0]] {
			l, h := bounds(c[1])
			lo, hi = lo+l, min(hi+h, Unbounded)
		}
	}
	return lo, hi
}

// HandCount bounds the number of pieces in the hand slots of set.
func (s *Sig) HandCount(set []bool) (lo, hi int) {
	for _, c := range s.slots {
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
	for _, c := range s.codes {
		if set[c[0]] && c[2]&regions != 0 {
			return true
		}
	}
	return false
}
