package generate_test

import (
	"testing"

	"github.com/plateau/plateau/rules"
)

func BenchmarkDevFloor(b *testing.B) {
	g, _ := rules.Lookup("ogi")
	start, _ := g.NewPosition("")
	var legal []rules.Move
	plies := 0
	cpu0 := cpuTime()
	var x uint64 = 1
	for i := 0; i < b.N; i++ {
		p := start.Clone()
		for k := 0; k < 80 && !p.Outcome().Over; k++ {
			legal = p.Legal(legal[:0])
			n := 0
			for _, m := range legal {
				n += p.Describe(m).Captures
			}
			x = x*6364136223846793005 + 1442695040888963407
			p.Play(legal[(x>>33)%uint64(len(legal))])
			plies++
		}
	}
	b.ReportMetric(float64(plies)/(cpuTime()-cpu0).Seconds(), "plies/cpu-s")
	b.ReportMetric(float64(len(legal)), "lastlegal")
}
