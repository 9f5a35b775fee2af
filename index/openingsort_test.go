package index_test

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/plateau/plateau/index"
)

// unicodeNames names the draughts positions after White's first moves in
// three scripts; the games of unicodeDB reach them (and one game none).
const unicodeNames = "draughts\tÉcossaise\t32-28\n" +
	"draughts\tStraße\t33-29\n" +
	"draughts\tСицилианская, Найдорф\t34-30\n" +
	"draughts\tbristol\t31-27\n" +
	"draughts\tKelso\t35-30\n" +
	"draughts\tKelso\t33-28\n" // one name, two positions

// unicodeDB is a database of 13 draughts games: two of each named first
// move (White "<move> a" and "<move> b") and one unnamed ("31-26").
func unicodeDB(t *testing.T) (*index.DB, string) {
	t.Helper()
	ctx := context.Background()
	dir := t.TempDir()
	dbDir := filepath.Join(dir, "db")
	db := openDB(t, dbDir)
	games := map[string]string{"31-26": "1. 31-26 17-21"}
	for _, m := range []string{"32-28", "33-29", "34-30", "31-27", "35-30", "33-28"} {
		games[m+" a"] = "1. " + m + " 17-21"
		games[m+" b"] = "1. " + m + " 16-21"
	}
	f := writeFile(t, dir, "a.pdn", openingGames(games))
	if _, err := importFiles(ctx, db, []string{f}, index.ImportOptions{}); err != nil {
		t.Fatal(err)
	}
	es, errs := index.ReadOpenings(strings.NewReader(unicodeNames), "names.tsv")
	if st, errs2, err := db.ImportOpenings(ctx, es); err != nil || len(errs)+len(errs2) > 0 || st.Games != 12 {
		t.Fatalf("names: %+v %v %v %v", st, errs, errs2, err)
	}
	return db, dbDir
}

// openingSearches are searches by opening in any case and script: the
// names they find (Go's lower-casing decides: "ẞ" is "ß", "ss" is not).
var openingSearches = []struct{ query, want string }{
	{"ÉCOSSAISE", "Écossaise"},
	{"ecossaise", "Écossaise"},
	{"écoss", "Écossaise"},
	{"STRAẞE", "Straße"},
	{"straße", "Straße"},
	{"strasse", ""},
	{"СИЦИЛ", "Сицилианская, Найдорф"},
	{"сицилианская найдорф", "Сицилианская, Найдорф"},
	{"Сицилианская,  НАЙ", "Сицилианская, Найдорф"},
	{"BRISTOL", "bristol"},
	{"Kelso, x", ""},
	{"Kelso,", ""}, // punctuation last: more words after it
	{"Сицилианская,", "Сицилианская, Найдорф"},
}

// checkOpeningSearches runs openingSearches on db: each finds the two
// games of its name, or none.
func checkOpeningSearches(t *testing.T, db *index.DB, when string) {
	t.Helper()
	ctx := context.Background()
	for _, c := range openingSearches {
		res, err := db.Search(ctx, index.Query{Opening: c.query, Count: true})
		if err != nil {
			t.Fatalf("%s: %q: %v", when, c.query, err)
		}
		var ids []int64
		for _, h := range res.Hits {
			ids = append(ids, h.ID)
		}
		names, err := db.GameOpenings(ctx, ids)
		if err != nil {
			t.Fatal(err)
		}
		n := 2
		if c.want == "" {
			n = 0
		}
		if res.Total != n || len(names) != n || (n > 0 && (names[ids[0]] != c.want || names[ids[1]] != c.want)) {
			t.Errorf("%s: %q found %d games %v, want 2 of %q", when, c.query, res.Total, names, c.want)
		}
	}
}

// TestOpeningSearchUnicode: a search by opening folds as player names do,
// in every script.
func TestOpeningSearchUnicode(t *testing.T) {
	db, _ := unicodeDB(t)
	defer db.Close()
	checkOpeningSearches(t, db, "layout 12")
}

// byOpening is the order of unicodeDB's games by opening: named first by
// folded name (bristol, écossaise, kelso, straße, сицилианская), one name
// by its positions in the order they were named (35-30, then 33-28), the
// unnamed game last; each pair in id order, reversed descending.
func byOpening(t *testing.T, db *index.DB, desc bool) []string {
	t.Helper()
	var out []string
	for _, h := range listAll(t, db, index.ListOptions{Sort: "opening", Desc: desc}, 3) {
		out = append(out, h.Players[0])
	}
	return out
}

// listAll reads a whole list by pages of limit games, forwards by the
// cursor of each page's last game; then checks that reading backwards by
// the cursor of each page's first game gives the same pages.
func listAll(t *testing.T, db *index.DB, o index.ListOptions, limit int) []index.ListHit {
	t.Helper()
	ctx := context.Background()
	var all []index.ListHit
	var pages [][]index.ListHit
	var firsts []index.ListCursor
	for {
		hits, cursors, err := db.List(ctx, index.Query{Limit: limit}, o)
		if err != nil {
			t.Fatal(err)
		}
		if len(hits) == 0 {
			break
		}
		all, pages, firsts = append(all, hits...), append(pages, hits), append(firsts, cursors[0])
		o.After = &cursors[len(cursors)-1]
	}
	o.After = nil
	for i := len(pages) - 1; i > 0; i-- {
		o.Before = &firsts[i]
		hits, _, err := db.List(ctx, index.Query{Limit: limit}, o)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.EqualFunc(hits, pages[i-1], func(a, b index.ListHit) bool { return a.ID == b.ID }) {
			t.Fatalf("sort %q desc=%v: the page before page %d is not page %d", o.Sort, o.Desc, i+1, i)
		}
	}
	return all
}

var (
	wantByOpening = []string{"31-27 a", "31-27 b", "32-28 a", "32-28 b", "35-30 a", "35-30 b", "33-28 a", "33-28 b",
		"33-29 a", "33-29 b", "34-30 a", "34-30 b", "31-26"}
	wantByOpeningDesc = []string{"34-30 b", "34-30 a", "33-29 b", "33-29 a", "33-28 b", "33-28 a", "35-30 b", "35-30 a",
		"32-28 b", "32-28 a", "31-27 b", "31-27 a", "31-26"}
)

// TestListByOpening: the list sorted by opening, in pages of three read
// forwards and backwards: by folded name in every script, the unnamed game
// last in both directions.
func TestListByOpening(t *testing.T) {
	db, _ := unicodeDB(t)
	defer db.Close()
	if got := byOpening(t, db, false); !slices.Equal(got, wantByOpening) {
		t.Errorf("ascending %q", got)
	}
	if got := byOpening(t, db, true); !slices.Equal(got, wantByOpeningDesc) {
		t.Errorf("descending %q", got)
	}
	checkOffsets(t, db)
	checkOpeningFilter(t, db)
}

// checkOpeningFilter: a list by opening searched by opening (read in
// segments of the matching openings) is the list sorted whole with a
// criterion more, and pages alike at every offset.
func checkOpeningFilter(t *testing.T, db *index.DB) {
	t.Helper()
	ctx := context.Background()
	players := func(q index.Query, o index.ListOptions) []string {
		t.Helper()
		hits, _, err := db.List(ctx, q, o)
		if err != nil {
			t.Fatal(err)
		}
		out := []string{}
		for _, h := range hits {
			out = append(out, h.Players[0])
		}
		return out
	}
	for _, c := range []struct {
		prefix string
		n      int
	}{{"k", 4}, {"ÉCOSS", 2}, {"s", 2}, {"с", 2}, {"Kelso,", 0}} {
		for _, desc := range []bool{false, true} {
			o := index.ListOptions{Sort: "opening", Desc: desc}
			all := players(index.Query{Opening: c.prefix, Limit: -1}, o)
			whole := players(index.Query{Opening: c.prefix, MinPlies: 1, Limit: -1}, o)
			if len(all) != c.n || !slices.Equal(all, whole) {
				t.Errorf("%q desc=%v: %q, sorted whole %q, want %d games", c.prefix, desc, all, whole, c.n)
			}
			for off := range all {
				if got := players(index.Query{Opening: c.prefix, Offset: off, Limit: 3}, o); !slices.Equal(got, all[off:min(off+3, len(all))]) {
					t.Errorf("%q desc=%v offset %d: %q", c.prefix, desc, off, got)
				}
			}
		}
	}
}

// checkOffsets: every offset of the list by opening, alone and after the
// cursor of each game, is the same slice of the whole list, read in
// segments (a plain list, and one of a ruleset) or sorted whole (a
// criterion that every game meets).
func checkOffsets(t *testing.T, db *index.DB) {
	t.Helper()
	ctx := context.Background()
	for _, desc := range []bool{false, true} {
		want := wantByOpening
		if desc {
			want = wantByOpeningDesc
		}
		o := index.ListOptions{Sort: "opening", Desc: desc}
		all, cursors, err := db.List(ctx, index.Query{Limit: -1}, o)
		if err != nil || len(all) != len(want) {
			t.Fatalf("desc=%v: %d games, %v", desc, len(all), err)
		}
		for _, q := range []index.Query{{}, {Game: "draughts"}, {MinPlies: 1}} {
			for from := -1; from < len(all); from++ {
				for off := 0; off+from+1 <= len(all); off += 2 {
					o.After = nil
					if from >= 0 {
						o.After = &cursors[from]
					}
					q.Offset, q.Limit = off, 4
					hits, _, err := db.List(ctx, q, o)
					if err != nil {
						t.Fatal(err)
					}
					var got []string
					for _, h := range hits {
						got = append(got, h.Players[0])
					}
					start := from + 1 + off
					if w := want[start:min(start+4, len(want))]; !slices.Equal(got, w) {
						t.Errorf("%+v desc=%v after game %d, offset %d: %q, want %q", q, desc, from, off, got, w)
					}
				}
			}
		}
	}
}

// TestOpeningsLayout11: a layout-11 database (names without their folded
// form) opened read-only searches and sorts by opening as layout 12 does;
// a writable open upgrades it to 12 with a notice and folds its names.
func TestOpeningsLayout11(t *testing.T) {
	ctx := context.Background()
	db, dbDir := unicodeDB(t)
	if err := index.DowngradeToLayout11(ctx, db); err != nil {
		t.Fatal(err)
	}
	db.Close()
	ro, err := index.Open(ctx, dbDir, index.Options{ReadOnly: true})
	if err != nil {
		t.Fatalf("read-only open of layout 11: %v", err)
	}
	checkOpeningSearches(t, ro, "layout 11 read-only")
	if got := byOpening(t, ro, false); !slices.Equal(got, wantByOpening) {
		t.Errorf("layout 11 read-only, ascending %q", got)
	}
	ro.Close()
	db = openUpgraded(t, dbDir, 11)
	folds, err := index.OpeningFolds(ctx, db)
	if err != nil || folds["Сицилианская, Найдорф"] != "сицилианская наидорф" || folds["Écossaise"] != "ecossaise" || len(folds) != 5 {
		t.Errorf("folded names %q %v", folds, err)
	}
	checkOpeningSearches(t, db, "upgraded")
	if got := byOpening(t, db, true); !slices.Equal(got, wantByOpeningDesc) {
		t.Errorf("upgraded, descending %q", got)
	}
}
