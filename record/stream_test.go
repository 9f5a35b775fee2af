package record_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"syscall"
	"testing"
	"time"

	"github.com/plateau/plateau/record"
)

// genReader produces n games on the fly, a few hundred bytes at a time, so
// the input never exists in one buffer.
type genReader struct {
	n, i int
	buf  []byte
}

func gameText(i int) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "[Game \"dames\"]\n[Event \"Generated %d\"]\n[White \"Wit %d\"]\n[Black \"Zwart\"]\n[Result \"2-0\"]\n\n", i, i%97)
	for k := 1; k <= 40; k++ {
		fmt.Fprintf(&b, "%d. %d-%d %d-%d ", k, 30+k%20, 25+k%20, 1+k%20, 6+k%20)
		if k%10 == 0 {
			b.WriteString("{a comment} ")
		}
		if k%8 == 0 {
			b.WriteString("\n")
		}
	}
	b.WriteString("2-0\n\n")
	return b.Bytes()
}

func (g *genReader) Read(p []byte) (int, error) {
	for len(g.buf) == 0 {
		if g.i == g.n {
			return 0, io.EOF
		}
		g.buf = gameText(g.i)
		g.i++
	}
	n := copy(p, g.buf)
	g.buf = g.buf[n:]
	return n, nil
}

// A long generated stream is read game by game in bounded memory.
func TestStreamBoundedMemory(t *testing.T) {
	const games = 20000 // about 11 MB of text
	r := record.NewReader(&genReader{n: games}, "gen")
	var ms runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms)
	base := ms.HeapAlloc
	var peak uint64
	n := 0
	for {
		g, err := r.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if len(g.Moves) != 80 || g.Result != "2-0" {
			t.Fatalf("game %d: %d moves, result %q", n, len(g.Moves), g.Result)
		}
		n++
		if n%2000 == 0 {
			runtime.GC()
			runtime.ReadMemStats(&ms)
			if ms.HeapAlloc > peak {
				peak = ms.HeapAlloc
			}
		}
	}
	if n != games {
		t.Fatalf("%d games, want %d", n, games)
	}
	if peak > base+8<<20 {
		t.Errorf("live heap grew by %d bytes while streaming", peak-base)
	}
}

func BenchmarkReader(b *testing.B) {
	var text bytes.Buffer
	for i := 0; text.Len() < 4<<20; i++ {
		text.Write(gameText(i))
	}
	run := func(b *testing.B, data []byte) {
		b.SetBytes(int64(len(data)))
		b.ReportAllocs()
		r := record.NewReader(nil, "bench")
		games := 0
		cpu0 := processCPU()
		for i := 0; i < b.N; i++ {
			r.Reset(bytes.NewReader(data), "bench")
			for {
				_, err := r.Next()
				if errors.Is(err, io.EOF) {
					break
				}
				games++
			}
		}
		b.ReportMetric(float64(games)/b.Elapsed().Seconds(), "games/s")
		// CPU of every thread (the GC's too) a game: less disturbed by
		// other processes than the time.
		b.ReportMetric(float64((processCPU()-cpu0).Nanoseconds())/float64(games), "cpu-ns/game")
	}
	b.Run("generated", func(b *testing.B) { run(b, text.Bytes()) })
	if f := os.Getenv("PLATEAU_BENCH_FILE"); f != "" {
		// A collection of one's choice (as BenchmarkPrepare in index).
		d, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		b.Run("file", func(b *testing.B) { run(b, d) })
	}
	files, _ := filepath.Glob(filepath.Join(corpus, "pdn/succeed/*.pdn"))
	if len(files) == 0 {
		b.Logf("corpus %s is missing: the corpus sub-benchmark is skipped", corpus)
		return
	}
	var all bytes.Buffer
	for _, f := range files {
		d, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		all.Write(d)
		all.WriteString("\n")
	}
	b.Run("corpus", func(b *testing.B) { run(b, all.Bytes()) })
}

func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkAppendFormat writes the canonical text of games read from the
// generated text and, with PLATEAU_BENCH_FILE, of the first 5,000 games of
// that file, as the import's replay workers write each game's (MB/s of
// text written).
func BenchmarkAppendFormat(b *testing.B) {
	read := func(b *testing.B, data []byte) []*record.Game {
		var games []*record.Game
		r := record.NewReader(bytes.NewReader(data), "bench")
		for len(games) < 5000 {
			g, err := r.Next()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				b.Fatal(err)
			}
			games = append(games, g)
		}
		return games
	}
	run := func(b *testing.B, games []*record.Game) {
		var buf []byte
		size := 0
		for _, g := range games {
			size += len(record.AppendFormat(buf[:0], g))
		}
		b.SetBytes(int64(size))
		b.ReportAllocs()
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			for _, g := range games {
				buf = record.AppendFormat(buf[:0], g)
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(games)), "ns/game")
	}
	var text bytes.Buffer
	for i := 0; i < 5000; i++ {
		text.Write(gameText(i))
	}
	b.Run("generated", func(b *testing.B) { run(b, read(b, text.Bytes())) })
	if f := os.Getenv("PLATEAU_BENCH_FILE"); f != "" {
		d, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		b.Run("file", func(b *testing.B) { run(b, read(b, d)) })
	}
}

func BenchmarkFormat(b *testing.B) {
	g, err := record.NewReader(bytes.NewReader(gameText(1)), "b").Next()
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		record.Hash(g)
	}
}
