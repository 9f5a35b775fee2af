package index

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// Merging position runs is one writer's work at a time. Two writers of
// one database — two imports in two processes, or an import and a
// server's edits — each merged the runs of a full level, and an import's
// next merge began by deleting the blocks of the merge that meta
// pos_merging named, taking it for one cut short by a kill
// (dropOrphanMerge): the other writer's merge, in flight. The two merged
// the same runs, one merge's work was thrown away and a partial duplicate
// of the runs was listed (readers drop duplicates, so in the runs traced
// no occurrence was lost); a run id could be given twice, the meta entry
// that nextRunID reads being gone.
//
// A merge therefore holds the merge lock, an exclusive lock on the file
// mergeLockName of the database's directory (flock on Unix; the lock of
// an open file dies with its process, so a killed writer's merge is an
// orphan the next holder deletes), from the transaction that chooses its
// runs until the one that lists its run is over. A writer that finds the
// lock taken does not wait (a compaction does): it leaves the merge to
// the holder, and a level may hold more than maxRunsPerLevel runs until
// the next merge (queries read any number of runs). Readers take no lock.
//
// Imports, reindexes and compactions take turns (the import lock,
// importLockName, held for their whole length; the second waits, telling
// Options.Notice). Two imports side by side each recorded the text
// index's high-water mark (meta text_hw) as its own: one could set it past
// games the other had committed but not yet indexed, which a kill then
// left out of the text index for good (the next import indexes only the
// games past the mark); a reindex deleted the text index under an import.

// The lock files, in the database's directory.
const (
	mergeLockName  = "plateau.merge.lock"
	importLockName = "plateau.import.lock"
)

// fileLock is a held lock of a file of the database's directory (the
// merge lock or the import lock).
type fileLock struct{ f *os.File }

// tryMergeLock takes the merge lock if no other writer holds it: nil,
// nil when one does.
func (db *DB) tryMergeLock() (*fileLock, error) { return db.tryLock(mergeLockName) }

// tryLock takes the lock of a file of the database's directory if nobody
// holds it: nil, nil when someone does.
func (db *DB) tryLock(name string) (*fileLock, error) {
	path := filepath.Join(db.dir, name)
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
	return &fileLock{f: f}, nil
}

// importLockPoll is how often a writer waiting for the import lock tries
// it again.
const importLockPoll = 100 * time.Millisecond

// waitImportLock takes the import lock, waiting (until ctx is done) while
// another import, reindex or compaction holds it.
func (db *DB) waitImportLock(ctx context.Context) (*fileLock, error) {
	return db.waitLock(ctx, importLockName, "another import, reindex or compaction is writing to %s: waiting for it to end")
}

// waitLock takes the lock of a file of the database's directory, waiting
// (until ctx is done) while someone holds it; the first time it waits, it
// tells Options.Notice notice (a format of the directory).
func (db *DB) waitLock(ctx context.Context, name, notice string) (*fileLock, error) {
	l, err := db.tryLock(name)
	if err != nil || l != nil {
		return l, err
	}
	if db.notice != nil {
		db.notice(fmt.Sprintf(notice, db.dir))
	}
	t := time.NewTicker(importLockPoll)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-t.C:
		}
		if l, err := db.tryLock(name); err != nil || l != nil {
			return l, err
		}
	}
}

// release gives the lock up; a nil lock is none.
func (l *fileLock) release() {
	if l != nil {
		unlockFile(l.f)
		l.f.Close()
	}
}
