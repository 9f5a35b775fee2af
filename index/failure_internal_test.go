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
	bolterrors "go.etcd.io/bbolt/errors"

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
	db.textFault = func() error {
		if opens.Add(1) >= 3 {
			return &fs.PathError{Op: "write", Path: meta, Err: syscall.ENOSPC}
		}
		return nil
	}
	_, err = importFiles(ctx, db, []string{file}, ImportOptions{TxGames: 100})
	if err == nil {
		t.Fatal("import with a full disk: no error")
	}
	if errors.Is(err, context.Canceled) || !errors.Is(err, syscall.ENOSPC) ||
		!strings.Contains(err.Error(), "no space left on device") || !strings.Contains(err.Error(), meta) {
		t.Fatalf("import with a full disk: %v", err)
	}
	db.textFault = nil
	if _, err := importFiles(ctx, db, []string{file}, ImportOptions{}); err != nil {
		t.Fatalf("import after space was freed: %v", err)
	}
	ids, err := db.TextSearch(ctx, "game:draughts", 10*n)
	if err != nil || len(ids) != n {
		t.Fatalf("text index after the second import: %d games of %d, %v", len(ids), n, err)
	}
}

// TestTextOpenErrors: each failure to open the text index says what
// happened (it was always "busy").
func TestTextOpenErrors(t *testing.T) {
	const path = "/db/text.bleve"
	for _, c := range []struct {
		name   string
		err    error
		is     error
		isNot  error
		inText []string
	}{
		{"locked", fmt.Errorf("open: %w", bolterrors.ErrTimeout), ErrTextBusy, ErrTextBroken, []string{"busy", path, "20s"}},
		{"corrupt", errors.New("cannot open index, metadata corrupt"), ErrTextBroken, ErrTextBusy, []string{"damaged", path, "metadata corrupt", "reindex"}},
		{"no space", &fs.PathError{Op: "write", Path: path + "/root.bolt", Err: syscall.ENOSPC}, syscall.ENOSPC, ErrTextBusy, []string{"no space left on device", "root.bolt"}},
		{"permission", &fs.PathError{Op: "open", Path: path + "/root.bolt", Err: syscall.EACCES}, fs.ErrPermission, ErrTextBroken, []string{"permission denied", "root.bolt"}},
		{"read-only fs", &fs.PathError{Op: "open", Path: path + "/root.bolt", Err: syscall.EROFS}, syscall.EROFS, ErrTextBroken, []string{"read-only file system"}},
	} {
		err := textOpenError(path, textReadWait, c.err)
		if !errors.Is(err, c.is) || errors.Is(err, c.isNot) {
			t.Errorf("%s: %v: is %v %v, is %v %v", c.name, err, c.is, errors.Is(err, c.is), c.isNot, errors.Is(err, c.isNot))
		}
		for _, s := range c.inText {
			if !strings.Contains(err.Error(), s) {
				t.Errorf("%s: %q does not say %q", c.name, err, s)
			}
		}
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
