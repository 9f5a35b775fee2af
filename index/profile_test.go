package index_test

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/plateau/plateau/index"
)

// TestPlayerAndOverview: a player's page counts their valid games by
// side, year, opening and opponent; the overview counts the database's.
func TestPlayerAndOverview(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	game := func(black, white, date, result, moves string) string {
		return "[GameType \"21\"]\n[Event \"Profile\"]\n[Date \"" + date + "\"]\n[Black \"" + black + "\"]\n[White \"" + white +
			"\"]\n[Result \"" + result + "\"]\n\n" + moves + " " + result + "\n\n"
	}
	text := game("Oldbury, R.", "Wyllie, J.", "1990.01.02", "0-1", "1. 11-15 23-19 2. 8-11 22-17") +
		game("Oldbury, R.", "Wyllie, J.", "1990.03.02", "1-0", "1. 11-15 23-19") +
		game("Wyllie, J.", "Oldbury, R.", "1991.05.01", "1/2-1/2", "1. 11-15 24-20") +
		game("Wyllie, J.", "Ryan, T.", "1991.06.01", "1-0", "1. 9-14 22-18")
	db := openDB(t, dir+"/db")
	if _, err := importFiles(ctx, db, []string{writeFile(t, dir, "p.pdn", []byte(text))}, index.ImportOptions{}); err != nil {
		t.Fatal(err)
	}
	p, err := db.Player(ctx, "wyllie", index.Period{})
	if err != nil {
		t.Fatal(err)
	}
	if p.Name != "Wyllie, J." || p.Total.Games != 4 || p.Total.Wins != 2 || p.Total.Draws != 1 || p.Total.Losses != 1 || p.Total.Score != 2.5 {
		t.Errorf("total %+v of %q", p.Total, p.Name)
	}
	if p.First != "1990.01.02" || p.Last != "1991.06.01" {
		t.Errorf("dates %s–%s", p.First, p.Last)
	}
	if len(p.Years) != 2 || p.Years[0].Year != "1990" || p.Years[0].Games != 2 || p.Years[1].Score != 1.5 {
		t.Errorf("years %+v", p.Years)
	}
	// Black is checkers' first side (0).
	if len(p.Sides) != 2 || p.Sides[0].Side != 0 || p.Sides[0].Games != 2 || p.Sides[1].Games != 2 || p.Sides[1].Wins != 1 {
		t.Errorf("sides %+v", p.Sides)
	}
	var lines []string
	for _, o := range p.Openings {
		lines = append(lines, o.Moves[0]+" "+o.Moves[1])
	}
	if !slices.Equal(lines, []string{"9-14 22-18", "11-15 24-20", "11-15 23-19"}) || p.Openings[2].Games != 2 {
		t.Errorf("openings %+v", p.Openings)
	}
	if len(p.Opponents) != 2 || p.Opponents[0].Name != "Oldbury, R." || p.Opponents[0].Games != 3 || p.Opponents[0].Score != 1.5 {
		t.Errorf("opponents %+v", p.Opponents)
	}
	if _, err := db.Player(ctx, "nobody", index.Period{}); !errors.Is(err, index.ErrNotFound) {
		t.Errorf("an unknown player: %v", err)
	}
	// A period counts the games dated within it, bounds included, a
	// prefix standing for all its dates.
	for _, tc := range []struct {
		period      index.Period
		games       int
		score       float64
		first, last string
	}{
		{index.Period{From: "1991"}, 2, 1.5, "1991.05.01", "1991.06.01"},
		{index.Period{To: "1990"}, 2, 1, "1990.01.02", "1990.03.02"},
		{index.Period{From: "1990.03", To: "1991.05"}, 2, 0.5, "1990.03.02", "1991.05.01"},
		{index.Period{From: "1990.03.02", To: "1990.03.02"}, 1, 0, "1990.03.02", "1990.03.02"},
		{index.Period{From: "2000"}, 0, 0, "", ""},
	} {
		p, err := db.Player(ctx, "wyllie", tc.period)
		if err != nil {
			t.Fatal(err)
		}
		if p.Total.Games != tc.games || p.Total.Score != tc.score || p.First != tc.first || p.Last != tc.last ||
			p.From != tc.period.From || p.To != tc.period.To {
			t.Errorf("%+v: %d games, score %v, %s–%s, period %q–%q", tc.period, p.Total.Games, p.Total.Score, p.First, p.Last, p.From, p.To)
		}
	}
	o, err := db.Overview(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if o.Games != 4 || len(o.Rulesets) != 1 || o.Rulesets[0].FirstWon != 2 || o.Rulesets[0].SecondWon != 1 || o.Rulesets[0].Drawn != 1 {
		t.Errorf("overview rulesets %+v", o)
	}
	if len(o.Years) != 2 || o.Years[0].Year != "1990" || o.Years[0].Games != 2 || o.Years[1].Year != "1991" || o.Years[1].Games != 2 {
		t.Errorf("years %+v", o.Years)
	}
	if len(o.Longest) != 4 || o.Longest[0].Plies != 4 || o.MostGames[0].Name != "Wyllie, J." || o.MostGames[0].Games != 4 {
		t.Errorf("longest %+v, most games %+v", o.Longest, o.MostGames)
	}
}
