package index

import (
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"

	"github.com/plateau/plateau/index/internal/store"
)

// sqliteDSN is the SQLite connection string of the database in dir.
//
// A writable open creates the directory if needed and refuses, with
// ErrReadOnly, a directory or database file that cannot be written.
//
// A read-only open never writes: the connection is mode=ro (no journal-mode
// change, deferred transactions). When the directory or the file cannot be
// written, SQLite could not create the WAL's shared-memory file, so the
// database is opened immutable (the files as they lie), unless a WAL with
// content and its -shm are left there (an import killed, then the disk
// made read-only): then SQLite reads them read-only.
func sqliteDSN(dir string, opts Options) (string, error) {
	path := filepath.Join(dir, sqliteName)
	if opts.ReadOnly {
		if _, err := os.Stat(path); err != nil {
			return "", fmt.Errorf("no database in %s: %w", dir, ErrNotFound)
		}
	} else {
		if _, err := os.Stat(dir); errors.Is(err, fs.ErrNotExist) {
			if opts.Unwritable {
				return "", fmt.Errorf("%w: cannot create %s", ErrReadOnly, dir)
			}
			if err := os.MkdirAll(dir, 0o755); err != nil {
				return "", fmt.Errorf("cannot create the database directory: %w", err)
			}
		}
		if opts.Unwritable || !writable(dir) || (exists(path) && !writable(path)) {
			return "", fmt.Errorf("%w: %s cannot be written (read-only file system or permissions); queries (info, search, tree, serve…) work, writing commands (import, reindex…) need write access", ErrReadOnly, dir)
		}
	}
	v := url.Values{}
	v.Set("_busy_timeout", "30000")
	v.Set("_foreign_keys", "0")
	v.Set("_cache_size", fmt.Sprint(-store.DefaultCacheKiB))
	if opts.ReadOnly {
		v.Set("mode", "ro")
		v.Set("_txlock", "deferred")
		if opts.Unwritable || !writable(dir) || !writable(path) {
			if !walLeft(path) {
				v.Set("immutable", "1")
			}
		}
	} else {
		v.Set("_txlock", "immediate")
		v.Set("_journal_mode", "WAL")
		v.Set("_synchronous", "NORMAL")
	}
	u := url.URL{Scheme: "file", Opaque: (&url.URL{Path: path}).EscapedPath(), RawQuery: v.Encode()}
	return u.String(), nil
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// walLeft reports a WAL with content and its shared-memory file beside
// the database.
func walLeft(path string) bool {
	fi, err := os.Stat(path + "-wal")
	return err == nil && fi.Size() > 0 && exists(path+"-shm")
}
