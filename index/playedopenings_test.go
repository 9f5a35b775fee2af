package index_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/plateau/plateau/index"
	"github.com/plateau/plateau/rules"
)

// TestPlayedOpenings: an event's named openings are its games' names,
// counted with their results as side 0 scored them, most played first,
// at most players' MaxOpenings a ruleset; a selection of no named game
// has none.
func TestPlayedOpenings(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	db := openDB(t, filepath.Join(dir, "db"))
	defer db.Close()
	if _, err := importFiles(ctx, db, []string{writeFile(t, dir, "gen.pdn", genText(t, "ogi", 400, 3))}, index.ImportOptions{}); err != nil {
		t.Fatal(err)
	}
	rg, _ := rules.Lookup("ogi")
	start, _ := rg.NewPosition("")
	first, err := db.Tree(ctx, "ogi", start)
	if err != nil || len(first) < 10 {
		t.Fatalf("tree %v %v", first, err)
	}
	// A name for each of the ten most played first moves, and a deeper
	// one after the first.
	var names strings.Builder
	for i, m := range first[:10] {
		fmt.Fprintf(&names, "ogi\tOpening %d\t%s\n", i, m.Move)
	}
	pos := start.Clone()
	m, _ := pos.ParseMove(first[0].Move)
	pos.Play(m)
	second, err := db.Tree(ctx, "ogi", pos)
	if err != nil || len(second) == 0 {
		t.Fatalf("tree %v %v", second, err)
	}
	fmt.Fprintf(&names, "ogi\tOpening 0, deep\t%s %s\n", first[0].Move, second[0].Move)
	es, errs := index.ReadOpenings(strings.NewReader(names.String()), "names.tsv")
	if _, errs2, err := db.ImportOpenings(ctx, es); err != nil || len(errs)+len(errs2) != 0 {
		t.Fatalf("names: %v %v %v", errs, errs2, err)
	}

	games := storedGames(t, db, "ogi")
	events := map[string]int{}
	for _, g := range games {
		events[g.Record.Tag("Event")]++
	}
	for _, q := range []index.Query{{}, {Event: "open"}, {DateFrom: "2000"}} {
		for e, n := range events {
			if n > 1 && q.Event == "" && q.DateFrom == "" {
				q.Event = e // the first event of several games
			}
		}
		res, err := db.Search(ctx, index.Query{Event: q.Event, DateFrom: q.DateFrom, Limit: -1})
		if err != nil {
			t.Fatal(err)
		}
		var ids []int64
		for _, h := range res.Hits {
			ids = append(ids, h.ID)
		}
		named, err := db.GameOpenings(ctx, ids)
		if err != nil {
			t.Fatal(err)
		}
		want := map[string]index.NamedTally{}
		for _, h := range res.Hits {
			name := named[h.ID]
			if name == "" {
				continue
			}
			w := want[name]
			w.Games++
			switch h.Result {
			case "1-0":
				w.Wins++
			case "0-1":
				w.Losses++
			case "1/2-1/2":
				w.Draws++
			}
			want[name] = w
		}
		got, err := db.PlayedOpenings(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != min(len(want), 8) || len(want) == 0 {
			t.Fatalf("%+v: %d names, want %d of %d", q, len(got), min(len(want), 8), len(want))
		}
		for i, o := range got {
			w := want[o.Name]
			if o.Game != "ogi" || o.Side != 0 || o.Games != w.Games || o.Wins != w.Wins || o.Losses != w.Losses || o.Draws != w.Draws {
				t.Errorf("%+v: %+v, want %+v", q, o, w)
			}
			if i > 0 && got[i-1].Games < o.Games {
				t.Errorf("%+v: %s (%d games) after %s (%d)", q, o.Name, o.Games, got[i-1].Name, got[i-1].Games)
			}
		}
		for _, w := range want { // none left out that is played more than one kept
			if w.Games > got[len(got)-1].Games && len(got) < len(want) {
				found := false
				for _, o := range got {
					found = found || want[o.Name] == w
				}
				if !found {
					t.Errorf("%+v: a name of %d games left out", q, w.Games)
				}
			}
		}
	}
	none, err := db.PlayedOpenings(ctx, index.Query{Event: "no such event"})
	if err != nil || none == nil || len(none) != 0 {
		t.Errorf("no game: %v %v", none, err)
	}
}
