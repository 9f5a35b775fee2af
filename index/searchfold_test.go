package index_test

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/plateau/plateau/index"
	"github.com/plateau/plateau/record"
)

// TestSearchWithoutTraps: event, site and termination match without regard
// to case and accents; tag names in any case; a pattern naming a piece or
// square the game does not have is an error that names it.
func TestSearchWithoutTraps(t *testing.T) {
	ctx := context.Background()
	db := openDB(t, filepath.Join(t.TempDir(), "db"))
	if _, err := importFiles(ctx, db, []string{"../samples/ogi", "../samples/draughts"}, index.ImportOptions{}); err != nil {
		t.Fatal(err)
	}
	count := func(q index.Query) (int, error) {
		q.Limit, q.Count = 1, true
		r, err := db.Search(ctx, q)
		return r.Total, err
	}
	same := []struct {
		name string
		a, b index.Query
	}{
		{"event without accent", index.Query{Event: "osaka"}, index.Query{Event: "Ōsaka"}},
		{"event in capitals", index.Query{Event: "OSAKA SUMMER"}, index.Query{Event: "Ōsaka summer club"}},
		{"event with punctuation", index.Query{Event: "komayo s moonlight"}, index.Query{Event: "Komayō's moonlight"}},
		{"site", index.Query{Site: "osaka"}, index.Query{Site: "Ōsaka"}},
		{"tag name in lower case", index.Query{Tags: []record.Tag{{Name: "round", Value: "1"}}}, index.Query{Tags: []record.Tag{{Name: "Round", Value: "1"}}}},
		{"column tag in lower case", index.Query{Tags: []record.Tag{{Name: "event", Value: "Ōsaka summer club"}}}, index.Query{Event: "Ōsaka summer club"}},
		{"side tag in lower case", index.Query{Game: "ogi", Tags: []record.Tag{{Name: "sente", Value: "Komayō"}}}, index.Query{Game: "ogi", Tags: []record.Tag{{Name: "Sente", Value: "Komayō"}}}},
		{"square in capitals", index.Query{Game: "ogi", Pattern: pat(t, "K@E1")}, index.Query{Game: "ogi", Pattern: pat(t, "K@e1")}},
	}
	for _, tt := range same {
		a, err := count(tt.a)
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		b, err := count(tt.b)
		if err != nil || a != b || a == 0 {
			t.Errorf("%s: %d games, the exact spelling %d (%v)", tt.name, a, b, err)
		}
	}
	for _, tt := range []struct {
		name string
		q    index.Query
		msg  string
	}{
		{"unknown piece", index.Query{Game: "ogi", Pattern: pat(t, "Z@e4")}, `ogi has no piece "Z"`},
		{"unknown square", index.Query{Game: "ogi", Pattern: pat(t, "K@z9")}, `ogi has no square "z9" (squares`},
		{"unknown empty square", index.Query{Game: "draughts", Pattern: pat(t, "empty@51")}, `draughts has no square "51"`},
		{"unknown piece in hand", index.Query{Game: "draughts", Pattern: pat(t, "P@hand=0")}, `draughts has no piece "P"`},
		{"unknown side", index.Query{Game: "ogi", Pattern: pat(t, "Blanc:K@e1")}, `no side "Blanc"`},
	} {
		_, err := count(tt.q)
		if !errors.Is(err, index.ErrQuery) || !strings.Contains(err.Error(), tt.msg) {
			t.Errorf("%s: %v; want ErrQuery naming %q", tt.name, err, tt.msg)
		}
	}
}

func pat(t *testing.T, s string) *index.Pattern {
	t.Helper()
	p, err := index.ParsePattern(s)
	if err != nil {
		t.Fatal(err)
	}
	return p
}
