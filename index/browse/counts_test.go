package browse_test

import (
	"context"
	"path/filepath"
	"slices"
	"testing"

	"github.com/plateau/plateau/index"
	"github.com/plateau/plateau/index/browse"
	"github.com/plateau/plateau/internal/ingest"
	"github.com/plateau/plateau/replay"
	"github.com/plateau/plateau/replay/web"
)

// TestRulesetsAfterAClientLeft: the first request's client leaves before
// the rulesets are counted; later requests still get them (they were
// stuck at [] or answered "context canceled"), and the totals of lists
// without words, taken from the cached counts, agree with a search's.
func TestRulesetsAfterAClientLeft(t *testing.T) {
	ctx := context.Background()
	db, err := index.Open(ctx, t.TempDir(), index.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var paths []string
	for _, d := range []string{"ogi", "jetan", "draughts", "broken"} {
		paths = append(paths, filepath.Join("..", "..", "samples", d))
	}
	if _, err := ingest.Files(ctx, db, paths, ingest.Options{}); err != nil {
		t.Fatal(err)
	}
	src := browse.New(db, replay.Options{})
	gone, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := src.List(gone, web.ListQuery{}); err == nil {
		t.Log("the first list answered before seeing its context canceled")
	}
	for _, q := range []web.ListQuery{{}, {Game: "jetan"}, {Game: "ogi", Valid: "invalid"}, {Valid: "invalid"}, {Game: "jetan", Valid: "valid"}} {
		page, err := src.List(ctx, q)
		if err != nil {
			t.Fatalf("%+v: %v", q, err)
		}
		for _, g := range []string{"ogi", "jetan", "draughts"} {
			if !slices.Contains(page.Rulesets, g) {
				t.Errorf("%+v: rulesets %v lack %s", q, page.Rulesets, g)
			}
		}
		// Valid "" lists valid and invalid games alike.
		want := 0
		for _, invalid := range []bool{false, true} {
			if (q.Valid == "invalid" && !invalid) || (q.Valid == "valid" && invalid) {
				continue
			}
			res, err := db.Search(ctx, index.Query{Game: q.Game, Invalid: invalid, Count: true, Limit: 1})
			if err != nil {
				t.Fatal(err)
			}
			want += res.Total
		}
		if page.Total != want {
			t.Errorf("%+v: total %d, searches count %d", q, page.Total, want)
		}
	}
}
