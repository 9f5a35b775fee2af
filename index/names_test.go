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

	var notices []string
	db, err = index.Open(ctx, dbDir, index.Options{Notice: func(s string) { notices = append(notices, s) }})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if len(notices) != 19 || !strings.Contains(notices[0], "layout 6 to 7") || !strings.Contains(notices[1], "layout 7 to 8") ||
		!strings.Contains(notices[2], "layout 8 to 9") || !strings.Contains(notices[3], "layout 9 to 10") ||
		!strings.Contains(notices[4], "layout 10 to 11") || !strings.Contains(notices[5], "layout 11 to 12") ||
		!strings.Contains(notices[6], "layout 12 to 13") ||
		!strings.Contains(notices[7], "layout 13 to 14") ||
		!strings.Contains(notices[8], "layout 14 to 15") ||
		!strings.Contains(notices[9], "layout 15 to 16") ||
		!strings.Contains(notices[10], "layout 16 to 17") ||
		!strings.Contains(notices[11], "layout 17 to 18") ||
		!strings.Contains(notices[12], "layout 18 to 19") ||
		!strings.Contains(notices[13], "layout 19 to 20") ||
		!strings.Contains(notices[14], "layout 20 to 21") ||
		!strings.Contains(notices[15], "layout 21 to 22") ||
		!strings.Contains(notices[16], "layout 22 to 23") ||
		!strings.Contains(notices[17], "layout 23 to 24") ||
		!strings.Contains(notices[18], "layout 24 to 25") {
		t.Errorf("notices %q", notices)
	}
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
