package textindex

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	bolterrors "go.etcd.io/bbolt/errors"
)

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
		{"locked", fmt.Errorf("open: %w", bolterrors.ErrTimeout), ErrBusy, ErrBroken, []string{"busy", path, "20s"}},
		{"corrupt", errors.New("cannot open index, metadata corrupt"), ErrBroken, ErrBusy, []string{"damaged", path, "metadata corrupt", "reindex"}},
		{"no space", &fs.PathError{Op: "write", Path: path + "/root.bolt", Err: syscall.ENOSPC}, syscall.ENOSPC, ErrBusy, []string{"no space left on device", "root.bolt"}},
		{"permission", &fs.PathError{Op: "open", Path: path + "/root.bolt", Err: syscall.EACCES}, fs.ErrPermission, ErrBroken, []string{"permission denied", "root.bolt"}},
		{"read-only fs", &fs.PathError{Op: "open", Path: path + "/root.bolt", Err: syscall.EROFS}, syscall.EROFS, ErrBroken, []string{"read-only file system"}},
	} {
		err := openError(path, ReadWait, c.err)
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

// TestRemoveRenamesFirst: Remove leaves no index directory at its path and
// nothing aside, and the next Remove or create deletes what a killed
// Remove left aside (path.old) or a killed create (path.new).
func TestRemoveRenamesFirst(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "text.bleve")
	x := New(path, false)
	if err := x.Check(); err != nil {
		t.Fatal(err)
	}
	idx, err := x.open() // creates it
	if err != nil {
		t.Fatal(err)
	}
	idx.Close()
	left := func() []string {
		var names []string
		entries, _ := os.ReadDir(dir)
		for _, e := range entries {
			names = append(names, e.Name())
		}
		return names
	}
	if got := left(); !slices.Equal(got, []string{"text.bleve"}) {
		t.Fatalf("after create: %v", got)
	}
	// What a Remove killed after its rename leaves: the index aside.
	if err := os.Rename(path, path+".old"); err != nil {
		t.Fatal(err)
	}
	if _, err := New(path, true).open(); !errors.Is(err, ErrMissing) {
		t.Errorf("a reader of an index renamed aside: %v, want ErrMissing", err)
	}
	if idx, err = x.open(); err != nil { // create deletes what was left
		t.Fatal(err)
	}
	idx.Close()
	if got := left(); !slices.Equal(got, []string{"text.bleve"}) {
		t.Errorf("create after a killed Remove: %v", got)
	}
	if err := os.MkdirAll(filepath.Join(path+".old", "store"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := x.Remove(); err != nil {
		t.Fatal(err)
	}
	if got := left(); len(got) != 0 {
		t.Errorf("after Remove: %v", got)
	}
	if err := x.Remove(); err != nil {
		t.Errorf("Remove of no index: %v", err)
	}
}
