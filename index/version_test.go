package index_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/plateau/plateau/index"
	"github.com/plateau/plateau/record"
)

// TestVersionAcrossHandles: a read-only handle, as a server holds one,
// sees every commit another handle makes (an import, a delete, a tag
// edit, a reindex) as a change of Version, and no change when nothing was
// committed; its totals follow.
func TestVersionAcrossHandles(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	dbDir := filepath.Join(dir, "db")
	w := openDB(t, dbDir)
	if _, err := importFiles(ctx, w, []string{writeFile(t, dir, "a.pdn", genText(t, "draughts", 30, 1))}, index.ImportOptions{}); err != nil {
		t.Fatal(err)
	}
	r, err := index.Open(ctx, dbDir, index.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	version := func() int64 {
		t.Helper()
		n, err := r.Version(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	total := func() int {
		t.Helper()
		res, err := r.Search(ctx, index.Query{Count: true, Limit: 1})
		if err != nil {
			t.Fatal(err)
		}
		return res.Total
	}
	last, games := version(), total()
	if games != 30 {
		t.Fatalf("%d games, want 30", games)
	}
	for _, step := range []struct {
		name  string
		do    func() error
		games int
	}{
		{"nothing", func() error { return nil }, 30},
		{"delete", func() error { _, err := w.Delete(ctx, []int64{1, 2}, nil); return err }, 28},
		{"tag edit", func() error {
			_, err := w.SetTags(ctx, 3, []record.Tag{{Name: "Event", Value: "Renamed"}})
			return err
		}, 28},
		{"import", func() error {
			_, err := importFiles(ctx, w, []string{writeFile(t, dir, "b.pdn", genText(t, "draughts", 5, 2))}, index.ImportOptions{})
			return err
		}, 33},
		{"reindex", func() error { _, err := w.Reindex(ctx); return err }, 33},
	} {
		if err := step.do(); err != nil {
			t.Fatalf("%s: %v", step.name, err)
		}
		n := version()
		if changed := n != last; changed != (step.name != "nothing") {
			t.Errorf("%s: Version %d then %d", step.name, last, n)
		}
		if again := version(); again != n {
			t.Errorf("%s: Version %d, then %d with nothing committed", step.name, n, again)
		}
		last = n
		if got := total(); got != step.games {
			t.Errorf("%s: %d games, want %d", step.name, got, step.games)
		}
	}
}
