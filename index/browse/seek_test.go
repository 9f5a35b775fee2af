package browse

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/plateau/plateau/index"
	"github.com/plateau/plateau/internal/ingest"
	"github.com/plateau/plateau/replay"
	"github.com/plateau/plateau/replay/web"
	_ "github.com/plateau/plateau/rules/all"
)

func ids(p web.ListPage) []int {
	var out []int
	for _, g := range p.Games {
		out = append(out, g.N)
	}
	return out
}

// TestSeekPaging: in every order, the pages read forwards by Next cursors
// and backwards by Prev cursors, and the deep pages read through a page
// index, are the pages of the whole list (games of no player, event or
// site included: NULL values).
func TestSeekPaging(t *testing.T) {
	ctx := context.Background()
	db, err := index.Open(ctx, t.TempDir(), index.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var paths []string
	for _, d := range []string{"ogi", "dames", "jetan", "dejarik", "sauts", "draughts", "broken"} {
		paths = append(paths, filepath.Join("..", "..", "samples", d))
	}
	if _, err := ingest.Files(ctx, db, paths, ingest.Options{}); err != nil {
		t.Fatal(err)
	}
	for _, sort := range []string{"", "game", "white", "black", "result", "event", "site", "date", "plies"} {
		for _, desc := range []bool{false, true} {
			for _, valid := range []string{"valid", ""} {
				name := fmt.Sprintf("sort=%s desc=%v valid=%q", sort, desc, valid)
				src := New(db, replay.Options{})
				src.every, src.from = 5, 10
				q := web.ListQuery{Valid: valid, Sort: sort, Desc: desc}
				all := q
				all.Limit = web.MaxLimit
				whole, err := src.List(ctx, all)
				if err != nil {
					t.Fatal(err)
				}
				want := ids(whole)
				if len(want) < 30 {
					t.Fatalf("%s: %d games, too few for the test", name, len(want))
				}
				// Forwards by cursors.
				var fwd []int
				var pages []web.ListPage
				q.Limit = 7
				for page, n := q, 0; ; n++ {
					p, err := src.List(ctx, page)
					if err != nil {
						t.Fatalf("%s: page %d: %v", name, n, err)
					}
					fwd = append(fwd, ids(p)...)
					pages = append(pages, p)
					if p.Next == "" || n > len(want) {
						break
					}
					page.After = p.Next
				}
				if !slices.Equal(fwd, want) {
					t.Fatalf("%s: forwards by cursors\n%v, want\n%v", name, fwd, want)
				}
				// Backwards from the last page.
				var back []int
				for page, i := q, len(pages)-1; i > 0; i-- {
					page.After, page.Before = "", pages[i].Prev
					if page.Before == "" {
						t.Fatalf("%s: page %d has no cursor back", name, i)
					}
					p, err := src.List(ctx, page)
					if err != nil {
						t.Fatal(err)
					}
					if !slices.Equal(ids(p), ids(pages[i-1])) {
						t.Fatalf("%s: back from page %d: %v, want %v", name, i, ids(p), ids(pages[i-1]))
					}
					back = append(ids(p), back...)
				}
				if len(pages) > 1 && !slices.Equal(back, want[:len(back)]) {
					t.Fatalf("%s: backwards %v", name, back)
				}
				// Deep offsets: the first makes the page index, and each
				// is a seek through it.
				for _, off := range []int{12, 23, len(want) - 3} {
					q.Offset, q.Limit = off, 7+off%3
					p, err := src.List(ctx, q)
					if err != nil || !slices.Equal(ids(p), want[off:min(off+q.Limit, len(want))]) {
						t.Fatalf("%s: offset %d: %v, %v", name, off, ids(p), err)
					}
				}
				key := q
				key.Offset, key.Limit = 0, 0
				deadline := time.Now().Add(10 * time.Second)
				for {
					last, _ := db.Version(ctx)
					if pi, ok := src.indexes.get(key, last); ok {
						<-pi.done
						if len(pi.cursors) != len(want)/5 || pi.n != len(want) {
							t.Fatalf("%s: page index of %d cursors, %d games, want %d, %d", name, len(pi.cursors), pi.n, len(want)/5, len(want))
						}
						break
					}
					if time.Now().After(deadline) {
						t.Fatalf("%s: no page index", name)
					}
					time.Sleep(10 * time.Millisecond)
				}
				for _, off := range []int{10, 14, 23, len(want) - 3, len(want) + 4} {
					q.Offset, q.Limit = off, 6+off%4
					p, err := src.List(ctx, q)
					if err != nil {
						t.Fatal(err)
					}
					if got, w := ids(p), want[min(off, len(want)):min(off+q.Limit, len(want))]; !slices.Equal(got, w) {
						t.Fatalf("%s: offset %d through the index: %v, want %v", name, off, got, w)
					}
				}
			}
		}
	}
}
