package index_test

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/plateau/plateau/index"
)

// openingGames are draughts games by their moves, named by White.
func openingGames(games map[string]string) []byte {
	var b strings.Builder
	names := make([]string, 0, len(games))
	for n := range games {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		fmt.Fprintf(&b, "[Game \"draughts\"]\n[White %q]\n[Black \"B\"]\n[Result \"*\"]\n\n%s *\n\n", n, games[n])
	}
	return []byte(b.String())
}

// TestOpenings: names nest (the deepest wins), a transposition gets the
// name, games imported after the names get theirs, a name given again
// replaces the old one, search --opening matches a prefix, and deleting
// the names takes the games' openings.
func TestOpenings(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	db := openDB(t, filepath.Join(dir, "db"))
	defer db.Close()
	f := writeFile(t, dir, "a.pdn", openingGames(map[string]string{
		"deep":          "1. 32-28 17-21 2. 33-29 21-26",
		"transposition": "1. 33-29 17-21 2. 32-28",
		"shallow":       "1. 32-28 16-21",
		"none":          "1. 31-26 17-21",
	}))
	if _, err := importFiles(ctx, db, []string{f}, index.ImportOptions{}); err != nil {
		t.Fatal(err)
	}
	names := "draughts\tTest opening\t32-28\n" +
		"draughts\tTest opening, deep\t1. 32-28 17-21 2. 33-29\n" +
		"draughts\tBroken\t32-28 17-21 28-27\n"
	es, errs := index.ReadOpenings(strings.NewReader(names), "names.tsv")
	st, errs2, err := db.ImportOpenings(ctx, es)
	if err != nil || len(errs) != 0 || len(errs2) != 1 || !strings.HasPrefix(errs2[0].Error(), `names.tsv:3: move 3 "28-27"`) {
		t.Fatalf("import: %v %v %v", errs, errs2, err)
	}
	if st.Names != 2 || st.Games != 3 {
		t.Errorf("import %+v, want 2 names, 3 games", st)
	}
	want := map[string]string{"deep": "Test opening, deep", "transposition": "Test opening, deep", "shallow": "Test opening", "none": ""}
	check := func(when string, want map[string]string) {
		t.Helper()
		res, err := db.Search(ctx, index.Query{Game: "draughts"})
		if err != nil {
			t.Fatal(err)
		}
		var ids []int64
		for _, h := range res.Hits {
			ids = append(ids, h.ID)
		}
		got, err := db.GameOpenings(ctx, ids)
		if err != nil {
			t.Fatal(err)
		}
		for _, h := range res.Hits {
			if w, ok := want[h.Players[0]]; ok && got[h.ID] != w {
				t.Errorf("%s: %s named %q, want %q", when, h.Players[0], got[h.ID], w)
			}
		}
	}
	check("after the names", want)
	search := func(prefix string) []string {
		t.Helper()
		res, err := db.Search(ctx, index.Query{Opening: prefix, Count: true})
		if err != nil {
			t.Fatal(err)
		}
		var ps []string
		for _, h := range res.Hits {
			ps = append(ps, h.Players[0])
		}
		slices.Sort(ps)
		return ps
	}
	for _, c := range []struct{ prefix, want string }{
		{"Test opening", "deep shallow transposition"},
		{"test OPENING, d", "deep transposition"},
		{"Test opening, deep", "deep transposition"},
		{"Sicilian", ""},
		// LIKE's wildcards are not wildcards: "_" and "%" are punctuation,
		// which folding makes a space between words (so "Test_" is
		// "Test" followed by more words, as "Test opening" is).
		{"T_st", ""},
		{"%opening", ""},
		{"Test_", "deep shallow transposition"},
		{"Test opening,", "deep transposition"}, // more after the comma
	} {
		if got := strings.Join(search(c.prefix), " "); got != c.want {
			t.Errorf("search --opening %q: %q, want %q", c.prefix, got, c.want)
		}
	}

	g := writeFile(t, dir, "b.pdn", openingGames(map[string]string{"later": "1. 32-28 17-21 2. 33-29 11-17"}))
	if _, err := importFiles(ctx, db, []string{g}, index.ImportOptions{}); err != nil {
		t.Fatal(err)
	}
	want["later"] = "Test opening, deep"
	check("a game imported after the names", want)

	es, _ = index.ReadOpenings(strings.NewReader("draughts\tSingle corner\t32-28\n"), "rename.tsv")
	if _, errs, err := db.ImportOpenings(ctx, es); err != nil || len(errs) > 0 {
		t.Fatal(errs, err)
	}
	want["shallow"] = "Single corner"
	check("renamed", want)
	// A save that changes a game's moves changes its opening.
	res, err := db.Search(ctx, index.Query{Game: "draughts", Player: "none"})
	if err != nil || len(res.Hits) != 1 {
		t.Fatalf("the unnamed game: %+v %v", res, err)
	}
	text, err := db.Text(ctx, res.Hits[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	edited := strings.Replace(string(text), "1. 31-26 17-21", "1. 32-28 17-21", 1)
	if _, err := db.SaveRecord(ctx, res.Hits[0].ID, []byte(edited), 1); err != nil || edited == string(text) {
		t.Fatalf("save: %v (text %q)", err, text)
	}
	want["none"] = "Single corner"
	check("a game saved with other moves", want)

	// A game deleted leaves no opening behind.
	if _, err := db.Delete(ctx, []int64{res.Hits[0].ID}, nil); err != nil {
		t.Fatal(err)
	}
	var left int
	if err := db.SQL().QueryRowContext(ctx, `SELECT COUNT(*) FROM game_openings WHERE game = ?`, res.Hits[0].ID).Scan(&left); err != nil || left != 0 {
		t.Errorf("the deleted game's opening rows: %d %v", left, err)
	}
	delete(want, "none")

	list, err := db.Openings(ctx, "draughts")
	if err != nil || len(list) != 2 || list[0].Name != "Single corner" || list[1].Ply != 3 {
		t.Errorf("list %+v %v", list, err)
	}
	if n, err := db.DeleteOpenings(ctx, ""); err != nil || n != 2 {
		t.Errorf("delete: %d %v", n, err)
	}
	check("deleted", map[string]string{"deep": "", "shallow": "", "later": ""})
	if got := search("Test"); len(got) != 0 {
		t.Errorf("after delete: %q", got)
	}
}

// TestOpeningsLayout10: a layout-10 database opened read-only has no
// names and finds no game by opening, without error; a writable open
// upgrades it to 11 (and 12) with a notice, and its names can be imported.
func TestOpeningsLayout10(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	dbDir := filepath.Join(dir, "db")
	db := openDB(t, dbDir)
	f := writeFile(t, dir, "a.pdn", openingGames(map[string]string{"deep": "1. 32-28 17-21 2. 33-29 21-26"}))
	if _, err := importFiles(ctx, db, []string{f}, index.ImportOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := index.DowngradeToLayout10(ctx, db); err != nil {
		t.Fatal(err)
	}
	db.Close()
	ro, err := index.Open(ctx, dbDir, index.Options{ReadOnly: true})
	if err != nil {
		t.Fatalf("read-only open of layout 10: %v", err)
	}
	res, err := ro.Search(ctx, index.Query{Opening: "Test", Count: true})
	list, lerr := ro.Openings(ctx, "")
	names, nerr := ro.GameOpenings(ctx, []int64{1})
	ro.Close()
	if err != nil || res.Total != 0 || lerr != nil || len(list) != 0 || nerr != nil || len(names) != 0 {
		t.Errorf("layout 10 read-only: %+v %v, list %v %v, names %v %v", res, err, list, lerr, names, nerr)
	}
	db = openUpgraded(t, dbDir, 10)
	es, _ := index.ReadOpenings(strings.NewReader("draughts\tTest opening\t32-28\n"), "names.tsv")
	if st, errs, err := db.ImportOpenings(ctx, es); err != nil || len(errs) > 0 || st.Games != 1 {
		t.Errorf("import after the upgrade: %+v %v %v", st, errs, err)
	}
}
