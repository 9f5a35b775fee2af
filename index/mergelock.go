package index

import (
	"context"
	"fmt"

	"github.com/plateau/plateau/index/internal/dirlock"
)

// Writers of one database take turns (internal/dirlock). Imports,
// reindexes and compactions hold the import lock for their whole length,
// and a second one waits, telling Options.Notice: two side by side each
// kept the text index's high-water mark (meta text_hw) as its own, so
// that a kill could leave games out of the text index for good, and a
// reindex could delete the text index under an import. A merge of
// position runs holds the merge lock (internal/posrun). Readers take no
// lock.

// The lock files, in the database's directory.
const (
	mergeLockName  = dirlock.Merge
	importLockName = dirlock.Import
)

// importLockPoll is how often a writer waiting for the import lock tries
// it again.
const importLockPoll = dirlock.Poll

// fileLock is a held lock of a file of the database's directory.
type fileLock struct{ l *dirlock.Lock }

// tryLock takes the lock of a file of the database's directory if nobody
// holds it: nil, nil when someone does.
func (db *DB) tryLock(name string) (*fileLock, error) {
	l, err := dirlock.Try(db.dir, name)
	if err != nil || l == nil {
		return nil, err
	}
	return &fileLock{l}, nil
}

// waitImportLock takes the import lock, waiting (until ctx is done) while
// another import, reindex or compaction holds it.
func (db *DB) waitImportLock(ctx context.Context) (*fileLock, error) {
	l, err := dirlock.Wait(ctx, db.dir, importLockName, func() {
		db.tell(fmt.Sprintf("another import, reindex or compaction is writing to %s: waiting for it to end", db.dir))
	})
	if err != nil || l == nil {
		return nil, err
	}
	return &fileLock{l}, nil
}

// tell tells Options.Notice msg, if set.
func (db *DB) tell(msg string) {
	if db.notice != nil {
		db.notice(msg)
	}
}

// release gives the lock up; a nil lock is none.
func (l *fileLock) release() {
	if l != nil {
		l.l.Release()
	}
}
