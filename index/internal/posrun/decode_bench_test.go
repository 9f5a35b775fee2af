package posrun

import (
	"math/rand/v2"
	"testing"
)

// BenchmarkBlockDecode decodes the blocks of 90,000 occurrences of hash
// keys (1,000 games of 90 positions), packed and legacy, by
// blockDecoder.next (a lookup) and whole (decodeBlock: a merge).
func BenchmarkBlockDecode(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	ps := make([]Pos, 90000)
	for i := range ps {
		ps[i] = Pos{int64(r.Uint64()), PackAt(1+r.Int64N(150000), r.IntN(90), 0)}
	}
	sortPositions(ps, nil)
	for _, legacy := range []bool{false, true} {
		var blocks [][]byte
		emit := func(_ int64, data []byte) error { blocks = append(blocks, append([]byte(nil), data...)); return nil }
		var enc occEncoder = newBlockEncoder(emit)
		name := "packed"
		if legacy {
			enc, name = &legacyEncoder{emit: emit}, "legacy"
		}
		for _, p := range ps {
			enc.add(p.Key, p.At)
		}
		enc.flush()
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			d := blockDecoder{legacy: legacy}
			for b.Loop() {
				for _, blk := range blocks {
					d.reset(blk)
					for d.next() {
					}
				}
			}
		})
		b.Run(name+"-whole", func(b *testing.B) {
			b.ReportAllocs()
			d := blockDecoder{legacy: legacy}
			var occs []occ
			for b.Loop() {
				for _, blk := range blocks {
					d.reset(blk)
					occs, _ = decodeBlock(occs[:0], &d)
				}
			}
		})
	}
}
