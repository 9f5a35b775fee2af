package index_test

import (
	"context"
	"os"
	"testing"

	"github.com/plateau/plateau/index"
)

// BenchmarkListSort measures the game list's pages in each order on the
// database $PLATEAU_BENCH_DB, opened read-only (e.g. a copy of a million
// generated Ōgi games with names imported: plateau openings import
// samples/openings-descriptive.tsv): the first page of 100 valid games,
// and the page after it by its cursor; "opening=" adds a search by an
// opening's name (PLATEAU_BENCH_OPENING, default "Ōgi"). Skipped without
// the variable.
func BenchmarkListSort(b *testing.B) {
	dir := os.Getenv("PLATEAU_BENCH_DB")
	if dir == "" {
		b.Skip("PLATEAU_BENCH_DB names no database")
	}
	ctx := context.Background()
	db, err := index.Open(ctx, dir, index.Options{ReadOnly: true})
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	opening := os.Getenv("PLATEAU_BENCH_OPENING")
	if opening == "" {
		opening = "Ōgi"
	}
	for _, c := range []struct {
		name string
		q    index.Query
	}{{"all", index.Query{Limit: 100}}, {"opening=", index.Query{Limit: 100, Opening: opening}}} {
		for _, sort := range []string{"id", "date", "event", "white", "opening"} {
			for _, desc := range []bool{false, true} {
				o := index.ListOptions{Sort: sort, Desc: desc}
				name := c.name + "/" + sort
				if desc {
					name += "-desc"
				}
				b.Run(name+"/first", func(b *testing.B) {
					b.ReportAllocs()
					for b.Loop() {
						if _, _, err := db.List(ctx, c.q, o); err != nil {
							b.Fatal(err)
						}
					}
				})
				_, cursors, err := db.List(ctx, c.q, o)
				if err != nil || len(cursors) == 0 {
					b.Fatal(len(cursors), err)
				}
				o.After = &cursors[len(cursors)-1]
				b.Run(name+"/next", func(b *testing.B) {
					b.ReportAllocs()
					for b.Loop() {
						if _, _, err := db.List(ctx, c.q, o); err != nil {
							b.Fatal(err)
						}
					}
				})
			}
		}
	}
}
