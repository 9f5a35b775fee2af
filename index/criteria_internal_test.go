package index

import (
	"context"
	"errors"
	"net/url"
	"reflect"

	"testing"

	"github.com/plateau/plateau/record"
	"github.com/plateau/plateau/rules"
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
	"tag":         {"tag": {"Round=3"}},
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
		} else if !empty && reflect.DeepEqual(w.conds, base.conds) && reflect.DeepEqual(w.args, base.args) {
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

// TestHasCriteria: the page, counting and the valid/invalid switch are not
// criteria.
func TestHasCriteria(t *testing.T) {
	for _, q := range []Query{{}, {Invalid: true, Limit: 5, Offset: 3, Count: true}, {Limit: -1}} {
		if q.HasCriteria() {
			t.Errorf("%+v has criteria", q)
		}
	}
	for _, q := range []Query{{Game: "ogi"}, {Players: [2]string{"", "x"}}, {IDs: []int64{}}, {MaxPlies: 3}} {
		if !q.HasCriteria() {
			t.Errorf("%+v has no criteria", q)
		}
	}
}

// TestParseQuery: criteria that depend on each other are put together.
func TestParseQuery(t *testing.T) {
	draughts, _ := rules.Lookup("draughts")
	after, _ := positionAfter(draughts, "32-28")
	for _, tc := range []struct {
		name string
		v    url.Values
		want Query
	}{
		{"nothing", url.Values{}, Query{}},
		{"empty values set nothing", url.Values{"player": {""}, "tag": {"", ""}}, Query{}},
		{"either side", url.Values{"player": {"A"}, "opponent": {"B"}}, Query{Player: "A", Opponent: "B"}},
		{"an opponent alone is a player", url.Values{"opponent": {"B"}}, Query{Player: "B"}},
		{"side by name", url.Values{"game": {"ogi"}, "player": {"A"}, "side": {"gote"}, "opponent": {"B"}}, Query{Game: "ogi", Players: [2]string{"B", "A"}}},
		{"side by number", url.Values{"player": {"A"}, "side": {"0"}}, Query{Players: [2]string{"A", ""}}},
		{"a date is both bounds", url.Values{"date": {"2026.07"}}, Query{DateFrom: "2026.07", DateTo: "2026.07"}},
		{"tags and ids repeat", url.Values{"tag": {"Round=3", "Board=1=2"}, "id": {"#12", "40"}},
			Query{Tags: []record.Tag{{Name: "Round", Value: "3"}, {Name: "Board", Value: "1=2"}}, IDs: []int64{12, 40}}},
		{"numbers", url.Values{"min-plies": {"0"}, "max-plies": {"90"}, "invalid": {"1"}}, Query{MaxPlies: 90, Invalid: true}},
		{"moves", url.Values{"game": {"draughts"}, "moves": {"1. 32-28"}}, Query{Game: "draughts", Position: after}},
		{"fen is position", url.Values{"game": {"draughts"}, "fen": {"32-28"}}, Query{Game: "draughts", Position: after}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			q, err := ParseQuery(tc.v)
			if err != nil {
				t.Fatal(err)
			}
			gotPos, wantPos := q.Position, tc.want.Position
			q.Position, tc.want.Position = nil, nil
			if !reflect.DeepEqual(q, tc.want) {
				t.Errorf("got %+v, want %+v", q, tc.want)
			}
			if (gotPos == nil) != (wantPos == nil) || gotPos != nil && gotPos.Key() != wantPos.Key() {
				t.Errorf("position %v, want %v", gotPos, wantPos)
			}
		})
	}
}

// TestParseQueryErrors: an error names the criterion at fault and wraps
// ErrQuery.
func TestParseQueryErrors(t *testing.T) {
	for _, tc := range []struct {
		v    url.Values
		name string
	}{
		{url.Values{"round": {"3"}}, "round"},
		{url.Values{"event": {"a", "b"}}, "event"},
		{url.Values{"game": {"draughts"}, "position": {"32-28"}, "fen": {"32-28"}}, "position"},
		{url.Values{"min-plies": {"-1"}}, "min-plies"},
		{url.Values{"max-plies": {"many"}}, "max-plies"},
		{url.Values{"tag": {"Round"}}, "tag"},
		{url.Values{"id": {"0"}}, "id"},
		{url.Values{"id": {"12", "x"}}, "id"},
		{url.Values{"invalid": {"maybe"}}, "invalid"},
		{url.Values{"side": {"Gote"}}, "side"},
		{url.Values{"player": {"A"}, "side": {"Nobody"}}, "side"},
		{url.Values{"player": {"A"}, "side": {"Sente"}, "game": {"chess"}}, "side"},
		{url.Values{"date": {"2026"}, "from": {"2025"}}, "date"},
		{url.Values{"pattern": {"K@e1"}}, "pattern"},
		{url.Values{"position": {"32-28"}}, "position"},
		{url.Values{"game": {"0"}, "pattern": {"K@1"}}, "game"},
		{url.Values{"game": {"ogi"}, "pattern": {"K@"}}, "pattern"},
		{url.Values{"game": {"draughts"}, "position": {"zz"}}, "position"},
		{url.Values{"game": {"draughts"}, "moves": {"32-29"}}, "moves"},
		{url.Values{"game": {"draughts"}, "position": {"32-28"}, "moves": {"32-28"}}, "moves"},
	} {
		_, err := ParseQuery(tc.v)
		var ce *CriterionError
		if !errors.As(err, &ce) || ce.Name != tc.name || !errors.Is(err, ErrQuery) {
			t.Errorf("%v: %v, want an error of %s", tc.v, err, tc.name)
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
