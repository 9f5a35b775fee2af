//go:build !unix

package dirlock

import (
	"os"
	"path/filepath"
	"sync"
)

// Without flock, a lock excludes the writers of one process only:
// a lock per file path.
var fileLocks sync.Map // absolute path → *sync.Mutex

func fileMutex(f *os.File) *sync.Mutex {
	p, err := filepath.Abs(f.Name())
	if err != nil {
		p = f.Name()
	}
	mu, _ := fileLocks.LoadOrStore(p, new(sync.Mutex))
	return mu.(*sync.Mutex)
}

func tryLockFile(f *os.File) (bool, error) { return fileMutex(f).TryLock(), nil }

func unlockFile(f *os.File) { fileMutex(f).Unlock() }
