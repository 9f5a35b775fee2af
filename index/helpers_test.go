package index_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/plateau/plateau/index"
	"github.com/plateau/plateau/internal/ingest"

	_ "github.com/plateau/plateau/rules/dames"
	_ "github.com/plateau/plateau/rules/dejarik"
	_ "github.com/plateau/plateau/rules/jetan"
)

// genText makes n games of a ruleset as record text.
func genText(t testing.TB, game string, n int, seed uint64) []byte {
	t.Helper()
	return index.GenText(t, game, n, seed)
}

func writeFile(t testing.TB, dir, name string, data []byte) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func openDB(t testing.TB, dir string) *index.DB {
	t.Helper()
	db, err := index.Open(context.Background(), dir, index.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// importFiles imports record files into db as plateau import does
// (package internal/ingest).
func importFiles(ctx context.Context, db *index.DB, paths []string, o index.ImportOptions) (index.ImportStats, error) {
	return ingest.Files(ctx, db, paths, ingest.Options{ImportOptions: o})
}
