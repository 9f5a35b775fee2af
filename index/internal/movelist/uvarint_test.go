package movelist

import (
	"encoding/binary"
	"math/rand/v2"
	"testing"
)

// TestDecoderUvarint reads values of every length, canonical or padded with
// 0x80 bytes, whole, truncated and overflowing, at every offset of a
// buffer, and expects binary.Uvarint's answers (a value and its length, or
// a failure).
func TestDecoderUvarint(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var cases [][]byte
	for bitsN := 0; bitsN <= 64; bitsN++ {
		for range 20 {
			v := r.Uint64()
			if bitsN < 64 {
				v &= 1<<bitsN - 1
			}
			b := binary.AppendUvarint(nil, v)
			cases = append(cases, b)
			if len(b) < 10 { // the same value with a redundant 0x80 byte
				p := append([]byte(nil), b...)
				p[len(p)-1] |= 0x80
				cases = append(cases, append(p, 0))
			}
			cases = append(cases, b[:len(b)-1]) // truncated
		}
	}
	cases = append(cases,
		[]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01},       // 1<<64 - 1
		[]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02},       // overflow
		[]byte{0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00}, // too long
	)
	for _, c := range cases {
		for pad := 0; pad < 10; pad++ {
			for _, tail := range [][]byte{nil, {5}, {0x81, 0x82, 0x83, 0x84, 0x85, 0x86, 0x87, 0x88, 0x89}} {
				buf := append(append(make([]byte, pad), c...), tail...)
				d := Decoder{b: buf, i: pad}
				got := d.Uvarint()
				want, n := binary.Uvarint(buf[pad:])
				if n <= 0 {
					if d.err == nil || got != 0 || d.Uvarint() != 0 || d.err == nil {
						t.Fatalf("% x at %d: read %d, want a failure, and 0 after it", buf, pad, got)
					}
					continue
				}
				if d.err != nil || got != want || d.i != pad+n || d.Rest() != len(buf)-pad-n {
					t.Fatalf("% x at %d: %d (to %d, %v), want %d (to %d)", buf, pad, got, d.i, d.err, want, pad+n)
				}
			}
		}
	}
}
