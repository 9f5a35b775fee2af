package dames

import "math/bits"

// sqset is a set of squares, bit s%64 of word s/64 for square s: the largest
// board (12×12) has 72 squares.
type sqset [2]uint64

func (s sqset) has(i int) bool { return s[i>>6]>>(uint(i)&63)&1 != 0 }
func (s sqset) empty() bool    { return s[0]|s[1] == 0 }
func (s sqset) count() int     { return bits.OnesCount64(s[0]) + bits.OnesCount64(s[1]) }

func (s sqset) with(i int) sqset {
	s[i>>6] |= 1 << (uint(i) & 63)
	return s
}

func (s sqset) without(i int) sqset {
	s[i>>6] &^= 1 << (uint(i) & 63)
	return s
}

// pop removes the lowest square of a set that is not empty and returns it.
func (s *sqset) pop() int {
	if s[0] != 0 {
		i := bits.TrailingZeros64(s[0])
		s[0] &= s[0] - 1
		return i
	}
	i := bits.TrailingZeros64(s[1])
	s[1] &= s[1] - 1
	return 64 + i
}
