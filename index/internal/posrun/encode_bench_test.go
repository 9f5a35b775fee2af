package posrun

import (
	"math/rand/v2"
	"testing"
)

// BenchmarkEncode sorts and encodes a commit's occurrences (50,000 games
// of 90 plies: keys hashes, a quarter of them shared by many games) as a
// run's blocks, its filter and its key counts.
func BenchmarkEncode(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	src := make([]Pos, 4_500_000)
	for i := range src {
		k := int64(r.Uint64())
		if i%4 == 0 {
			k = int64(uint64(r.Int64N(1000)+1) * 0x9e3779b97f4a7c15)
		}
		src[i] = Pos{k, PackAt(int64(1+i/90), i%90, 0)}
	}
	ps := make([]Pos, len(src))
	var s Scratch
	b.ReportAllocs()
	b.SetBytes(int64(len(src))) // "MB/s": millions of occurrences a second
	for b.Loop() {
		copy(ps, src)
		Encode(ps, &s)
	}
}
