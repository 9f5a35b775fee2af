package textindex

import (
	"bufio"
	"bytes"
	"context"
	"encoding/gob"
	"errors"
	"fmt"
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
	bindex "github.com/blevesearch/bleve_index_api"
	segment "github.com/blevesearch/scorch_segment_api/v2"
	zap "github.com/blevesearch/zapx/v16"

	"github.com/plateau/plateau/record"
	"github.com/plateau/plateau/replay/generate"
	"github.com/plateau/plateau/rules"

	_ "github.com/plateau/plateau/rules/ogi"
)

var textBench struct {
	once sync.Once
	docs []Doc
	err  error
}

// textBenchDocs returns the text documents (gameDoc, ids 1…) of the valid
// games of PLATEAU_TEXT_N (default 50,000) generated Ōgi games (seed 1),
// made as the import makes them, once per process. With
// PLATEAU_TEXT_CACHE set to a file name, the documents are read from that
// file if it holds them (gob) and written to it otherwise.
func textBenchDocs(b *testing.B) []Doc {
	textBench.once.Do(func() {
		n := 50000
		if v, err := strconv.Atoi(os.Getenv("PLATEAU_TEXT_N")); err == nil && v > 0 {
			n = v
		}
		cache := os.Getenv("PLATEAU_TEXT_CACHE")
		if cache != "" {
			if docs, err := readBenchDocs(cache, n); err == nil {
				textBench.docs = docs
				return
			}
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
		for {
			rec, err := r.Next()
			if errors.Is(err, io.EOF) {
				break
			}
			if d, ok := gameDoc(int64(len(textBench.docs)+1), rec, err); ok {
				textBench.docs = append(textBench.docs, d)
			}
		}
		if cache != "" {
			textBench.err = writeBenchDocs(cache, n, textBench.docs)
		}
	})
	if textBench.err != nil {
		b.Fatal(textBench.err)
	}
	return textBench.docs
}

// benchDoc is a Doc as the benchmarks' cache file holds it.
type benchDoc struct {
	ID                                                            int64
	Game, Result, Date, Players, Event, Site, Annotator, Comments string
}

func readBenchDocs(path string, n int) ([]Doc, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var c struct {
		N    int
		Docs []benchDoc
	}
	if err := gob.NewDecoder(bufio.NewReader(f)).Decode(&c); err != nil {
		return nil, err
	}
	if c.N != n {
		return nil, fmt.Errorf("%s holds the documents of %d games, not %d", path, c.N, n)
	}
	docs := make([]Doc, len(c.Docs))
	for i, d := range c.Docs {
		docs[i] = Doc{ID: d.ID, Game: d.Game, Result: d.Result, Date: d.Date, Players: d.Players,
			Event: d.Event, Site: d.Site, Annotator: d.Annotator, Comments: d.Comments}
	}
	return docs, nil
}

func writeBenchDocs(path string, n int, docs []Doc) error {
	c := struct {
		N    int
		Docs []benchDoc
	}{N: n}
	for _, d := range docs {
		c.Docs = append(c.Docs, benchDoc{d.ID, d.Game, d.Result, d.Date, d.Players, d.Event, d.Site, d.Annotator, d.Comments})
	}
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(&c); err != nil {
		return err
	}
	return os.WriteFile(path, buf.Bytes(), 0o644)
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkTextIndex indexes the valid games of PLATEAU_TEXT_N generated Ōgi
// games (textBenchDocs) into a fresh text index as an import does: commits
// of a tenth of the games indexed so far (5000 to 50,000), or of
// PLATEAU_TEXT_COMMIT documents if set (an import's turns are of 10,000),
// the index opened, written in batches of Batch documents
// (PLATEAU_TEXT_BATCH if set) by one Builder, merged and closed per
// commit (withText). It reports wall and CPU (all threads: analysis
// workers, persister, merges) time, bytes and allocations per document,
// and the size of the index on disk per document (disk-B/doc).
func BenchmarkTextIndex(b *testing.B) {
	docs := textBenchDocs(b)
	batch := Batch
	if v, err := strconv.Atoi(os.Getenv("PLATEAU_TEXT_BATCH")); err == nil && v > 0 {
		batch = v
	}
	commitSize := func(done int) int { return min(max(done/10, 5000), 50000) }
	if v, err := strconv.Atoi(os.Getenv("PLATEAU_TEXT_COMMIT")); err == nil && v > 0 {
		commitSize = func(int) int { return v }
	}
	b.ReportAllocs()
	b.ResetTimer()
	var wall, cpu time.Duration
	var bytes, allocs uint64
	var disk int64
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		x := New(filepath.Join(b.TempDir(), "text.bleve"), false)
		runtime.GC()
		var m0, m1 runtime.MemStats
		runtime.ReadMemStats(&m0)
		c0, t0 := cpuTime(), time.Now()
		b.StartTimer()
		var bld Builder // one for every commit, as an import keeps one
		for done := 0; done < len(docs); {
			n := min(commitSize(done), len(docs)-done)
			commit := docs[done : done+n]
			if err := x.With(func(idx bleve.Index) error { return bld.AddBatches(idx, commit, batch) }); err != nil {
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
		disk += dirSize(x.Path())
		b.StartTimer()
	}
	d := float64(b.N * len(docs))
	b.ReportMetric(float64(wall.Nanoseconds())/d, "ns/doc")
	b.ReportMetric(float64(cpu.Nanoseconds())/d, "cpu-ns/doc")
	b.ReportMetric(float64(bytes)/d, "B/doc")
	b.ReportMetric(float64(allocs)/d, "allocs/doc")
	b.ReportMetric(float64(disk)/d, "disk-B/doc")
}

// BenchmarkTextQuery runs query strings on the text index of
// PLATEAU_TEXT_N generated Ōgi games as written now (Parse over the
// text fields, no _all) and as written before 2026-12 (the query string as
// Bleve parses it, over _all).
func BenchmarkTextQuery(b *testing.B) {
	docs := textBenchDocs(b)
	m, err := indexMapping()
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
		{"now", now, Parse},
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
// Batch, merged as an import merges them, each document with _all if
// withAll.
func benchTextIndex(b *testing.B, path string, m mapping.IndexMapping, docs []Doc, withAll bool) {
	idx, err := bleve.New(path, m)
	if err != nil {
		b.Fatal(err)
	}
	defer idx.Close()
	bd, err := newDocBuilder(m)
	if err != nil {
		b.Fatal(err)
	}
	for i := 0; i < len(docs); i += Batch {
		bt := idx.NewBatch()
		for n := i; n < min(i+Batch, len(docs)); n++ {
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
		if err := merge(idx); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSegmentNew makes the segment of 10,000 documents of
// textBenchDocs, analyzed as an index gives them to its segment plugin,
// with zap's New and with segmentPlugin's.
func BenchmarkSegmentNew(b *testing.B) {
	docs := textBenchDocs(b)
	docs = docs[:min(len(docs), 10000)]
	_, bd := testDocBuilder(b)
	results := make([]bindex.Document, len(docs))
	for i := range docs {
		d := bd.build(&docs[i])
		d.AddIDField()
		d.VisitFields(func(f bindex.Field) { f.Analyze() })
		results[i] = d
	}
	for _, p := range []struct {
		name string
		p    interface {
			New([]bindex.Document) (segment.Segment, uint64, error)
		}
	}{{"zap", &zap.ZapPlugin{}}, {"plugin", &segmentPlugin{}}} {
		b.Run(p.name, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				s, _, err := p.p.New(results)
				if err != nil {
					b.Fatal(err)
				}
				s.Close()
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(docs)), "ns/doc")
		})
	}
}
