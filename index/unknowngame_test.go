package index_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/plateau/plateau/index"
	"github.com/plateau/plateau/rules"
)

// TestUnknownGame: a query whose game names neither a ruleset nor a
// stored game fails with a criterion error naming game, whatever reads it
// (search, list, count, crosstable, tree), alone or with other criteria;
// a ruleset's alias and the game of a stored invalid record are filters.
func TestUnknownGame(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	db := openDB(t, filepath.Join(dir, "db"))
	chess := filepath.Join(dir, "chess.pdn")
	if err := os.WriteFile(chess, []byte("[Game \"chess\"]\n[White \"A\"]\n\n1. e4 *\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := importFiles(ctx, db, []string{"../samples/ogi/osaka-club.pdn", chess}, index.ImportOptions{}); err != nil {
		t.Fatal(err)
	}
	rg, _ := rules.Lookup("ogi")
	start, _ := rg.NewPosition("")
	reads := map[string]func(index.Query) error{
		"search": func(q index.Query) error { _, err := db.Search(ctx, q); return err },
		"list":   func(q index.Query) error { _, _, err := db.List(ctx, q, index.ListOptions{}); return err },
		"count":  func(q index.Query) error { _, err := db.Count(ctx, q, index.ListOptions{}); return err },
		"crosstable": func(q index.Query) error {
			_, _, err := db.CrosstablePage(ctx, q, 0, 10, nil)
			return err
		},
		"tree": func(q index.Query) error { _, err := db.FilteredTree(ctx, "ogi", start, q); return err },
	}
	for name, read := range reads {
		for _, q := range []index.Query{
			{Game: "ogii"}, {Game: "ogii", Invalid: true}, {Game: "ogii", Event: "moonlight"},
			{Game: "ogii", Player: "Okabe"}, {Game: "0", Limit: 3},
		} {
			if name == "tree" && q.Invalid {
				continue // a tree refuses invalid games first
			}
			err := read(q)
			var ce *index.CriterionError
			if !errors.As(err, &ce) || ce.Name != "game" || !errors.Is(err, index.ErrQuery) {
				t.Errorf("%s %+v: %v, want a criterion error naming game", name, q, err)
			}
		}
	}
	for _, tc := range []struct {
		q    index.Query
		want int
	}{
		{index.Query{Game: "OGI"}, 8},
		{index.Query{Game: "chess", Invalid: true}, 1},
	} {
		res, err := db.Search(ctx, tc.q)
		if err != nil || len(res.Hits) != tc.want {
			t.Errorf("%+v: %d hits, %v; want %d", tc.q, len(res.Hits), err, tc.want)
		}
	}
}
