package index_test

import (
	"context"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"testing"

	"github.com/plateau/plateau/index"
	"github.com/plateau/plateau/replay"
)

// TestCallsAfterClose: a call that outlives its handle (a count the web
// server runs in the background) fails and touches no file: before, the
// watch of commits opened the database again and made its WAL files, and
// a test's temporary directory, being removed, found new files in it.
func TestCallsAfterClose(t *testing.T) {
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "db")
	db, err := index.Open(ctx, dir, index.Options{})
	if err != nil {
		t.Fatal(err)
	}
	src := writeFile(t, t.TempDir(), "g.pdn", genText(t, "ogi", 5, 1))
	if _, err := importFiles(ctx, db, []string{src}, index.ImportOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Version(ctx); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	before := listFiles(t, dir)
	if _, err := db.Version(ctx); err == nil {
		t.Error("Version after Close: no error")
	}
	if _, err := db.Search(ctx, index.Query{Text: "game:ogi", Limit: 1}); err == nil {
		t.Error("a text search after Close: no error")
	}
	if _, err := db.AddRecords(ctx, genText(t, "ogi", 1, 2), "late.pdn", replay.Options{}); err == nil {
		t.Error("AddRecords after Close: no error")
	}
	if after := listFiles(t, dir); !slices.Equal(after, before) {
		t.Errorf("the closed database's files: %q, want %q as closed", after, before)
	}
}

// listFiles lists the files under dir, with their sizes.
func listFiles(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		out = append(out, fmt.Sprintf("%s %d", path, info.Size()))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}
