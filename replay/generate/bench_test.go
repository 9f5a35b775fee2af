package generate_test

import (
	"context"
	"io"
	"syscall"
	"testing"
	"time"

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
			cpu0 := cpuTime()
			b.ResetTimer()
			st, err := gen.Write(context.Background(), io.Discard, b.N, generate.Options{Workers: 1})
			if err != nil {
				b.Fatal(err)
			}
			sec := b.Elapsed().Seconds()
			cpu := (cpuTime() - cpu0).Seconds()
			// On a shared machine the CPU time of the process is the fairer
			// figure for "one core".
			b.ReportMetric(float64(st.Games)/cpu, "games/cpu-s")
			b.ReportMetric(float64(st.Plies)/cpu, "plies/cpu-s")
			b.ReportMetric(float64(st.Games)/sec, "games/s")
			b.ReportMetric(float64(st.Plies)/sec, "plies/s")
			b.ReportMetric(float64(st.Bytes)/float64(st.Games), "bytes/game")
		})
	}
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkWriteParallel measures the generator on one worker per core
// (GOMAXPROCS: run it with -cpu 1,2 to see how it scales) for Ōgi: games
// per second, and per CPU second of the process (a second worker should
// cost next to nothing more).
func BenchmarkWriteParallel(b *testing.B) {
	g, err := rules.Lookup("ogi")
	if err != nil {
		b.Fatal(err)
	}
	gen, err := generate.New(g, 1)
	if err != nil {
		b.Fatal(err)
	}
	const games = 2000
	b.ReportAllocs()
	cpu0 := cpuTime()
	for b.Loop() {
		if _, err := gen.Write(context.Background(), io.Discard, games, generate.Options{}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(games*b.N)/b.Elapsed().Seconds(), "games/s")
	b.ReportMetric(float64(games*b.N)/(cpuTime()-cpu0).Seconds(), "games/cpu-s")
}
