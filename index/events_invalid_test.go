package index_test

import (
	"context"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/plateau/plateau/index"
)

// TestInvalidGamesByEvent: a query of invalid games by event reads the
// invalid games alone, through the partial index games_invalid (its cost
// follows their number, not the table's), and finds those a brute-force
// fold of every invalid game's event finds; the same query of valid
// games reads games_event. Both paths for each part, in any case and
// script, several events, none, and nothing but spaces.
func TestInvalidGamesByEvent(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	recs := strings.Split(string(genText(t, "ogi", 400, 11)), "[Game ")
	first := regexp.MustCompile(`\n1\. \S+`)
	for i := 1; i < len(recs); i += 3 { // a third of the games: a move no notation reads
		recs[i] = first.ReplaceAllLiteralString(recs[i], "\n1. Zz9-z9")
	}
	text := strings.Join(recs, "[Game ")
	db := openDB(t, dir+"/db")
	if _, err := importFiles(ctx, db, []string{writeFile(t, dir, "events.pgn", []byte(text))}, index.ImportOptions{}); err != nil {
		t.Fatal(err)
	}
	all := map[bool][]index.Hit{}
	for _, invalid := range []bool{false, true} {
		res, err := db.Search(ctx, index.Query{Invalid: invalid, Limit: -1})
		if err != nil {
			t.Fatal(err)
		}
		all[invalid] = res.Hits
	}
	if len(all[true]) < 100 || len(all[false]) < 100 {
		t.Fatalf("%d invalid and %d valid games", len(all[true]), len(all[false]))
	}
	parts := []string{"Brno", "coruña", "CORUÑA", "名人戦", "Memorial", "o", "no such event", "  ", "2016"}
	for _, m := range regexp.MustCompile(`\[Event "([^"]+)"\]`).FindAllStringSubmatch(text, 6) {
		r := []rune(m[1])
		parts = append(parts, strings.ToUpper(m[1]), string(r[1:len(r)-1]))
	}
	some := 0
	for _, part := range parts {
		for _, invalid := range []bool{false, true} {
			var want []int64
			for _, h := range all[invalid] {
				if strings.Contains(index.Fold(h.Event), strings.TrimSpace(index.Fold(part))) {
					want = append(want, h.ID)
				}
			}
			q := index.Query{Event: part, Invalid: invalid, Count: true, Limit: 1000}
			res, err := db.Search(ctx, q)
			if err != nil {
				t.Fatal(err)
			}
			var got []int64
			for _, h := range res.Hits {
				got = append(got, h.ID)
			}
			if res.Total != len(want) || !slices.Equal(got, want) {
				t.Errorf("event %q, invalid %v: %d games %v, want %d %v", part, invalid, res.Total, got, len(want), want)
			}
			if invalid && len(want) > 0 && len(want) < len(all[true]) {
				some++
			}
			page, count, err := index.SearchPlan(ctx, db, q)
			if err != nil {
				t.Fatal(err)
			}
			plans := strings.Join(append(page, count...), "\n")
			wantIndex := "games_invalid"
			if !invalid {
				wantIndex = "games_event"
				if strings.TrimSpace(part) == "" || len(want) == 0 {
					continue // every event, or no name: no index of events
				}
			}
			if !strings.Contains(plans, wantIndex) || strings.Contains(plans, "SCAN g\n") || strings.HasSuffix(plans, "SCAN g") {
				t.Errorf("event %q, invalid %v: plans %q, want %s", part, invalid, plans, wantIndex)
			}
		}
	}
	if some < 5 {
		t.Errorf("%d parts select some invalid games, not all", some)
	}
}
