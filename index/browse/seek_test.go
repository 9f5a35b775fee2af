package browse

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode"

	"golang.org/x/text/runes"
	"golang.org/x/text/transform"
	"golang.org/x/text/unicode/norm"

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
	importSampleOpenings(t, db)
	for _, sort := range []string{"", "game", "white", "black", "result", "event", "site", "date", "plies", "opening"} {
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
				if sort == "opening" {
					checkOpeningOrder(t, name, whole, desc)
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

// importSampleOpenings names the positions of the samples' files of names.
func importSampleOpenings(t *testing.T, db *index.DB) {
	t.Helper()
	for _, f := range []string{"openings-descriptive.tsv", "openings-checkers.tsv"} {
		b, err := os.ReadFile(filepath.Join("..", "..", "samples", f))
		if err != nil {
			t.Fatal(err)
		}
		es, errs := index.ReadOpenings(bytes.NewReader(b), f)
		if _, errs2, err := db.ImportOpenings(context.Background(), es); err != nil || len(errs)+len(errs2) > 0 {
			t.Fatalf("%s: %v %v %v", f, errs, errs2, err)
		}
	}
}

// checkOpeningOrder: a whole list by opening has its named games first,
// by folded name in the list's direction, and enough of both kinds that
// its pages cross from one to the other.
func checkOpeningOrder(t *testing.T, name string, whole web.ListPage, desc bool) {
	t.Helper()
	named := 0
	for i, g := range whole.Games {
		if g.Opening == "" {
			continue
		}
		named++
		if i > 0 && whole.Games[i-1].Opening == "" {
			t.Fatalf("%s: game %d named after an unnamed one", name, g.N)
		}
		if i == 0 {
			continue
		}
		a, b := folded(whole.Games[i-1].Opening), folded(g.Opening)
		if (!desc && a > b) || (desc && a < b) {
			t.Fatalf("%s: %q before %q", name, whole.Games[i-1].Opening, g.Opening)
		}
	}
	if named < 10 || len(whole.Games)-named < 10 {
		t.Fatalf("%s: %d named games of %d, want 10 of each kind at least", name, named, len(whole.Games))
	}
}

// folded is a name as the database folds it to sort (lower case, accents
// removed, punctuation one space).
func folded(s string) string {
	t := transform.Chain(norm.NFD, runes.Remove(runes.In(unicode.Mn)), norm.NFC)
	r, _, _ := transform.String(t, s)
	return strings.Join(strings.FieldsFunc(strings.ToLower(r), func(c rune) bool { return !unicode.IsLetter(c) && !unicode.IsDigit(c) }), " ")
}
