package index_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/plateau/plateau/index"
	"github.com/plateau/plateau/index/internal/patsig"
)

// TestUpgrade22 writes every pattern signature of a database in version 1
// (layout 22), scans it read-only, and upgrades it: the signatures are the
// import's again, byte for byte, and every pattern counts the same games,
// the signatures skipping games all along.
func TestUpgrade22(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	file := writeFile(t, dir, "ogi.pgn", genText(t, "ogi", 400, 11))
	dbDir := dir + "/db"
	db, err := index.Open(ctx, dbDir, index.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := importFiles(ctx, db, []string{file}, index.ImportOptions{}); err != nil {
		t.Fatal(err)
	}
	sigs, err := index.PatternSigs(ctx, db)
	if err != nil || len(sigs) != 400 {
		t.Fatalf("%d signatures, %v", len(sigs), err)
	}
	want := patternCounts(t, db)
	if want[0] != 0 || want[5] == 0 {
		t.Fatalf("counts %v: the patterns mean nothing", want)
	}
	if err := index.DowngradeToLayout22(ctx, db); err != nil {
		t.Fatal(err)
	}
	old, err := index.PatternSigs(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	for id, s := range old {
		if s == "" || s[0] != patsig.Version1 || len(s) <= len(sigs[id]) {
			t.Fatalf("game %d: the downgrade left %x (version 2: %x)", id, s, sigs[id])
		}
	}
	db.Close()

	ro, err := index.Open(ctx, dbDir, index.Options{ReadOnly: true})
	if err != nil {
		t.Fatalf("read-only open of layout 22: %v", err)
	}
	got := patternCounts(t, ro)
	ro.Close()
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("layout 22, read-only: counts %v, want %v", got, want)
	}

	db = openUpgraded(t, dbDir, 22)
	after, err := index.PatternSigs(ctx, db)
	if err != nil || fmt.Sprint(after) != fmt.Sprint(sigs) {
		t.Errorf("the upgrade's signatures differ from the import's (%v)", err)
	}
	if !index.PatternSigsUsed(db) {
		t.Error("the upgraded database's scans do not read the signatures")
	}
	if got := patternCounts(t, db); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("layout 23: counts %v, want %v", got, want)
	}
}
