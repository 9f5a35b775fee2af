package index_test

import (
	"context"
	"errors"
	"testing"

	"github.com/plateau/plateau/index"
	"github.com/plateau/plateau/internal/ingest"
)

func TestImportSearchTree(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	file := writeFile(t, dir, "d.pdn", genText(t, "draughts", 300, 1))
	db := openDB(t, dir+"/db")
	st, err := importFiles(ctx, db, []string{file}, index.ImportOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%+v", st)
	if st.Records != 300 || st.Valid != 300 || st.Invalid != 0 {
		t.Fatalf("stats %+v", st)
	}
	// Re-import: the file is skipped; forced, every game is a duplicate.
	st2, err := importFiles(ctx, db, []string{file}, index.ImportOptions{})
	if err != nil || st2.SkippedFiles != 1 || st2.Stored != 0 {
		t.Fatalf("re-import: %+v %v", st2, err)
	}
	st3, err := ingest.Files(ctx, db, []string{file}, ingest.Options{Force: true})
	if err != nil || st3.Duplicates != 300 || st3.Stored != 0 {
		t.Fatalf("forced re-import: %+v %v", st3, err)
	}
	start, err := index.Position("draughts", "")
	if err != nil {
		t.Fatal(err)
	}
	res, err := db.Search(ctx, index.Query{Game: "draughts", Position: start, Count: true, Limit: 5})
	if err != nil {
		t.Fatal(err)
	}
	if res.Total != 300 || len(res.Hits) != 5 || res.Hits[0].Ply != 0 {
		t.Fatalf("start position: total %d, %+v", res.Total, res.Hits)
	}
	tree, err := db.Tree(ctx, "draughts", start)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, m := range tree {
		n += m.Games
	}
	if n != 300 {
		t.Fatalf("tree at start counts %d games: %+v", n, tree)
	}
	t.Logf("tree: %+v", tree[:min(3, len(tree))])
	_, err = db.Search(ctx, index.Query{Position: start})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := index.Position("draughts", "99-12"); !errors.Is(err, index.ErrQuery) {
		t.Fatalf("bad moves: %v", err)
	}
}
