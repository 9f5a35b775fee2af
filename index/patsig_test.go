package index_test

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/plateau/plateau/index"
)

// patsigPatterns are Ōgi patterns that skip many games by their
// signature, and some that skip none.
var patsigPatterns = []string{"*>999", "Sente:+R>=1", "Gote:P@hand>=3", "+*>=4 Sente:K@e5,d5", "Sente:K@e8",
	"empty@e4", "Sente:*<=12", "-P>=1", "Gote:+B@a1,b2"}

// patternCounts are the games each of patsigPatterns matches in db.
func patternCounts(t *testing.T, db *index.DB) []int {
	t.Helper()
	var out []int
	for _, text := range patsigPatterns {
		p, err := index.ParsePattern(text)
		if err != nil {
			t.Fatal(err)
		}
		res, err := db.Search(context.Background(), index.Query{Game: "ogi", Pattern: p, Count: true})
		if err != nil {
			t.Fatalf("%q: %v", text, err)
		}
		out = append(out, res.Total)
	}
	return out
}

// TestUpgrade13 takes a layout-13 database (no pattern signatures) to
// layout 14: a read-only handle scans every game, a writable open writes
// the signatures the import wrote, and the matches stay the same, after
// a deletion too.
func TestUpgrade13(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	dbDir := filepath.Join(dir, "db")
	db := openDB(t, dbDir)
	files := []string{writeFile(t, dir, "a.pdn", genText(t, "ogi", 150, 5)), "../samples/ogi"}
	if _, err := importFiles(ctx, db, files, index.ImportOptions{TxGames: 40}); err != nil {
		t.Fatal(err)
	}
	sigs, err := index.PatternSigs(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	if len(sigs) < 150 {
		t.Fatalf("%d signatures after the import", len(sigs))
	}
	for id, s := range sigs {
		if s == "" {
			t.Errorf("game %d has an empty signature", id)
		}
	}
	if !index.PatternSigsUsed(db) {
		t.Fatal("a new database's scans do not read the signatures")
	}
	want := patternCounts(t, db)
	t.Logf("matches %v", want)
	if want[0] != 0 || want[5] == 0 {
		t.Fatalf("counts %v: the patterns mean nothing", want)
	}
	if err := index.DowngradeToLayout13(ctx, db); err != nil {
		t.Fatal(err)
	}
	db.Close()

	ro, err := index.Open(ctx, dbDir, index.Options{ReadOnly: true})
	if err != nil {
		t.Fatalf("read-only open of layout 13: %v", err)
	}
	got := patternCounts(t, ro)
	ro.Close()
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("layout 13, read-only: counts %v, want %v", got, want)
	}

	db = openUpgraded(t, dbDir, 13)
	after, err := index.PatternSigs(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(after) != fmt.Sprint(sigs) {
		t.Errorf("%d signatures after the upgrade differ from the import's %d", len(after), len(sigs))
	}
	if got := patternCounts(t, db); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("after the upgrade: counts %v, want %v", got, want)
	}
	// A game deleted keeps its entry until its id is stored again: the
	// scans still agree with scans of every game.
	var id int64
	for id = range after {
		break
	}
	if _, err := db.Delete(ctx, []int64{id}, nil); err != nil {
		t.Fatal(err)
	}
	filtered := patternCounts(t, db)
	index.NoPatternSigs(db)
	if all := patternCounts(t, db); fmt.Sprint(filtered) != fmt.Sprint(all) {
		t.Errorf("after deleting game %d: counts %v, every game scanned %v", id, filtered, all)
	}
}

// TestPatternSigSaved saves over a game that a pattern does not match the
// record of one it matches: the game's signature is the new record's, and
// the scan finds it.
func TestPatternSigSaved(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	db := openDB(t, filepath.Join(dir, "db"))
	defer db.Close()
	if _, err := importFiles(ctx, db, []string{writeFile(t, dir, "a.pdn", genText(t, "ogi", 60, 8))}, index.ImportOptions{}); err != nil {
		t.Fatal(err)
	}
	if !index.PatternSigsUsed(db) {
		t.Fatal("a new database's scans do not read the signatures")
	}
	p, err := index.ParsePattern("Sente:+R>=1")
	if err != nil {
		t.Fatal(err)
	}
	res, err := db.Search(ctx, index.Query{Game: "ogi", Pattern: p, Limit: -1, Count: true})
	if err != nil {
		t.Fatal(err)
	}
	matched := map[int64]bool{}
	for _, h := range res.Hits {
		matched[h.ID] = true
	}
	var from, to int64 // a matching game, and one that does not match
	for id := int64(1); id <= 60; id++ {
		if matched[id] && from == 0 {
			from = id
		}
		if !matched[id] && to == 0 {
			to = id
		}
	}
	if from == 0 || to == 0 {
		t.Fatalf("%d of 60 games match: the test means nothing", res.Total)
	}
	text, err := db.Text(ctx, from)
	if err != nil {
		t.Fatal(err)
	}
	text = append([]byte("[Event \"saved\"]\n"), text...)
	if _, err := db.SaveRecord(ctx, to, text, 1); err != nil {
		t.Fatal(err)
	}
	after, err := db.Search(ctx, index.Query{Game: "ogi", Pattern: p, Count: true})
	if err != nil || after.Total != res.Total+1 {
		t.Errorf("after the save: %d matches (%v), want %d", after.Total, err, res.Total+1)
	}
}
