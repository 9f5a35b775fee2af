package textindex

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/blevesearch/bleve/v2"
)

// searchWithin runs x.Search in the background and fails the test when it
// has not answered within d (the search goes on: the test binary ends).
func searchWithin(t *testing.T, x *Index, ctx context.Context, q string, d time.Duration) ([]int64, error) {
	t.Helper()
	type answer struct {
		ids []int64
		err error
	}
	ch := make(chan answer, 1)
	start := time.Now()
	go func() {
		ids, err := x.Search(ctx, q, 1_000_000)
		ch <- answer{ids, err}
	}()
	select {
	case a := <-ch:
		t.Logf("%.40q: %d games, %v, in %v", q, len(a.ids), a.err, time.Since(start))
		return a.ids, a.err
	case <-time.After(d):
		t.Fatalf("%.40q (%d bytes): no answer after %v", q, len(q), d)
		return nil, nil
	}
}

// manyWordsDocs are n documents whose comments hold words of their own
// ("w00001"…), 20 each: 20n distinct terms of the comments field.
func manyWordsDocs(n int) []Doc {
	docs := make([]Doc, n)
	for i := range docs {
		var b strings.Builder
		for j := range 20 {
			fmt.Fprintf(&b, "w%05d ", i*20+j)
		}
		docs[i] = Doc{ID: int64(i + 1), Game: "ogi", Players: "A ; B", Comments: b.String()}
	}
	return docs
}

// TestTextPatternBounds: a word standing for many terms is refused, with
// a *QueryError, when it has too many wildcards, when its regular
// expression is too large or when it matches too many terms; every such
// query answers at once (a word of 300 wildcards was searched for
// minutes, past every deadline), and a query at the bounds answers.
func TestTextPatternBounds(t *testing.T) {
	x := New(filepath.Join(t.TempDir(), "text.bleve"), false)
	docs := append(textTestDocs(t, 200), manyWordsDocs(MaxExpansion/20+1)...)
	for i := range docs {
		docs[i].ID = int64(i + 1)
	}
	if err := x.Add(docs); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, c := range []struct {
		q       string
		refused bool
		says    string
	}{
		{strings.Repeat("a*", 300), true, "300 wildcards"},
		{strings.Repeat("a?", MaxWildcards+1), true, "wildcards"},
		{"players:" + strings.Repeat("*a", MaxWildcards+1), true, "wildcards"},
		{"/.{0,200}x.{0,200}/", true, "instructions"},
		{"/" + strings.Repeat("(a|b|c)*", 120) + "/", true, "instructions"},
		{"/a(/", true, "missing closing"},
		{"w*", true, "matches more than 10000 words of comments"},
		{"comments:/w.*/", true, "matches more than"},
		{strings.Repeat("a*", MaxWildcards/2), false, ""},
		{strings.Repeat("*a", MaxWildcards/2), false, ""},
		{"/(.*a){3}/", false, ""},
		{"/(.*a){4}.{0,50}/", false, ""}, // 24 s for Bleve's automaton
		{"w0000*", false, ""},
		{"*", false, ""},
	} {
		ids, err := searchWithin(t, x, ctx, c.q, 20*time.Second)
		var qe *QueryError
		switch {
		case c.refused && (!errors.As(err, &qe) || !strings.Contains(err.Error(), c.says)):
			t.Errorf("%.40q: %v, want a query error saying %q", c.q, err, c.says)
		case !c.refused && err != nil:
			t.Errorf("%.40q: %v", c.q, err)
		case c.q == "*" && len(ids) != len(docs):
			t.Errorf("*: %d games, want every one, %d", len(ids), len(docs))
		}
	}
}

// TestTextPatternsAsBleve: a wildcard word or a regular expression finds
// the games that Bleve's own searchers find.
func TestTextPatternsAsBleve(t *testing.T) {
	docs := textCorpus(t)
	x := New(filepath.Join(t.TempDir(), "text.bleve"), false)
	if err := x.Add(docs); err != nil {
		t.Fatal(err)
	}
	err := x.With(func(idx bleve.Index) error {
		for _, q := range patternQueries {
			var want []int64
			pq, werr := Parse(q)
			if werr == nil {
				want, werr = searchIDs(t, idx, pq)
			}
			var got []int64
			qq, err := prepare(q)
			if err == nil {
				got, err = run(context.Background(), idx, q, qq, 1_000_000)
			}
			if (err != nil) != (werr != nil) {
				t.Fatalf("%s: error %v, Bleve's %v", q, err, werr)
			}
			slices.Sort(got)
			if starsOnly(q) {
				want = allIDs(docs) // every game, also those without text
			}
			if !slices.Equal(got, want) {
				t.Errorf("%s: %d games %v, Bleve %d games %v", q, len(got), head(got), len(want), head(want))
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// patternQueries are queries of wildcard words and regular expressions
// written for textCorpus.
var patternQueries = []string{
	"brux*", "gar*", "*elles", "b?uxelles", "+gar* -benoit", "players:gar*", "z*", "*", "**", "?", "k?oto",
	"*a*a*", "ga*er", "gar*er*", "a.b*", "x_*", "1,0*", "3.1?", "café*", "高*", "Sã*", "garnier*",
	"/brux.*/", "/g[a-z]+r/", "/quag.*|timi.*/", "+/g.*/ -/b.*/", "site:/k.*/", "/^gar.*/", "/.*ier/",
	"/(?i)GAR.*/", "/[a-c]{2}.*/", "/a|b/", "/.+/", "/ga(r|s)n.*/", `/3\.1./`, "/garnier/",
	"players:*", "comments:*", "+game:ogi -players:g*", "game:o*", "date:19*",
}

func allIDs(docs []Doc) []int64 {
	ids := make([]int64, len(docs))
	for i, d := range docs {
		ids[i] = d.ID
	}
	slices.Sort(ids)
	return ids
}

// countdown is a context whose Err is nil for its first n calls and
// context.Canceled after (its Done never closes): it tells whether a
// search looks at its context while it works.
type countdown struct {
	context.Context
	n atomic.Int64
}

func (c *countdown) Err() error {
	if c.n.Add(-1) < 0 {
		return context.Canceled
	}
	return nil
}

// TestTextPatternStops: a search looks at its context while it matches a
// pattern against the terms of a field, and stops when it is done.
func TestTextPatternStops(t *testing.T) {
	x := New(filepath.Join(t.TempDir(), "text.bleve"), false)
	if err := x.Add(manyWordsDocs(2000)); err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{"*9", "/.*9/", "comments:*0*"} {
		ctx := &countdown{Context: context.Background()}
		ctx.n.Store(3)
		_, err := x.Search(ctx, q, 100)
		if !errors.Is(err, context.Canceled) {
			t.Errorf("%s: %v, want the context's end", q, err)
		}
	}
}
