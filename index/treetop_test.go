package index_test

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/plateau/plateau/index"
	"github.com/plateau/plateau/rules"
)

// TestTreeTops: after several imports into one database (collections of
// other seeds, so that other players lead), in small transactions, every
// tree row's stored top players are the best of its tree_players rows, and
// Tree shows what ranking every tree_players row of the position gives.
func TestTreeTops(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	db := openDB(t, filepath.Join(dir, "db"))
	g, _ := rules.Lookup("draughts")
	start, err := g.NewPosition("")
	if err != nil {
		t.Fatal(err)
	}
	changed := 0
	var last string
	for i, seed := range []uint64{1, 2, 3, 1} {
		f := writeFile(t, dir, fmt.Sprintf("s%d-%d.pdn", seed, i), genText(t, "draughts", 300, seed))
		if _, err := importFiles(ctx, db, []string{f}, index.ImportOptions{TxGames: 40}); err != nil {
			t.Fatal(err)
		}
		n, err := index.CheckTreeTops(ctx, db)
		if err != nil {
			t.Fatalf("after import %d: %v", i+1, err)
		}
		if n == 0 {
			t.Fatalf("after import %d: no tree row holds top players", i+1)
		}
		tree, err := db.Tree(ctx, "draughts", start)
		if err != nil || len(tree) == 0 {
			t.Fatalf("tree: %v %v", tree, err)
		}
		want, err := index.TreeTopsScan(ctx, db, "draughts", start)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range tree {
			if fmt.Sprint(m.Top) != fmt.Sprint(want[m.Move]) {
				t.Errorf("after import %d, %s: top %v, tree_players %v", i+1, m.Move, m.Top, want[m.Move])
			}
		}
		if s := fmt.Sprint(tree[0].Top); s != last {
			changed++
			last = s
		}
	}
	// The test means something only if the leaders changed between imports.
	if changed < 2 {
		t.Errorf("the top players of the most played move changed %d times", changed)
	}
}
