package store

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"runtime/pprof"
	"sync"
	"time"
)

// Checkpoints beside the import's writer, and the writer's connection.
//
// In WAL mode SQLite's commit appends the transaction's pages to the WAL;
// a checkpoint copies them into the database file and syncs it. By
// default the connection that commits runs the checkpoint inside its
// commit once the WAL holds 1,000 pages, and an import's transaction
// writes many more: every commit of the writer, the one serial stage, then
// read its pages back from the WAL, wrote them to the file and waited for
// the disk. An import's writer works on a connection of its own whose
// automatic checkpoint waits for WriterCheckpointPages (a bound on the
// WAL, should the checkpointer fall behind), and a goroutine checkpoints
// on another connection after each commit (PASSIVE: it never blocks the
// writer nor readers, and copies what no reader still needs), while the
// writer goes on with the next transaction. The writer's next transaction
// starts the WAL again from its beginning when the checkpoint copied it
// all. The import's end checkpoints and truncates the WAL.

// WriterCheckpointPages is the automatic checkpoint of an import's
// writer: 1 GiB of 16 KiB pages.
const WriterCheckpointPages = 65536

// DefaultCacheKiB is the page cache of a connection (an import's writer
// has more: WriterCacheKiB).
const DefaultCacheKiB = 64 << 10

// WriterCacheKiB is the page cache of an import's writer into a database
// of a number of games: at least a connection's (DefaultCacheKiB), and
// cacheBytesPerGame a game (the random-key
// B-trees an import writes at every commit — the games' hash, players and
// date indexes, tags, the opening tree — hold about 210 bytes a game: 2.1
// GB at 10,000,000 Ōgi games), up to a quarter of the machine's memory
// (physMem; 1 GiB when unknown). A page read again is a system call and a
// copy, and a transaction whose dirty pages outgrow the cache writes them
// to the WAL before its commit, then again (docs/import.md has the
// figures, and what the larger cache and transactions give at 10,000,000).
func WriterCacheKiB(games int64) int64 {
	limit := int64(1 << 20) // KiB
	if m := physMem(); m > 0 {
		limit = m / 4 >> 10
	}
	return max(min(games*cacheBytesPerGame>>10, limit), minWriterCacheKiB)
}

const (
	minWriterCacheKiB = DefaultCacheKiB
	cacheBytesPerGame = 256
)

// HeapLimit is the import's bound of SQLite's heap, when the process set
// none (PRAGMA soft_heap_limit, process-wide): the writer's cache for a
// database of a number of games (WriterCacheKiB) and otherConnsBytes for
// the other connections (the merge beside the writer, the checkpointer,
// queries). Without it every connection's cache could fill its
// DefaultCacheKiB, and an import of 150,000 games peaked above 500 MB
// (docs/benchmarks.md). Beyond the limit SQLite reuses the clean pages of
// its caches rather than take more memory.
func HeapLimit(games int64) int64 { return WriterCacheKiB(games)<<10 + otherConnsBytes }

const otherConnsBytes = 32 << 20

// heapLimit is the process's PRAGMA soft_heap_limit (0: none); set, when
// limit >= 0, to limit.
func heapLimit(ctx context.Context, conn *sql.Conn, limit int64) (old int64, err error) {
	q := `PRAGMA soft_heap_limit`
	if limit >= 0 {
		q = fmt.Sprintf(`PRAGMA soft_heap_limit = %d`, limit)
	}
	err = conn.QueryRowContext(ctx, q).Scan(&old)
	return old, err
}

// Checkpointer runs checkpoints beside the writer.
type Checkpointer struct {
	poke chan struct{}
	done chan struct{}
	once sync.Once
}

// NewCheckpointer starts a checkpointer of db (a connection of its
// pool); debug prints each checkpoint's time on the standard error.
func NewCheckpointer(db *sql.DB, debug bool) *Checkpointer {
	c := &Checkpointer{poke: make(chan struct{}, 1), done: make(chan struct{})}
	go pprof.Do(context.Background(), pprof.Labels("stage", "checkpoint"), func(ctx context.Context) {
		defer close(c.done)
		for range c.poke {
			t0 := time.Now()
			_, err := db.ExecContext(ctx, `PRAGMA wal_checkpoint(PASSIVE)`)
			if debug {
				fmt.Fprintf(os.Stderr, "checkpoint %v %v\n", time.Since(t0), err)
			}
			// A failure (a full disk…) leaves the pages in the WAL: the
			// writer's commits and the import's end say so if it lasts.
		}
	})
	return c
}

// Committed asks for a checkpoint of what the writer committed, unless one
// is asked for already; not after Stop.
func (c *Checkpointer) Committed() {
	select {
	case c.poke <- struct{}{}:
	default:
	}
}

// Stop waits for the checkpoint in progress; the checkpointer takes no
// more.
func (c *Checkpointer) Stop() {
	c.once.Do(func() { close(c.poke) })
	<-c.done
}

// Writer is the connection of an import's writer (WriterConn).
type Writer struct {
	Conn *sql.Conn
	// bounds reports that the writer set SQLite's heap limit (HeapLimit),
	// which release sets back to none.
	bounds bool
}

// WriterConn is a connection of db's pool for an import's writer into a
// database of a number of games, with automatic checkpoints at
// WriterCheckpointPages and a page cache of WriterCacheKiB, and SQLite's
// heap bounded to HeapLimit unless the process bounds it already;
// release sets these back to SQLite's default, DefaultCacheKiB and no
// bound, and gives the connection back to the pool.
func WriterConn(ctx context.Context, db *sql.DB, games int64) (w *Writer, release func(), err error) {
	conn, err := db.Conn(ctx)
	if err != nil {
		return nil, nil, err
	}
	w = &Writer{Conn: conn}
	_, err = conn.ExecContext(ctx, fmt.Sprintf(`PRAGMA wal_autocheckpoint = %d`, WriterCheckpointPages))
	var old int64
	if err == nil {
		old, err = heapLimit(ctx, conn, -1)
	}
	w.bounds = old == 0
	if err == nil {
		err = w.Grow(ctx, games)
	}
	if err != nil {
		if w.bounds {
			heapLimit(context.Background(), conn, 0)
		}
		conn.Close()
		return nil, nil, err
	}
	return w, func() {
		conn.ExecContext(context.Background(), `PRAGMA wal_autocheckpoint = 1000`)
		SetCache(context.Background(), conn, DefaultCacheKiB)
		if w.bounds {
			heapLimit(context.Background(), conn, 0)
		}
		conn.Close()
	}, nil
}

// Grow sizes the writer's cache and SQLite's heap limit (if the writer
// bounds it) for a database of a number of games.
func (w *Writer) Grow(ctx context.Context, games int64) error {
	if err := SetCache(ctx, w.Conn, WriterCacheKiB(games)); err != nil {
		return err
	}
	if !w.bounds {
		return nil
	}
	_, err := heapLimit(ctx, w.Conn, HeapLimit(games))
	return err
}

// SetCache sets a connection's page cache, in KiB.
func SetCache(ctx context.Context, conn *sql.Conn, kib int64) error {
	_, err := conn.ExecContext(ctx, fmt.Sprintf(`PRAGMA cache_size = -%d`, kib))
	return err
}
