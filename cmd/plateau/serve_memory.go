package main

import (
	"context"
	"net/http"
	"os"
	"runtime"
	"runtime/debug"
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
//     grown by serveGCPercent (GOGC's default is 100): a server has
//     small live data and much garbage per request (a game's text and
//     positions), and collected too often at 100 (docs/queries.md).
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

// boundPool bounds the database connections of a server: each has a
// page cache of its own (up to 64 MiB), and SQLite answers a query on one
// core, so more connections than about twice the cores only add memory.
// A connection idle for half a minute is closed, and its cache freed.
func boundPool(opts index.Options) index.Options {
	opts.MaxConns = max(2, 2*runtime.GOMAXPROCS(0))
	opts.ConnIdleTime = 30 * time.Second
	return opts
}

// limitMemory holds the server's database to the limits: a bounded pool,
// SQLite's heap to sqliteHeapLimit.
func limitMemory(opts index.Options) index.Options {
	opts = boundPool(opts)
	opts.SoftHeapLimit = sqliteHeapLimit
	return opts
}

// limitGoMemory applies the limits to Go's heap.
func limitGoMemory() {
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(serveMemoryLimit)
	}
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(serveGCPercent)
	}
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

// releaseMemory closes the database's idle connections and gives free
// memory back to the operating system.
func releaseMemory(db *index.DB) {
	db.CloseIdle()
	memtrim.Trim()
	debug.FreeOSMemory()
}
