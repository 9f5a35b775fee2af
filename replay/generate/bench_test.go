package generate_test

import (
	"context"
	"io"
	"testing"

	"github.com/plateau/plateau/replay/generate"
	"github.com/plateau/plateau/rules"
)

// BenchmarkWrite measures the generator on one core (one worker), for every
// registered game: games/s and plies/s of canonical text written.
func BenchmarkWrite(b *testing.B) {
	for _, g := range rules.Games() {
		b.Run(g.ID(), func(b *testing.B) {
			gen, err := generate.New(g, 1)
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			b.ResetTimer()
			st, err := gen.Write(context.Background(), io.Discard, b.N, generate.Options{Workers: 1})
			if err != nil {
				b.Fatal(err)
			}
			sec := b.Elapsed().Seconds()
			b.ReportMetric(float64(st.Games)/sec, "games/s")
			b.ReportMetric(float64(st.Plies)/sec, "plies/s")
			b.ReportMetric(float64(st.Bytes)/float64(st.Games), "bytes/game")
		})
	}
}
