package writer

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"syscall"
	"testing"
	"time"

	"github.com/plateau/plateau/record"
	"github.com/plateau/plateau/replay"
	"github.com/plateau/plateau/replay/generate"
	"github.com/plateau/plateau/rules"

	_ "github.com/plateau/plateau/rules/ogi"
)

// prepareBenchText is the collection of BenchmarkPrepare: the file
// PLATEAU_BENCH_FILE, else 2,000 generated Ōgi games (seed 1).
func prepareBenchText(b *testing.B) []byte {
	if f := os.Getenv("PLATEAU_BENCH_FILE"); f != "" {
		text, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		return text
	}
	g, err := rules.Lookup("ogi")
	if err != nil {
		b.Fatal(err)
	}
	gen, err := generate.New(g, 1)
	if err != nil {
		b.Fatal(err)
	}
	var buf bytes.Buffer
	if _, err := gen.Write(context.Background(), &buf, 2000, generate.Options{}); err != nil {
		b.Fatal(err)
	}
	return buf.Bytes()
}

// benchRecords reads text as the import's reader does (importers.Source).
func benchRecords(b *testing.B, text []byte) []Record {
	r := record.NewReader(bytes.NewReader(text), "bench.pdn")
	var recs []Record
	for {
		g, err := r.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		var re *record.Error
		if err != nil && !errors.As(err, &re) {
			b.Fatal(err)
		}
		recs = append(recs, Record{Game: g, Err: err, File: "bench.pdn"})
	}
	for i := 1; i < len(recs); i++ {
		recs[i-1].Size = recOffset(&recs[i]) - recOffset(&recs[i-1])
	}
	return recs
}

// BenchmarkPrepare measures the import's per-game work before the
// database writer, one op per game: "read" reads records (record.Reader),
// "prepare" runs a worker's preparer on records read beforehand (replay,
// canonical text, rows), "both" does the two in turn as an import does.
func BenchmarkPrepare(b *testing.B) {
	text := prepareBenchText(b)
	recs := benchRecords(b, text)
	if len(recs) == 0 {
		b.Fatal("no records")
	}
	ropts := replay.Options{DefaultGame: "draughts"}
	// read reads the next game of text, starting again at its end; as in
	// the chunker, a record's Size is known when the next one is read.
	newRead := func() func() Record {
		r := record.NewReader(bytes.NewReader(text), "bench.pdn")
		next := func() Record {
			g, err := r.Next()
			if errors.Is(err, io.EOF) {
				r.Reset(bytes.NewReader(text), "bench.pdn")
				g, err = r.Next()
			}
			var re *record.Error
			if err != nil && !errors.As(err, &re) {
				b.Fatal(err)
			}
			return Record{Game: g, Err: err, File: "bench.pdn"}
		}
		ahead := next()
		return func() Record {
			rec := ahead
			ahead = next()
			if off := recOffset(&ahead); off > recOffset(&rec) {
				rec.Size = off - recOffset(&rec)
			}
			return rec
		}
	}
	b.Run("read", func(b *testing.B) {
		read := newRead()
		b.ReportAllocs()
		b.ResetTimer()
		cpu0 := cpuTime()
		for i := 0; i < b.N; i++ {
			read()
		}
		b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "games/s")
		b.ReportMetric(float64((cpuTime()-cpu0).Nanoseconds())/float64(b.N), "cpu-ns/game")
	})
	b.Run("prepare", func(b *testing.B) {
		p := newPreparer(ropts)
		b.ReportAllocs()
		b.ResetTimer()
		cpu0 := cpuTime()
		for i := 0; i < b.N; i++ {
			if out := p.prepare(recs[i%len(recs)]); !out.Valid {
				b.Fatalf("record %d: %+v", i%len(recs), out.Err)
			}
		}
		b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "games/s")
		b.ReportMetric(float64((cpuTime()-cpu0).Nanoseconds())/float64(b.N), "cpu-ns/game")
	})
	b.Run("both", func(b *testing.B) {
		read := newRead()
		p := newPreparer(ropts)
		b.ReportAllocs()
		b.ResetTimer()
		cpu0 := cpuTime()
		for i := 0; i < b.N; i++ {
			if out := p.prepare(read()); !out.Valid {
				b.Fatalf("game %d: %+v", i, out.Err)
			}
		}
		b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "games/s")
		b.ReportMetric(float64((cpuTime()-cpu0).Nanoseconds())/float64(b.N), "cpu-ns/game")
	})
}

// cpuTime is the processor time of the process so far, user and system.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
