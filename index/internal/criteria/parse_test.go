package criteria

import (
	"errors"
	"net/url"
	"reflect"
	"testing"

	"github.com/plateau/plateau/record"
	"github.com/plateau/plateau/rules"
	_ "github.com/plateau/plateau/rules/all"
)

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
		{"a rating band", url.Values{"min-elo": {"1500"}, "max-elo": {"2000"}}, Query{MinElo: 1500, MaxElo: 2000}},
		{"a band of one rating", url.Values{"min-elo": {"1500"}, "max-elo": {"1500"}}, Query{MinElo: 1500, MaxElo: 1500}},
		{"a floor", url.Values{"min-elo": {"2400"}, "max-elo": {"0"}}, Query{MinElo: 2400}},
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
		{url.Values{"min-elo": {"x"}}, "min-elo"},
		{url.Values{"max-elo": {"-5"}}, "max-elo"},
		{url.Values{"min-elo": {"2000"}, "max-elo": {"1500"}}, "min-elo"},
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
