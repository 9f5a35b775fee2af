package posrun

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// bitsRef appends bits one at a time, LSB first: the reference bitWriter's
// output is checked against.
type bitsRef struct {
	out []byte
	n   uint
}

func (r *bitsRef) bit(b uint64) {
	if r.n%8 == 0 {
		r.out = append(r.out, 0)
	}
	r.out[len(r.out)-1] |= byte(b&1) << (r.n % 8)
	r.n++
}

func (r *bitsRef) bitsOf(v uint64, n uint) {
	for i := range n {
		r.bit(v >> i)
	}
}

// rice is the block format's Rice code, written as the format says: q
// zero bits, a 1 bit and v's low k bits, or riceEscape zero bits and v in
// 64 bits.
func (r *bitsRef) rice(v uint64, k uint8) {
	q := v >> k
	if q >= riceEscape {
		r.bitsOf(0, riceEscape)
		r.bitsOf(v, 64)
		return
	}
	r.bitsOf(0, uint(q))
	r.bit(1)
	r.bitsOf(v, uint(k))
}

// TestBitWriterAsReference writes random flags and Rice codes, escapes
// and codes longer than 64 bits included, and compares the bytes and the
// bit count with the reference written bit by bit.
func TestBitWriterAsReference(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for round := range 200 {
		var w bitWriter
		var ref bitsRef
		for range r.IntN(300) {
			fn := uint(r.IntN(2))
			flag := uint64(r.IntN(2)) & (1<<fn - 1)
			k := uint8(r.IntN(63))
			v := r.Uint64() >> r.IntN(64)
			if r.IntN(4) == 0 {
				v = r.Uint64N(1 << k * (riceEscape + 1)) // around the escape
			}
			w.rice(flag, fn, v, k)
			ref.bitsOf(flag, fn)
			ref.rice(v, k)
			if w.bits() != int(ref.n) {
				t.Fatalf("round %d: %d bits written, want %d", round, w.bits(), ref.n)
			}
		}
		if got := w.end(); !bytes.Equal(got, ref.out) {
			t.Fatalf("round %d: bytes\n%x\nwant\n%x", round, got, ref.out)
		}
	}
}
