package index

import (
	"context"
	"errors"
	"net/url"
	"reflect"

	"testing"

	_ "github.com/plateau/plateau/rules/all"
)

// criterionExamples is a query of each criterion (with the criteria it
// needs): a criterion added to criteriaTable needs one here.
var criterionExamples = map[string]url.Values{
	"game":        {"game": {"ogi"}},
	"player":      {"player": {"Tanaka"}},
	"side":        {"player": {"Tanaka"}, "side": {"Gote"}},
	"opponent":    {"player": {"Tanaka"}, "opponent": {"Fujii"}},
	"event":       {"event": {"Open"}},
	"site":        {"site": {"Ōsaka"}},
	"date":        {"date": {"2026"}},
	"from":        {"from": {"2026.07"}},
	"to":          {"to": {"2026"}},
	"result":      {"result": {"1-0"}},
	"termination": {"termination": {"illegal"}},
	"min-plies":   {"min-plies": {"10"}},
	"max-plies":   {"max-plies": {"90"}},
	"min-elo":     {"min-elo": {"2000"}},
	"max-elo":     {"max-elo": {"2400"}},
	"tag":         {"tag": {"Round=3"}},
	"opening":     {"opening": {"Sicilian"}},
	"text":        {"text": {"komayō"}},
	"id":          {"id": {"12"}},
	"invalid":     {"invalid": {"true"}},
	"position":    {"game": {"draughts"}, "position": {"32-28"}},
	"moves":       {"game": {"draughts"}, "moves": {"1. 32-28"}},
	"pattern":     {"game": {"ogi"}, "pattern": {"K@e1"}},
}

// TestCriteriaCoverQuery: every criterion of the table reads its example,
// makes a query that HasCriteria sees (but invalid, a switch) and that its
// SQL narrows (the criteria of positions are Search's own); every field of
// Query but the page is set by some criterion, so that a field added
// without a flag and a parameter fails here.
func TestCriteriaCoverQuery(t *testing.T) {
	ctx := context.Background()
	db, err := Open(ctx, t.TempDir(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	base, _, err := db.filters(ctx, &Query{})
	if err != nil {
		t.Fatal(err)
	}
	set := map[string]bool{}
	for _, c := range Criteria() {
		v, ok := criterionExamples[c.Name]
		if !ok {
			t.Errorf("criterion %s has no example in criterionExamples", c.Name)
			continue
		}
		q, err := ParseQuery(v)
		if err != nil {
			t.Errorf("%s: %v", c.Name, err)
			continue
		}
		qv := reflect.ValueOf(q)
		for i := range qv.NumField() {
			if !qv.Field(i).IsZero() {
				set[qv.Type().Field(i).Name] = true
			}
		}
		if q.HasCriteria() != (c.Name != "invalid") {
			t.Errorf("%s: HasCriteria %v", c.Name, q.HasCriteria())
		}
		if c.Positions {
			continue
		}
		w, empty, err := db.filters(ctx, &q)
		if err != nil {
			t.Errorf("%s: %v", c.Name, err)
		} else if !empty && w.String() == base.String() && reflect.DeepEqual(w.Args(), base.Args()) {
			t.Errorf("%s: its query has no SQL (filters)", c.Name)
		}
	}
	for f := range reflect.TypeFor[Query]().Fields() {
		switch f.Name {
		case "Limit", "Offset", "Count":
			continue // the page, not criteria
		}
		if !set[f.Name] {
			t.Errorf("Query.%s is set by no criterion: add it to criteriaTable (and to criterionExamples)", f.Name)
		}
	}
}

// TestSearchUnknownGame: a position or pattern of a ruleset Plateau does not
// know is the query's fault (it was a server error).
func TestSearchUnknownGame(t *testing.T) {
	ctx := context.Background()
	db, err := Open(ctx, t.TempDir(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	pat, err := ParsePattern("K@1")
	if err != nil {
		t.Fatal(err)
	}
	_, err = db.Search(ctx, Query{Game: "0", Pattern: pat})
	var ce *CriterionError
	if !errors.Is(err, ErrQuery) || !errors.As(err, &ce) || ce.Name != "game" {
		t.Fatalf("pattern of game 0: %v", err)
	}
}
