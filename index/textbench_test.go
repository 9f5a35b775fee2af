package index

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/mapping"
	"github.com/blevesearch/bleve/v2/search/query"

	"github.com/plateau/plateau/record"
	"github.com/plateau/plateau/replay"
	"github.com/plateau/plateau/replay/generate"
	"github.com/plateau/plateau/rules"

	_ "github.com/plateau/plateau/rules/ogi"
)

var textBench struct {
	once  sync.Once
	games []*prepared
	err   error
}

// textBenchGames prepares PLATEAU_TEXT_N (default 50,000) generated Ōgi
// games (seed 1) as the import's workers do, once per process.
func textBenchGames(b *testing.B) []*prepared {
	textBench.once.Do(func() {
		n := 50000
		if v, err := strconv.Atoi(os.Getenv("PLATEAU_TEXT_N")); err == nil && v > 0 {
			n = v
		}
		g, err := rules.Lookup("ogi")
		if err != nil {
			textBench.err = err
			return
		}
		gen, err := generate.New(g, 1)
		if err != nil {
			textBench.err = err
			return
		}
		var buf bytes.Buffer
		if _, err := gen.Write(context.Background(), &buf, n, generate.Options{}); err != nil {
			textBench.err = err
			return
		}
		r := record.NewReader(&buf, "g.pdn")
		p := newPreparer(replay.Options{}, nil)
		for {
			rec, err := r.Next()
			if errors.Is(err, io.EOF) {
				break
			}
			pr := p.prepare(Record{Game: rec, Err: err, File: "g.pdn"})
			if pr.valid {
				textBench.games = append(textBench.games, pr)
			}
		}
	})
	if textBench.err != nil {
		b.Fatal(textBench.err)
	}
	return textBench.games
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkTextIndex indexes the valid games of PLATEAU_TEXT_N generated Ōgi
// games into a fresh text index as an import does: documents built per
// commit (docOf), commits of a tenth of the games indexed so far (5000 to
// 50,000), the index opened, written in batches, merged and closed per
// commit (withText). It reports wall and CPU (all threads: analysis
// workers, persister, merges) time, bytes and allocations per document,
// and the size of the index on disk per document (disk-B/doc).
func BenchmarkTextIndex(b *testing.B) {
	games := textBenchGames(b)
	b.ReportAllocs()
	b.ResetTimer()
	var wall, cpu time.Duration
	var bytes, allocs uint64
	var disk int64
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		db := &DB{dir: b.TempDir()}
		runtime.GC()
		var m0, m1 runtime.MemStats
		runtime.ReadMemStats(&m0)
		c0, t0 := cpuTime(), time.Now()
		b.StartTimer()
		for done := 0; done < len(games); {
			n := min(max(done/10, 5000), 50000, len(games)-done)
			docs := make([]textDoc, 0, n)
			for j, p := range games[done : done+n] {
				docs = append(docs, docOf(int64(done+j+1), p))
			}
			if err := db.withText(func(idx bleve.Index) error { return indexDocs(idx, docs) }); err != nil {
				b.Fatal(err)
			}
			done += n
		}
		b.StopTimer()
		wall += time.Since(t0)
		cpu += cpuTime() - c0
		runtime.ReadMemStats(&m1)
		bytes += m1.TotalAlloc - m0.TotalAlloc
		allocs += m1.Mallocs - m0.Mallocs
		disk += dirSize(db.textPath(), nil)
		b.StartTimer()
	}
	d := float64(b.N * len(games))
	b.ReportMetric(float64(wall.Nanoseconds())/d, "ns/doc")
	b.ReportMetric(float64(cpu.Nanoseconds())/d, "cpu-ns/doc")
	b.ReportMetric(float64(bytes)/d, "B/doc")
	b.ReportMetric(float64(allocs)/d, "allocs/doc")
	b.ReportMetric(float64(disk)/d, "disk-B/doc")
}

// BenchmarkTextQuery runs query strings on the text index of
// PLATEAU_TEXT_N generated Ōgi games as written now (textQuery over the
// text fields, no _all) and as written before 2026-12 (the query string as
// Bleve parses it, over _all).
func BenchmarkTextQuery(b *testing.B) {
	games := textBenchGames(b)
	docs := make([]textDoc, len(games))
	for i, p := range games {
		docs[i] = docOf(int64(i+1), p)
	}
	m, err := textMapping()
	if err != nil {
		b.Fatal(err)
	}
	dir := b.TempDir()
	now, old := filepath.Join(dir, "now"), filepath.Join(dir, "old")
	benchTextIndex(b, now, m, docs, false)
	benchTextIndex(b, old, allTextMapping(b), docs, true)
	queries := []string{"garnier", "bruxelles open", "+garnier -bruxelles", "gar*", "garnir~1", "/brux.*/",
		"players:garnier", "*"}
	for _, ix := range []struct {
		name, path string
		parse      func(string) (query.Query, error)
	}{
		{"now", now, textQuery},
		{"_all", old, func(q string) (query.Query, error) { return bleve.NewQueryStringQuery(q).Parse() }},
	} {
		idx, err := bleve.Open(ix.path)
		if err != nil {
			b.Fatal(err)
		}
		for _, q := range queries {
			b.Run(ix.name+"/"+q, func(b *testing.B) {
				b.ReportAllocs()
				hits := 0
				for i := 0; i < b.N; i++ {
					qq, err := ix.parse(q)
					if err != nil {
						b.Fatal(err)
					}
					res, err := idx.Search(bleve.NewSearchRequestOptions(qq, 1_000_000, 0, false))
					if err != nil {
						b.Fatal(err)
					}
					hits = len(res.Hits)
				}
				b.ReportMetric(float64(hits), "hits")
			})
		}
		idx.Close()
	}
}

// benchTextIndex writes docs into a new index at path in batches of
// bleveBatch, merged as an import merges them, each document with _all if
// withAll.
func benchTextIndex(b *testing.B, path string, m mapping.IndexMapping, docs []textDoc, withAll bool) {
	idx, err := bleve.New(path, m)
	if err != nil {
		b.Fatal(err)
	}
	defer idx.Close()
	bd, err := newDocBuilder(m)
	if err != nil {
		b.Fatal(err)
	}
	for i := 0; i < len(docs); i += bleveBatch {
		bt := idx.NewBatch()
		for n := i; n < min(i+bleveBatch, len(docs)); n++ {
			doc := bd.build(&docs[n])
			if withAll {
				doc = buildWithAll(bd, &docs[n])
			}
			if err := bt.IndexAdvanced(doc); err != nil {
				b.Fatal(err)
			}
		}
		if err := idx.Batch(bt); err != nil {
			b.Fatal(err)
		}
		if err := mergeText(idx); err != nil {
			b.Fatal(err)
		}
	}
}
