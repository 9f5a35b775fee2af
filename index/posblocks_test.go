package index_test

import (
	"context"
	"maps"
	"path/filepath"
	"slices"
	"testing"

	"github.com/plateau/plateau/index"
)

// TestUpgrade14 takes a layout-14 database (the position runs' blocks in
// their legacy form) to layout 15: a read-only handle reads the legacy
// blocks, a writable open packs them in fewer bytes, and every occurrence
// and position count stays the same.
func TestUpgrade14(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	dbDir := filepath.Join(dir, "db")
	db := openDB(t, dbDir)
	files := []string{writeFile(t, dir, "a.pdn", genText(t, "ogi", 300, 7)), "../samples/ogi"}
	if _, err := importFiles(ctx, db, files, index.ImportOptions{TxGames: 70}); err != nil {
		t.Fatal(err)
	}
	start, err := index.Position("ogi", "")
	if err != nil {
		t.Fatal(err)
	}
	count := func(db *index.DB) int {
		n, _, err := db.PositionCount(ctx, index.Query{Game: "ogi", Position: start}, 1000)
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	read := func(stage string, db *index.DB) ([][2]int64, int) {
		occ, err := index.Occurrences(ctx, db)
		if err != nil {
			t.Fatalf("%s: %v", stage, err)
		}
		return occ, count(db)
	}
	want, wantN := read("imported", db)
	packed, err := index.BlockBytes(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	if len(want) < 300*40 || wantN < 300 {
		t.Fatalf("%d occurrences, start position in %d games: the test means nothing", len(want), wantN)
	}
	if err := index.DowngradeToLayout14(ctx, db); err != nil {
		t.Fatal(err)
	}
	legacy, err := index.BlockBytes(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	db.Close()

	ro, err := index.Open(ctx, dbDir, index.Options{ReadOnly: true})
	if err != nil {
		t.Fatalf("read-only open of layout 14: %v", err)
	}
	got, gotN := read("layout 14, read-only", ro)
	ro.Close()
	if !slices.Equal(got, want) || gotN != wantN {
		t.Errorf("layout 14, read-only: %d occurrences, start in %d games; want %d, %d", len(got), gotN, len(want), wantN)
	}

	db = openUpgraded(t, dbDir, 14)
	got, gotN = read("upgraded", db)
	if !slices.Equal(got, want) || gotN != wantN {
		t.Errorf("after the upgrade: %d occurrences, start in %d games; want %d, %d", len(got), gotN, len(want), wantN)
	}
	after, err := index.BlockBytes(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("blocks: %d bytes packed, %d legacy, %d upgraded", packed, legacy, after)
	if after != packed || after*10 > legacy*9 {
		t.Errorf("blocks: %d bytes after the upgrade, %d imported, %d legacy", after, packed, legacy)
	}
}

// allTexts is every game's text, read by Records and by WithText.
func allTexts(t *testing.T, db *index.DB) (map[int64]string, map[int64]string) {
	t.Helper()
	ctx := context.Background()
	records, with := map[int64]string{}, map[int64]string{}
	if err := db.Records(ctx, index.Query{Limit: -1}, func(id int64, text []byte) error {
		records[id] = string(text)
		return db.WithText(ctx, id, func(text []byte) error {
			with[id] = string(text)
			return nil
		})
	}); err != nil {
		t.Fatal(err)
	}
	return records, with
}

// TestUpgrade18 takes a layout-18 database (no text dictionary) to layout
// 19: a read-only handle reads the texts, a writable open makes the
// dictionary and compresses every block against it, in fewer bytes, and
// every game's text reads the same; an import after it compresses its
// blocks against it.
func TestUpgrade18(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	dbDir := filepath.Join(dir, "db")
	db := openDB(t, dbDir)
	files := []string{writeFile(t, dir, "a.pdn", genText(t, "ogi", 300, 8)), "../samples/ogi"}
	if _, err := importFiles(ctx, db, files, index.ImportOptions{TxGames: 70}); err != nil {
		t.Fatal(err)
	}
	with, without, _, err := index.TextBlocks(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	if with == 0 || without == 0 {
		t.Fatalf("imported: %d text blocks with a dictionary, %d without", with, without)
	}
	want, wantWith := allTexts(t, db)
	if len(want) < 300 || !maps.Equal(want, wantWith) {
		t.Fatalf("%d texts by Records, %d by WithText, not all the same", len(want), len(wantWith))
	}
	if err := index.DowngradeToLayout18(ctx, db); err != nil {
		t.Fatal(err)
	}
	_, _, plain, err := index.TextBlocks(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	db.Close()

	ro, err := index.Open(ctx, dbDir, index.Options{ReadOnly: true})
	if err != nil {
		t.Fatalf("read-only open of layout 18: %v", err)
	}
	got, gotWith := allTexts(t, ro)
	ro.Close()
	if !maps.Equal(got, want) || !maps.Equal(gotWith, want) {
		t.Error("layout 18, read-only: texts differ")
	}

	db = openUpgraded(t, dbDir, 18)
	with, without, packed, err := index.TextBlocks(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("texts: %d bytes without the dictionary, %d with", plain, packed)
	if without != 0 || packed*10 > plain*9 {
		t.Errorf("upgraded: %d text blocks with the dictionary, %d without; %d bytes, %d before", with, without, packed, plain)
	}
	got, gotWith = allTexts(t, db)
	if !maps.Equal(got, want) || !maps.Equal(gotWith, want) {
		t.Error("after the upgrade: texts differ")
	}
	if _, err := importFiles(ctx, db, []string{writeFile(t, dir, "b.pdn", genText(t, "ogi", 50, 9))}, index.ImportOptions{}); err != nil {
		t.Fatal(err)
	}
	if with2, without2, _, err := index.TextBlocks(ctx, db); err != nil || without2 != 0 || with2 <= with {
		t.Errorf("after another import: %d text blocks with the dictionary (%d before), %d without (%v)", with2, with, without2, err)
	}
}
