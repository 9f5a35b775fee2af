package textindex

import (
	"errors"
	"fmt"
	"io/fs"
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
