package main

import (
	"context"
	"net/http"
	"os"
	"runtime/debug"
	"strconv"
	"sync"
	"time"

	"github.com/plateau/plateau/index"
	"github.com/plateau/plateau/internal/memtrim"
)

// The server's memory (issue #13: under 500 MB under load, and back down
// after it). Decisions:
//   - Go's heap is held to serveMemoryLimit (a GOMEMLIMIT of the user's
//     wins): the collector works harder near it rather than let the heap
//     grow with the load. Below it, the collector runs when the heap has
//     grown by serveGCPercent (GOGC's default is 100): a server of small
//     live data (some 40 MB) and much garbage per request (a game's text
//     and positions) spent 6% of its time collecting.
//   - SQLite's heap (page caches of the pooled connections, 64 MiB each
//     at most) is held to sqliteHeapLimit for the whole process (PRAGMA
//     soft_heap_limit): the operating system's file cache keeps the rest of
//     the database at no cost to the server's resident memory.
//   - After idleAfter without a request, the idle connections are closed
//     (their caches freed), the C allocator gives its free memory back
//     (malloc_trim) and so does Go (debug.FreeOSMemory): memory goes back
//     down once a burst of requests is over. The caches of pages and trees
//     (bounded, some 50 MB at most) are kept.
const (
	serveMemoryLimit = 256 << 20
	serveGCPercent   = 200
	sqliteHeapLimit  = 96 << 20
	idleAfter        = 10 * time.Second
)

// limitMemory applies the limits to the server's process and database.
func limitMemory(ctx context.Context, db *index.DB) {
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(serveMemoryLimit)
	}
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(serveGCPercent)
	}
	// Process-wide: any connection sets it (a PRAGMA takes no parameter).
	db.SQL().ExecContext(ctx, "PRAGMA soft_heap_limit = "+strconv.Itoa(sqliteHeapLimit))
}

// idleWatch tracks the requests under way and the last one's end, to
// release memory once the server is idle.
type idleWatch struct {
	mu       sync.Mutex
	inflight int
	last     time.Time
	released bool
}

func (w *idleWatch) wrap(h http.Handler) http.Handler {
	return http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		w.mu.Lock()
		w.inflight++
		w.released = false
		w.mu.Unlock()
		defer func() {
			w.mu.Lock()
			w.inflight--
			w.last = time.Now()
			w.mu.Unlock()
		}()
		h.ServeHTTP(rw, r)
	})
}

// idle reports whether no request ran for d and memory was not released
// since; it then counts the memory as released.
func (w *idleWatch) idle(d time.Duration) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.inflight > 0 || w.released || time.Since(w.last) < d {
		return false
	}
	w.released = true
	return true
}

// releaseWhenIdle calls release each time the server has been idle for
// idleAfter, until ctx is done.
func (w *idleWatch) releaseWhenIdle(ctx context.Context, release func()) {
	t := time.NewTicker(idleAfter / 4)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			if w.idle(idleAfter) {
				release()
			}
		}
	}
}

// releaseMemory closes the database's idle connections (keeping at most
// keep afterwards) and gives free memory back to the operating system.
func releaseMemory(db *index.DB, keep int) {
	db.SQL().SetMaxIdleConns(0)
	db.SQL().SetMaxIdleConns(keep)
	memtrim.Trim()
	debug.FreeOSMemory()
}
