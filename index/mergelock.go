package index

import (
	"fmt"
	"os"
	"path/filepath"
)

// Merging position runs is one writer's work at a time. Two writers of
// one database — two imports in two processes, or an import and a
// server's edits — each merged the runs of a full level, and each
// writer's next merge began by deleting the blocks of the merge that
// meta pos_merging named, taking it for one cut short by a kill
// (dropOrphanMerge): the other writer's merge, in flight. Its run was
// then listed without those blocks, and the runs it merged deleted, so
// that occurrences were lost; or the two merged the same runs.
//
// A merge therefore holds the merge lock, an exclusive lock on the file
// mergeLockName of the database's directory (flock on Unix; the lock of
// an open file dies with its process, so a killed writer's merge is an
// orphan the next holder deletes), from the transaction that chooses its
// runs until the one that lists its run is over. A writer that finds the
// lock taken does not wait: it leaves the merge to the holder, and a
// level may hold more than maxRunsPerLevel runs until the next merge
// (queries read any number of runs). Readers take no lock.

// mergeLockName is the merge lock's file, in the database's directory.
const mergeLockName = "plateau.merge.lock"

// mergeLock is a held merge lock.
type mergeLock struct{ f *os.File }

// tryMergeLock takes the merge lock if no other writer holds it: nil,
// nil when one does.
func (db *DB) tryMergeLock() (*mergeLock, error) {
	path := filepath.Join(db.dir, mergeLockName)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("merge lock: %w", err)
	}
	ok, err := tryLockFile(f)
	if err != nil || !ok {
		f.Close()
		if err != nil {
			return nil, fmt.Errorf("merge lock %s: %w", path, err)
		}
		return nil, nil
	}
	return &mergeLock{f: f}, nil
}

// release gives the lock up; a nil lock is none.
func (l *mergeLock) release() {
	if l != nil {
		unlockFile(l.f)
		l.f.Close()
	}
}
