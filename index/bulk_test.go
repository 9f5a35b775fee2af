package index_test

import (
	"context"
	"slices"
	"testing"

	"github.com/plateau/plateau/index"
)

// TestBulkImport: an import whose files weigh at least bulkMinBytes and a
// KiB for each game stored leaves the games' player and date indexes out
// while it stores its games and builds them at its end; a smaller one does
// not drop them. The games found by player are those of an import that
// kept them.
func TestBulkImport(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	text := genText(t, "jetan", 300, 7)
	big := writeFile(t, dir, "big.pdn", text)
	small := writeFile(t, dir, "small.pdn", genText(t, "jetan", 3, 8))

	var during [][]string
	var db *index.DB
	restore := index.SetBulk(1, func() {
		m, err := index.MissingIndexes(ctx, db)
		if err != nil {
			t.Error(err)
		}
		during = append(during, m)
	})
	defer restore()
	db = openDB(t, dir+"/bulk")
	if _, err := importFiles(ctx, db, []string{big}, index.ImportOptions{}); err != nil {
		t.Fatal(err)
	}
	if len(during) != 1 || len(during[0]) != 4 {
		t.Fatalf("the indexes out during the bulk import: %v, want one import with 4 out", during)
	}
	if m, err := index.MissingIndexes(ctx, db); err != nil || len(m) != 0 {
		t.Fatalf("after the bulk import, missing %v (%v)", m, err)
	}
	// A few games into 300: far less than a KiB a game stored.
	if _, err := importFiles(ctx, db, []string{small}, index.ImportOptions{}); err != nil {
		t.Fatal(err)
	}
	if len(during) != 1 {
		t.Fatalf("an import of 3 games into 300 was bulk")
	}

	// The same files, never bulk.
	index.SetBulk(1<<40, func() { t.Error("an import under bulkMinBytes was bulk") })
	ref := openDB(t, dir+"/ref")
	for _, f := range []string{big, small} {
		if _, err := importFiles(ctx, ref, []string{f}, index.ImportOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	for _, q := range []index.Query{{Player: "a", Limit: 1000}, {Player: "Schmidt", Limit: 1000},
		{DateFrom: "1990", DateTo: "2000", Limit: 1000}} {
		got, err := db.Search(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		want, err := ref.Search(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		if len(want.Hits) == 0 {
			t.Fatalf("%+v finds no game: the test compares nothing", q)
		}
		if !slices.Equal(hitIDs(got.Hits), hitIDs(want.Hits)) {
			t.Errorf("%+v: bulk import finds %v, the other %v", q, hitIDs(got.Hits), hitIDs(want.Hits))
		}
	}
}

func hitIDs(hs []index.Hit) []int64 {
	var ids []int64
	for _, h := range hs {
		ids = append(ids, h.ID)
	}
	return ids
}

// TestRestoreIndexes: the indexes a killed bulk import left out are built by
// the next writable open while no import holds the import lock, else by
// the next import.
func TestRestoreIndexes(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	file := writeFile(t, dir, "g.pdn", genText(t, "jetan", 20, 3))
	db := openDB(t, dir+"/db")
	if _, err := importFiles(ctx, db, []string{file}, index.ImportOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := index.DropDeferred(ctx, db); err != nil {
		t.Fatal(err)
	}
	missing := func(db *index.DB) int {
		m, err := index.MissingIndexes(ctx, db)
		if err != nil {
			t.Fatal(err)
		}
		return len(m)
	}
	// An import holds the lock: an open leaves the indexes to it.
	release, err := index.HoldImportLock(db)
	if err != nil || release == nil {
		t.Fatalf("import lock: %v", err)
	}
	db2 := openDB(t, dir+"/db")
	if n := missing(db2); n != 4 {
		t.Fatalf("an open while an import runs built indexes: %d missing, want 4", n)
	}
	release()
	db3 := openDB(t, dir+"/db")
	if n := missing(db3); n != 0 {
		t.Fatalf("a writable open left %d indexes out", n)
	}
	// The next import builds them too.
	if err := index.DropDeferred(ctx, db); err != nil {
		t.Fatal(err)
	}
	file2 := writeFile(t, dir, "h.pdn", genText(t, "jetan", 2, 4))
	if _, err := importFiles(ctx, db2, []string{file2}, index.ImportOptions{}); err != nil {
		t.Fatal(err)
	}
	if n := missing(db); n != 0 {
		t.Fatalf("an import left %d indexes out", n)
	}
}
