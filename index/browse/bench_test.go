package browse

import (
	"context"
	"encoding/json"
	"io"
	"math/rand/v2"
	"net/url"
	"os"
	"testing"

	"github.com/plateau/plateau/index"
	"github.com/plateau/plateau/replay"
	"github.com/plateau/plateau/replay/web"
)

// BenchmarkSource measures the work of the server's requests on the
// database $PLATEAU_BENCH_DB (e.g. the million games of
// scripts/serve-load.sh), JSON encoding included: a game, a list page, a
// tree and a position's games (uncached: a new Source each time for the
// last three). Skipped without the variable.
func BenchmarkSource(b *testing.B) {
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
	last, err := db.LastID(ctx)
	if err != nil || last == 0 {
		b.Fatal(last, err)
	}
	src := New(db, replay.Options{})
	r := rand.New(rand.NewPCG(1, 2))
	d, err := src.Detail(ctx, 1)
	if err != nil {
		b.Fatal(err)
	}
	var fens []string
	for _, n := range d.Nodes[:min(len(d.Nodes), 12)] {
		fens = append(fens, n.FEN)
	}
	enc := json.NewEncoder(io.Discard)
	b.Run("game", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			d, err := src.Detail(ctx, 1+r.IntN(int(last)))
			if err != nil {
				b.Fatal(err)
			}
			enc.Encode(d)
		}
	})
	b.Run("list page", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			s := New(db, replay.Options{})
			p, err := s.List(ctx, web.ListQuery{Valid: "valid", Offset: 100 * r.IntN(100), Limit: 100})
			if err != nil {
				b.Fatal(err)
			}
			enc.Encode(p)
		}
	})
	b.Run("tree", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			s := New(db, replay.Options{})
			t, err := s.Tree(ctx, "ogi", fens[r.IntN(len(fens))], "")
			if err != nil {
				b.Fatal(err)
			}
			enc.Encode(t)
		}
	})
	b.Run("position lookup", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			s := New(db, replay.Options{})
			p, err := s.List(ctx, web.ListQuery{Game: "ogi", Criteria: url.Values{"position": {fens[r.IntN(len(fens))]}}.Encode(), Limit: 10})
			if err != nil {
				b.Fatal(err)
			}
			enc.Encode(p)
		}
	})
}
