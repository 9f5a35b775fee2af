package index_test

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/plateau/plateau/index"
	"github.com/plateau/plateau/index/internal/movelist"
)

// TestUpgrade21 stores every move list of a database in the legacy form
// (layout 21), reads it read-only, and upgrades it: the lists are packed
// again to the bytes the import wrote, the games table keeps its indexes
// and trigger, and patterns, deep trees and exports answer the same.
func TestUpgrade21(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	file := writeFile(t, dir, "ogi.pgn", genText(t, "ogi", 300, 7))
	dbDir := dir + "/db"
	db, err := index.Open(ctx, dbDir, index.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := importFiles(ctx, db, []string{file}, index.ImportOptions{}); err != nil {
		t.Fatal(err)
	}
	packed, err := index.StoredMoves(ctx, db)
	if err != nil || len(packed) != 300 {
		t.Fatalf("%d move lists, %v", len(packed), err)
	}
	var nvar, withVars int
	for _, b := range packed {
		if len(b) < 2 || b[0]&0x80 == 0 || b[1] != 0 {
			t.Fatalf("an imported list is not packed: % x", b[:min(len(b), 8)])
		}
		ml, err := movelist.Decode(b)
		if err != nil {
			t.Fatal(err)
		}
		if len(ml.Steps) > len(ml.Main) {
			withVars++
		}
	}
	if withVars == 0 {
		t.Fatal("no game has a variation: the test does not read the variations' flag")
	}
	schema, err := index.GamesSchema(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	answers := func(db *index.DB) string {
		var sb strings.Builder
		fmt.Fprint(&sb, patternCounts(t, db))
		for id := int64(1); id <= 300; id += 37 {
			for _, plies := range []int{9, 10, 12} {
				pos, err := index.MainPosition("ogi", packed[id], plies)
				if err != nil {
					t.Fatal(err)
				}
				tree, err := db.Tree(ctx, "ogi", pos)
				if err != nil {
					t.Fatal(err)
				}
				fmt.Fprintf(&sb, "\n%d/%d: %+v", id, plies, tree)
				nvar += len(tree)
			}
		}
		if err := db.Records(ctx, index.Query{Game: "ogi"}, func(id int64, text []byte) error {
			fmt.Fprintf(&sb, "\n#%d %s", id, text)
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		return sb.String()
	}
	want := answers(db)
	if nvar == 0 {
		t.Fatal("no deep tree has a move: the test reads no move list")
	}
	if err := index.DowngradeToLayout21(ctx, db); err != nil {
		t.Fatal(err)
	}
	legacy, err := index.StoredMoves(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	for id, b := range legacy {
		if len(b) >= 2 && b[0]&0x80 != 0 && b[1] == 0 || len(b) <= len(packed[id]) {
			t.Fatalf("game %d: the downgrade left % x (packed % x)", id, b, packed[id])
		}
	}
	db.Close()

	ro, err := index.Open(ctx, dbDir, index.Options{ReadOnly: true})
	if err != nil {
		t.Fatalf("read-only open of layout 21: %v", err)
	}
	got := answers(ro)
	ro.Close()
	if got != want {
		t.Errorf("layout 21, read-only: the answers differ:\n%s\nwant\n%s", got, want)
	}

	db = openUpgraded(t, dbDir, 21)
	after, err := index.StoredMoves(ctx, db)
	if err != nil || !reflect.DeepEqual(after, packed) {
		t.Errorf("the upgrade's lists differ from the import's (%v)", err)
	}
	if s, err := index.GamesSchema(ctx, db); err != nil || !reflect.DeepEqual(s, schema) {
		t.Errorf("games schema after the upgrade:\n%q\nwant\n%q (%v)", s, schema, err)
	}
	if got := answers(db); got != want {
		t.Errorf("layout 22: the answers differ:\n%s\nwant\n%s", got, want)
	}
}
