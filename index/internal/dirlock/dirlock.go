// Package dirlock holds the locks that writers of one database take in
// its directory: an exclusive lock on a file of the directory (flock on
// Unix, so that the kernel releases the lock of a process that dies; a
// lock per path within the process elsewhere). A writer either tries a
// lock and leaves the work to its holder (Try), or waits for it (Wait).
// Readers take no lock.
package dirlock

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// The lock files of a database's directory.
const (
	// Merge is held by a merge of position runs, from the transaction
	// that chooses its runs to the one that lists its run.
	Merge = "plateau.merge.lock"
	// Import is held by an import, a reindex or a compaction for its
	// whole length.
	Import = "plateau.import.lock"
)

// Poll is how often a writer waiting for a lock tries it again.
const Poll = 100 * time.Millisecond

// Lock is a held lock of a file of a directory.
type Lock struct{ f *os.File }

// Try takes the lock of the file name of dir if nobody holds it: nil, nil
// when someone does.
func Try(dir, name string) (*Lock, error) {
	path := filepath.Join(dir, name)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("lock: %w", err)
	}
	ok, err := tryLockFile(f)
	if err != nil || !ok {
		f.Close()
		if err != nil {
			return nil, fmt.Errorf("lock %s: %w", path, err)
		}
		return nil, nil
	}
	return &Lock{f: f}, nil
}

// Wait takes the lock of the file name of dir, waiting (until ctx is
// done) while someone holds it; the first time it waits it calls waiting,
// if not nil.
func Wait(ctx context.Context, dir, name string, waiting func()) (*Lock, error) {
	l, err := Try(dir, name)
	if err != nil || l != nil {
		return l, err
	}
	if waiting != nil {
		waiting()
	}
	t := time.NewTicker(Poll)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-t.C:
		}
		if l, err := Try(dir, name); err != nil || l != nil {
			return l, err
		}
	}
}

// Release gives the lock up; a nil lock is none.
func (l *Lock) Release() {
	if l != nil {
		unlockFile(l.f)
		l.f.Close()
	}
}
