package index_test

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/plateau/plateau/index"
)

// TestEventIndexCovers: an event's crosstable and the count of its games
// read games_event alone (a covering index, layout 24); a layout-23
// database (games_event on the event alone) is read as it is by a
// read-only handle and gains the columns at its next writable open, with
// the same crosstables.
func TestEventIndexCovers(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	dbDir := dir + "/db"
	db, err := index.Open(ctx, dbDir, index.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := importFiles(ctx, db, []string{writeFile(t, dir, "g.pgn", genText(t, "ogi", 300, 5)), "../samples/draughts", "../samples/dejarik"}, index.ImportOptions{}); err != nil {
		t.Fatal(err)
	}
	parts := []string{"Plateau samples", "o", "2016", "名人戦"}
	crosstables := func(what string, db *index.DB) [][]index.Cross {
		var out [][]index.Cross
		for _, p := range parts {
			c, err := db.Crosstable(ctx, index.Query{Event: p})
			if err != nil {
				t.Fatalf("%s: %q: %v", what, p, err)
			}
			out = append(out, c)
		}
		return out
	}
	covers := func(what string, db *index.DB, want bool) {
		t.Helper()
		for _, p := range parts {
			plan, err := index.CrosstablePlan(ctx, db, index.Query{Event: p})
			if err != nil {
				t.Fatal(err)
			}
			_, count, err := index.SearchPlan(ctx, db, index.Query{Event: p, Count: true})
			if err != nil {
				t.Fatal(err)
			}
			for _, pl := range [][]string{plan, count} {
				got := strings.Contains(strings.Join(pl, "\n"), "COVERING INDEX games_event")
				if got != want {
					t.Errorf("%s: %q: plan %q, covering %v", what, p, pl, want)
				}
			}
		}
	}
	want := crosstables("imported", db)
	if len(want[0]) == 0 || len(want[1]) == 0 {
		t.Fatalf("crosstables %v", want)
	}
	covers("imported", db, true)
	if err := index.DowngradeToLayout23(ctx, db); err != nil {
		t.Fatal(err)
	}
	db.Close()
	ro, err := index.Open(ctx, dbDir, index.Options{ReadOnly: true})
	if err != nil {
		t.Fatalf("read-only open of layout 23: %v", err)
	}
	if got := crosstables("layout 23, read-only", ro); !reflect.DeepEqual(got, want) {
		t.Errorf("layout 23, read-only: %v\nwant %v", got, want)
	}
	covers("layout 23, read-only", ro, false)
	ro.Close()
	db = openUpgraded(t, dbDir, 23)
	if got := crosstables("upgraded from 23", db); !reflect.DeepEqual(got, want) {
		t.Errorf("upgraded from 23: %v\nwant %v", got, want)
	}
	covers("upgraded from 23", db, true)
}
