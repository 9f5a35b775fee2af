package index_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
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

// openUpgraded opens the database in dir for writing, which upgrades it
// from layout from, and checks the open's notices (wantLayoutSteps); the
// handle is closed when the test ends.
func openUpgraded(t *testing.T, dir string, from int, others ...string) *index.DB {
	t.Helper()
	var notices []string
	db, err := index.Open(context.Background(), dir, index.Options{Notice: func(s string) { notices = append(notices, s) }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	wantLayoutSteps(t, notices, from, others...)
	return db
}

// wantLayoutSteps fails t unless notices, the notices of a writable open,
// are the upgrade's steps from layout from to the current one, one a
// layout and in order, and the other notices others (each found in its
// notice, in order, anywhere between the steps).
func wantLayoutSteps(t *testing.T, notices []string, from int, others ...string) {
	t.Helper()
	var steps []string
	rest := others
	for _, n := range notices {
		if len(rest) > 0 && strings.Contains(n, rest[0]) {
			rest = rest[1:]
			continue
		}
		steps = append(steps, n)
	}
	ok := len(rest) == 0 && len(steps) == index.SchemaVersion-from
	for i := 0; ok && i < len(steps); i++ {
		ok = strings.Contains(steps[i], fmt.Sprintf("layout %d to %d", from+i, from+i+1))
	}
	if !ok {
		t.Errorf("notices %q: want the steps from layout %d to %d, with %q", notices, from, index.SchemaVersion, others)
	}
}
