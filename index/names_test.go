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

// TestUpgrade6: a layout-6 database (no name index) is read as it is by a
// read-only handle (pages by player) and given the name index by a
// writable open, with a notice: the entries are those an import writes,
// and player searches answer the same before and after.
func TestUpgrade6(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	dbDir := filepath.Join(dir, "db")
	db := openDB(t, dbDir)
	f := writeFile(t, dir, "a.pdn", genText(t, "jetan", 300, 12))
	if _, err := importFiles(ctx, db, []string{f}, index.ImportOptions{TxGames: 100}); err != nil {
		t.Fatal(err)
	}
	entries, err := index.NameEntries(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) < 1000 {
		t.Fatalf("%d name entries: the test means nothing", len(entries))
	}
	queries := []string{"Schmidt", "Nguyễn", "a", "Иван"}
	rows, err := db.SQL().QueryContext(ctx, `SELECT name FROM players ORDER BY id LIMIT 4`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var n string
		rows.Scan(&n)
		queries = append(queries, strings.Fields(strings.ReplaceAll(n, ",", " "))[0], n)
	}
	rows.Close()
	pages := func(db *index.DB) string {
		var b strings.Builder
		for _, q := range queries {
			res, err := db.Search(ctx, index.Query{Player: q, Limit: 20})
			if err != nil {
				t.Fatal(err)
			}
			fmt.Fprintf(&b, "%s:", q)
			for _, h := range res.Hits {
				fmt.Fprintf(&b, " %d", h.ID)
			}
			b.WriteString("\n")
		}
		return b.String()
	}
	before := pages(db)
	if strings.Count(before, " ") < 60 {
		t.Fatalf("the queries find few games:\n%s", before)
	}
	if err := index.DowngradeToLayout6(ctx, db); err != nil {
		t.Fatal(err)
	}
	db.Close()

	ro, err := index.Open(ctx, dbDir, index.Options{ReadOnly: true})
	if err != nil {
		t.Fatalf("read-only open of layout 6: %v", err)
	}
	if got := pages(ro); got != before {
		t.Errorf("layout 6 read-only: pages\n%s\nwant\n%s", got, before)
	}
	ro.Close()

	db = openUpgraded(t, dbDir, 6)
	got, err := index.NameEntries(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, entries) {
		t.Errorf("after the upgrade: %d name entries, the import wrote %d", len(got), len(entries))
	}
	if got := pages(db); got != before {
		t.Errorf("upgraded: pages\n%s\nwant\n%s", got, before)
	}
	g := writeFile(t, dir, "b.pdn", genText(t, "jetan", 100, 13))
	if _, err := importFiles(ctx, db, []string{g}, index.ImportOptions{TxGames: 100}); err != nil {
		t.Fatal(err)
	}
	if err := index.CheckNameIndex(ctx, db); err != nil {
		t.Fatalf("after an import into the upgraded database: %v", err)
	}
}
