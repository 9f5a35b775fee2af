package index

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/blevesearch/bleve/v2"

	"github.com/plateau/plateau/internal/longtest"
	"github.com/plateau/plateau/replay/generate"
	"github.com/plateau/plateau/rules"
	_ "github.com/plateau/plateau/rules/dames"
)

// importedDB imports n generated draughts games into a new database in a
// temporary directory and returns it open (writable) with the file.
func importedDB(t *testing.T, n int, opts ImportOptions) (*DB, string) {
	t.Helper()
	dir := t.TempDir()
	file := filepath.Join(dir, "g.pdn")
	writeGames(t, file, "draughts", n, 5)
	db, err := Open(context.Background(), filepath.Join(dir, "db"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if _, err := importFiles(context.Background(), db, []string{file}, opts); err != nil {
		t.Fatal(err)
	}
	return db, file
}

// TestDiskFullDuringTextIndexing makes the text index's file system fail
// with "no space left on device" in the middle of an import: the import
// must say so and name the file (it said "interrupted"), and the next
// import must complete the text index.
func TestDiskFullDuringTextIndexing(t *testing.T) {
	longtest.Skip(t)
	const n = 1000
	ctx := context.Background()
	g, _ := rules.Lookup("draughts")
	gen, _ := generate.New(g, 6)
	var b bytes.Buffer
	if _, err := gen.Write(ctx, &b, n, generate.Options{}); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	file := filepath.Join(dir, "g.pdn")
	if err := os.WriteFile(file, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	db, err := Open(ctx, filepath.Join(dir, "db"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var opens atomic.Int32
	meta := filepath.Join(db.textPath(), "index_meta.json")
	db.text.SetFault(func() error {
		if opens.Add(1) >= 3 {
			return &fs.PathError{Op: "write", Path: meta, Err: syscall.ENOSPC}
		}
		return nil
	})
	_, err = importFiles(ctx, db, []string{file}, ImportOptions{TxGames: 100})
	if err == nil {
		t.Fatal("import with a full disk: no error")
	}
	if errors.Is(err, context.Canceled) || !errors.Is(err, syscall.ENOSPC) ||
		!strings.Contains(err.Error(), "no space left on device") || !strings.Contains(err.Error(), meta) {
		t.Fatalf("import with a full disk: %v", err)
	}
	db.text.SetFault(nil)
	// Until then, readers are told that the text index lacks games.
	ro, err := Open(ctx, db.Dir(), Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	cov, err := ro.TextCoverage(ctx)
	ro.Close()
	if err != nil || !cov.Partial() || cov.Valid == 0 || cov.Indexed >= cov.Valid {
		t.Errorf("text coverage after the full disk: %+v, %v", cov, err)
	}
	var notes []string
	db.notice = func(m string) { notes = append(notes, m) }
	if _, err := importFiles(ctx, db, []string{file}, ImportOptions{}); err != nil {
		t.Fatalf("import after space was freed: %v", err)
	}
	if want := fmt.Sprintf("the text index holds %d of %d valid games", cov.Indexed, cov.Valid); !strings.Contains(strings.Join(notes, "\n"), want) {
		t.Errorf("the import that completes the text index told %q, want %q", notes, want)
	}
	ids, err := db.TextSearch(ctx, "game:draughts", 10*n)
	if err != nil || len(ids) != n {
		t.Fatalf("text index after the second import: %d games of %d, %v", len(ids), n, err)
	}
}

// TestTextSearchesSideBySide holds the text index of a read-only database
// in one piece of work (as a long search would) and checks that another
// search answers meanwhile: no lock of the process is held across a search.
func TestTextSearchesSideBySide(t *testing.T) {
	wdb, _ := importedDB(t, 200, ImportOptions{})
	dir := wdb.Dir()
	wdb.Close()
	ctx := context.Background()
	db, err := Open(ctx, dir, Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	holding, release := make(chan struct{}), make(chan struct{})
	go func() {
		db.withText(func(bleve.Index) error {
			close(holding)
			<-release
			return nil
		})
	}()
	<-holding
	defer close(release)
	done := make(chan error, 1)
	go func() {
		_, err := db.TextSearch(ctx, "game:draughts", 1000)
		done <- err
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("a search waited for another to end")
	}
}
