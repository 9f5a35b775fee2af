package index_test

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/plateau/plateau/index"
	"github.com/plateau/plateau/rules"
)

// TestPlayerTreeSeveralElo: a record with several values of one side's
// rating tag is in a rating band when any of its values is (a side is
// rated within when one of its values is), on both paths: the players'
// lines (a player's tree) and criteria's SQL (a search), which agree with
// a count by hand. A read-only handle on layout 20, whose lines keep the
// least value, reads a player's tree of a band from the games' rows; the
// upgrade to 21 writes every value into the lines of those games.
func TestPlayerTreeSeveralElo(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	dbDir := filepath.Join(dir, "db")
	db := openDB(t, dbDir)
	// Each game opens with its own move, so that a tree tells its games.
	games := []struct {
		first string
		sente []string
		gote  []string
	}{
		{"Pa3-a4", []string{"1500", "2100"}, []string{"2050"}},
		{"Pb3-b4", []string{"2100"}, []string{"2050", "2300"}},
		{"Pc3-c4", []string{"999", "2100"}, []string{"2000"}},
		{"Pd3-d4", []string{"2100"}, []string{"2100"}},
		{"Pe3-e4", []string{"1500", "1600"}, []string{"2100"}},
		{"Pf3-f4", []string{"2100", "2100"}, []string{"1999", "2201"}},
		{"Ph3-h4", []string{"1500", "2100"}, nil},
	}
	var text strings.Builder
	for i, g := range games {
		fmt.Fprintf(&text, "[Game \"ogi\"]\n[Event \"E%d\"]\n[Sente \"Dup\"]\n[Gote \"Opp\"]\n", i)
		for _, v := range g.sente {
			fmt.Fprintf(&text, "[SenteElo \"%s\"]\n", v)
		}
		for _, v := range g.gote {
			fmt.Fprintf(&text, "[GoteElo \"%s\"]\n", v)
		}
		fmt.Fprintf(&text, "[Result \"1-0\"]\n\n1. %s Pa6-a5 1-0\n\n", g.first)
	}
	if _, err := importFiles(ctx, db, []string{writeFile(t, dir, "dup.pdn", []byte(text.String()))}, index.ImportOptions{}); err != nil {
		t.Fatal(err)
	}
	rg, _ := rules.Lookup("ogi")
	start, _ := rg.NewPosition("")
	in := func(vs []string, lo, hi int) bool {
		return slices.ContainsFunc(vs, func(v string) bool {
			var n int
			_, err := fmt.Sscan(v, &n)
			return err == nil && n >= lo && (hi == 0 || n <= hi)
		})
	}
	bands := [][2]int{{2000, 2200}, {1400, 1600}, {900, 1000}, {2250, 2400}, {2200, 0}, {0, 1999}, {1000, 9999}}
	// want is the first moves of the games of a band, sorted.
	want := func(b [2]int) []string {
		var out []string
		for _, g := range games {
			if in(g.sente, b[0], b[1]) && in(g.gote, b[0], b[1]) {
				out = append(out, g.first)
			}
		}
		slices.Sort(out)
		return out
	}
	check := func(what string, db *index.DB) {
		t.Helper()
		for _, b := range bands {
			var q index.Query
			q.Players[0], q.MinElo, q.MaxElo = "Dup", b[0], b[1]
			tr, err := db.FilteredTree(ctx, "ogi", start, q)
			if err != nil {
				t.Fatalf("%s: tree %v: %v", what, b, err)
			}
			var fromTree []string
			for _, m := range tr {
				for range m.Games {
					fromTree = append(fromTree, m.Move)
				}
			}
			slices.Sort(fromTree)
			q.Limit = -1
			res, err := db.Search(ctx, q)
			if err != nil {
				t.Fatalf("%s: search %v: %v", what, b, err)
			}
			var fromSQL []string
			for _, h := range res.Hits {
				var i int
				if _, err := fmt.Sscanf(h.Event, "E%d", &i); err != nil || i >= len(games) {
					t.Fatalf("%s: hit %+v", what, h)
				}
				fromSQL = append(fromSQL, games[i].first)
			}
			slices.Sort(fromSQL)
			w := want(b)
			if fmt.Sprint(fromTree) != fmt.Sprint(w) || fmt.Sprint(fromSQL) != fmt.Sprint(w) {
				t.Errorf("%s: band %v: tree %v, search %v, want %v", what, b, fromTree, fromSQL, w)
			}
		}
	}
	check("imported", db)
	samePlayerLines(t, db)

	// Layout 20: the lines keep the least value.
	if err := index.DowngradeToLayout20(ctx, db); err != nil {
		t.Fatal(err)
	}
	db.Close()
	ro, err := index.Open(ctx, dbDir, index.Options{ReadOnly: true})
	if err != nil {
		t.Fatalf("read-only open of layout 20: %v", err)
	}
	check("layout 20, read-only", ro)
	ro.Close()
	var notices []string
	db, err = index.Open(ctx, dbDir, index.Options{Notice: func(s string) { notices = append(notices, s) }})
	if err != nil {
		t.Fatal(err)
	}
	wantLayoutSteps(t, notices, 20)
	samePlayerLines(t, db)
	check("upgraded from 20", db)

	// The band's tree reads the lines (spoilt: it fails), its lines not
	// kept in memory (opened again).
	if err := index.SpoilPlayerLines(ctx, db); err != nil {
		t.Fatal(err)
	}
	db.Close()
	db = openDB(t, dbDir)
	var q index.Query
	q.Players[0], q.MinElo, q.MaxElo = "Dup", 2000, 2200
	if got, err := db.FilteredTree(ctx, "ogi", start, q); err == nil {
		t.Fatalf("spoilt lines read: %v", got)
	}
}
