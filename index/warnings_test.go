package index_test

import (
	"context"
	"strings"
	"testing"

	"github.com/plateau/plateau/index"
)

// lenientText: a game of legal moves whose Result tag and movetext result
// differ, a game dated by its year only, and a game with an illegal move.
const lenientText = `[Game "draughts"]
[Event "lenient"]
[White "A"]
[Black "B"]
[Date "13-01-1996"]
[Result "0-1"]

1. 32-28 19-23 2. 28x19 14x23 1/2-1/2

[Game "draughts"]
[Event "year only"]
[Date "1996"]
[Result "*"]

1. 31-27 *

[Game "draughts"]
[Event "wrong move"]
[Date "13.01.1996"]
[Result "0-1"]

1. 32-28 28-23 1/2-1/2
`

func TestWarningsAndDates(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	file := writeFile(t, dir, "w.pdn", []byte(lenientText))
	db := openDB(t, dir+"/db")
	st, err := importFiles(ctx, db, []string{file}, index.ImportOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if st.Valid != 2 || st.Invalid != 1 {
		t.Fatalf("stats %+v: want the Result clash valid, the wrong move invalid", st)
	}
	ws, total, err := db.Warnings(ctx, "", 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	if total != 1 || len(ws) != 1 || ws[0].ID != 1 || ws[0].Kind != "result" ||
		!strings.Contains(ws[0].Msg, `[Result "0-1"] but the movetext ends with 1/2-1/2`) || ws[0].Line != 1 || !strings.HasSuffix(ws[0].File, "w.pdn") {
		t.Fatalf("warnings %d %+v", total, ws)
	}
	if ws, total, _ := db.Warnings(ctx, "ruleset", 0, 0); total != 0 || len(ws) != 0 {
		t.Fatalf("kind filter: %d %+v", total, ws)
	}
	gw, err := db.GameWarnings(ctx, []int64{1, 2})
	if err != nil || len(gw) != 1 || len(gw[1]) != 1 || !strings.HasPrefix(gw[1][0], "result: ") {
		t.Fatalf("GameWarnings %v %v", gw, err)
	}
	es, _, err := db.Errors(ctx, 0, 0)
	if err != nil || len(es) != 1 || es[0].Move != "28-23" {
		t.Fatalf("errors %+v %v", es, err)
	}
	// The game with warnings is indexed for position search.
	pos, err := index.Position("draughts", "32-28 19-23 28x19 14x23")
	if err != nil {
		t.Fatal(err)
	}
	res, err := db.Search(ctx, index.Query{Game: "draughts", Position: pos, Count: true})
	if err != nil || res.Total != 1 || res.Hits[0].ID != 1 {
		t.Fatalf("position search: %+v %v", res, err)
	}
	// Dates: normalised in the date column, as written in the record.
	for _, tt := range []struct {
		q    index.Query
		want []int64
	}{
		{index.Query{DateFrom: "1996.01", DateTo: "1996.01"}, []int64{1}},
		{index.Query{DateFrom: "13-01-1996", DateTo: "13-01-1996"}, []int64{1}},
		{index.Query{DateFrom: "1996", DateTo: "1996"}, []int64{1, 2}},
	} {
		res, err := db.Search(ctx, tt.q)
		if err != nil {
			t.Fatal(err)
		}
		var ids []int64
		for _, h := range res.Hits {
			ids = append(ids, h.ID)
		}
		if len(ids) != len(tt.want) || (len(ids) > 0 && ids[0] != tt.want[0]) {
			t.Errorf("%+v: games %v, want %v", tt.q, ids, tt.want)
		}
	}
	res, err = db.Search(ctx, index.Query{IDs: []int64{1, 2}})
	if err != nil || len(res.Hits) != 2 || res.Hits[0].Date != "1996.01.13" || res.Hits[1].Date != "1996.??.??" {
		t.Fatalf("stored dates: %+v %v", res.Hits, err)
	}
	text, err := db.Text(ctx, 1)
	if err != nil || !strings.Contains(string(text), `[Date "13-01-1996"]`) {
		t.Fatalf("record text keeps the date as written: %s %v", text, err)
	}
	start, _ := index.Position("draughts", "")
	tree, err := db.Tree(ctx, "draughts", start)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, m := range tree {
		if m.Move == "32-28" {
			found = true
			if m.First != "1996.01.13" || m.Last != "1996.01.13" {
				t.Errorf("tree dates %+v", m)
			}
		}
	}
	if !found {
		t.Errorf("no 32-28 in the tree %+v", tree)
	}
}
