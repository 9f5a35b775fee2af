package playerlines_test

import (
	"testing"

	"github.com/plateau/plateau/index/internal/playerlines"
)

// TestFilter: each criterion keeps the lines that meet it and only those,
// as criteria's SQL compares the games' rows.
func TestFilter(t *testing.T) {
	band := [][2]string{{"1500", "2300"}} // --min-elo 1500 --max-elo 2300
	wide := [][2]string{{"5", "9"}, {"10", "99"}, {"100", "120"}}
	line := playerlines.Line{Game: "ogi", Opponent: 4, Event: 2, Result: "1-0", Date: "1990.05.??", Elo: [2]string{"1800", "2300"}}
	for _, c := range []struct {
		name string
		f    playerlines.Filter
		edit func(*playerlines.Line)
		want bool
	}{
		{"none", playerlines.Filter{}, nil, true},
		{"from", playerlines.Filter{From: "1990.05"}, nil, true},
		{"from after", playerlines.Filter{From: "1990.06"}, nil, false},
		{"to", playerlines.Filter{To: "1990.05~"}, nil, true},
		{"to before", playerlines.Filter{To: "1990.04~"}, nil, false},
		{"no date, from", playerlines.Filter{From: "1"}, func(l *playerlines.Line) { l.Date = "" }, false},
		{"no date, to", playerlines.Filter{To: "9"}, func(l *playerlines.Line) { l.Date = "" }, false},
		{"result", playerlines.Filter{Result: "1-0"}, nil, true},
		{"other result", playerlines.Filter{Result: "0-1"}, nil, false},
		{"opponent", playerlines.Filter{Opponents: map[int64]bool{3: true, 4: true}}, nil, true},
		{"other opponent", playerlines.Filter{Opponents: map[int64]bool{3: true}}, nil, false},
		{"no opponent", playerlines.Filter{Opponents: map[int64]bool{}}, func(l *playerlines.Line) { l.Opponent = 0 }, false},
		{"event", playerlines.Filter{Events: map[int64]bool{2: true}}, nil, true},
		{"other event", playerlines.Filter{Events: map[int64]bool{1: true}}, nil, false},
		{"no event", playerlines.Filter{Events: map[int64]bool{1: true}}, func(l *playerlines.Line) { l.Event = 0 }, false},
		{"band", playerlines.Filter{Rated: true, EloSpans: band}, nil, true},
		{"above the band", playerlines.Filter{Rated: true, EloSpans: band}, func(l *playerlines.Line) { l.Elo[1] = "2301" }, false},
		{"below the band", playerlines.Filter{Rated: true, EloSpans: band}, func(l *playerlines.Line) { l.Elo[0] = "1499" }, false},
		{"a side unrated", playerlines.Filter{Rated: true, EloSpans: band}, func(l *playerlines.Line) { l.Elo[0] = "" }, false},
		{"a leading zero", playerlines.Filter{Rated: true, EloSpans: band}, func(l *playerlines.Line) { l.Elo[0] = "01800" }, false},
		{"no span", playerlines.Filter{Rated: true}, nil, false},
		{"spans of each length", playerlines.Filter{Rated: true, EloSpans: wide}, func(l *playerlines.Line) { l.Elo = [2]string{"7", "110"} }, true},
		{"a length between", playerlines.Filter{Rated: true, EloSpans: wide}, func(l *playerlines.Line) { l.Elo = [2]string{"7", "1100"} }, false},
		{"every criterion", playerlines.Filter{From: "1990", To: "1990~", Result: "1-0", Opponents: map[int64]bool{4: true},
			Events: map[int64]bool{2: true}, Rated: true, EloSpans: band}, nil, true},
		{"every criterion, one missed", playerlines.Filter{From: "1990", To: "1990~", Result: "1-0", Opponents: map[int64]bool{4: true},
			Events: map[int64]bool{2: true}, Rated: true, EloSpans: band}, func(l *playerlines.Line) { l.Event = 3 }, false},
	} {
		l := line
		if c.edit != nil {
			c.edit(&l)
		}
		if got := c.f.Keeps(&l); got != c.want {
			t.Errorf("%s: kept %v, want %v", c.name, got, c.want)
		}
	}
}
