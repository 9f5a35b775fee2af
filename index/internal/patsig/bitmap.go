package patsig

import "math/bits"

// bitmap is a set of codes or slots (0 to 255) as a version-2 signature
// writes it: its length in bytes, then its bytes, bit i%8 of byte i/8
// for i, without its trailing zero bytes.
type bitmap struct {
	b [32]byte
	n int // bytes up to the last non-zero one
}

func (m *bitmap) set(i int) {
	m.b[i/8] |= 1 << (i % 8)
	m.n = max(m.n, i/8+1)
}

func (m *bitmap) append(dst []byte) []byte {
	return append(append(dst, byte(m.n)), m.b[:m.n]...)
}

// readBitmap reads a bitmap at b[i:]: its bytes and the index after it;
// false when b is too short.
func readBitmap(b []byte, i int) (m []byte, next int, ok bool) {
	if i >= len(b) {
		return nil, 0, false
	}
	n := int(b[i])
	if n > 32 || len(b) < i+1+n {
		return nil, 0, false
	}
	return b[i+1 : i+1+n], i + 1 + n, true
}

// count is the number of members of the bitmap m.
func count(m []byte) int {
	n := 0
	for _, c := range m {
		n += bits.OnesCount8(c)
	}
	return n
}
