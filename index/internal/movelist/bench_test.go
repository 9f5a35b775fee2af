package movelist

import (
	"math/rand/v2"
	"testing"

	"github.com/plateau/plateau/replay"
	"github.com/plateau/plateau/rules"
)

// ogiLike is a main line of n Ōgi-like move values (origin, destination,
// flags, piece and, one move in 0.4, a captured piece), with a variation
// every 200 steps.
func ogiLike(r *rand.Rand, n int) []*replay.Step {
	out := make([]*replay.Step, n)
	for i := range out {
		m := uint64(r.IntN(64)) | uint64(r.IntN(64))<<6 | uint64(r.IntN(4))<<12 | uint64(r.IntN(2))<<15 | uint64(1+r.IntN(63))<<16
		if r.IntN(10) < 4 {
			m |= uint64(1+r.IntN(63)) << 24
		}
		out[i] = &replay.Step{Move: rules.Move(m)}
		if i%200 == 100 {
			out[i].Variations = [][]*replay.Step{ogiLike(r, 3)}
		}
	}
	return out
}

// BenchmarkStep reads every step of 100 lists of 90 Ōgi-like moves, as a
// pattern scan does: packed (layout 22) and legacy.
func BenchmarkStep(b *testing.B) {
	r := rand.New(rand.NewPCG(5, 6))
	var packed, legacy [][]byte
	for range 100 {
		main := ogiLike(r, 90)
		packed, legacy = append(packed, Encode(main)), append(legacy, appendLine(nil, main))
	}
	for _, c := range []struct {
		name  string
		lists [][]byte
	}{{"packed", packed}, {"legacy", legacy}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			var sum uint64
			for b.Loop() {
				for _, l := range c.lists {
					d := NewDecoder(l)
					for n := d.Uvarint(); n > 0; n-- {
						m, nv := d.Step()
						sum += uint64(m)
						for ; nv > 0; nv-- {
							SkipLine(&d)
						}
					}
				}
			}
			if sum == 0 {
				b.Fatal("no move read")
			}
		})
	}
}
