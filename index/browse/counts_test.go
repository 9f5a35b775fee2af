package browse_test

import (
	"bytes"
	"context"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/plateau/plateau/index"
	"github.com/plateau/plateau/index/browse"
	"github.com/plateau/plateau/internal/ingest"
	"github.com/plateau/plateau/record"
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

// TestSaveSeen: a game saved invalid while the source serves leaves the
// list of valid games and joins the invalid ones, in the pages and in the
// cached counts, without a new game id.
func TestSaveSeen(t *testing.T) {
	ctx := context.Background()
	db, err := index.Open(ctx, t.TempDir(), index.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := ingest.Files(ctx, db, []string{filepath.Join("..", "..", "samples", "draughts")}, ingest.Options{}); err != nil {
		t.Fatal(err)
	}
	src := browse.New(db, replay.Options{})
	total := func(valid string) int {
		page, err := src.List(ctx, web.ListQuery{Valid: valid})
		if err != nil {
			t.Fatal(err)
		}
		return page.Total
	}
	valid, invalid := total("valid"), total("invalid")
	rev, text, err := db.CurrentRevision(ctx, 1)
	if err != nil {
		t.Fatal(err)
	}
	g, err := record.NewReader(bytes.NewReader(text), "#1").Next()
	if err != nil {
		t.Fatal(err)
	}
	g.Moves[0].Text = "46-51" // no such move
	if res, err := db.SaveRecord(ctx, 1, record.Format(g), rev); err != nil || res.Valid {
		t.Fatalf("save: %+v %v", res, err)
	}
	for deadline := time.Now().Add(10 * time.Second); total("valid") != valid-1 || total("invalid") != invalid+1; time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("after the save: %d valid, %d invalid; want %d, %d", total("valid"), total("invalid"), valid-1, invalid+1)
		}
	}
}

// TestTotalsAfterAnotherProcess: a server's source on a read-only handle
// follows what another handle (another process) commits: after a delete
// its totals (they stayed stale for countsTTL, 10 minutes) and after a
// tag edit its pages of a text query (cached while the last game id did
// not change) are those of the database.
func TestTotalsAfterAnotherProcess(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	w, err := index.Open(ctx, dir, index.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if _, err := ingest.Files(ctx, w, []string{filepath.Join("..", "..", "samples", "draughts")}, ingest.Options{}); err != nil {
		t.Fatal(err)
	}
	r, err := index.Open(ctx, dir, index.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	src := browse.New(r, replay.Options{})
	page := func(q web.ListQuery) web.ListPage {
		t.Helper()
		p, err := src.List(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	all, renamed := web.ListQuery{}, web.ListQuery{Text: "event:zzrenamed"}
	before := page(all).Total
	if before < 3 || page(renamed).Total != 0 {
		t.Fatalf("%d games, %d renamed", before, page(renamed).Total)
	}
	// waitFor asks for q's page until its total is want, for at most 5 s
	// (counts are made again in the background).
	waitFor := func(name string, q web.ListQuery, want int) {
		t.Helper()
		deadline := time.Now().Add(5 * time.Second)
		for {
			got := page(q).Total
			if got == want {
				return
			}
			if time.Now().After(deadline) {
				t.Errorf("%s: total %d, want %d", name, got, want)
				return
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	ids := page(web.ListQuery{Limit: 2}).Games
	if n, err := w.Delete(ctx, []int64{int64(ids[0].N), int64(ids[1].N)}, nil); err != nil || n != 2 {
		t.Fatal(n, err)
	}
	waitFor("after a delete", all, before-2)
	g := page(web.ListQuery{Limit: 1}).Games[0]
	if _, err := w.SetTags(ctx, int64(g.N), []record.Tag{{Name: "Event", Value: "zzrenamed"}}); err != nil {
		t.Fatal(err)
	}
	waitFor("after a tag edit", renamed, 1)
}
