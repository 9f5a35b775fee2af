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
// of a number of games: at least four times a connection's
// (DefaultCacheKiB), and cacheBytesPerGame a game (the random-key
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
	minWriterCacheKiB = 256 << 10
	cacheBytesPerGame = 256
)

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

// WriterConn is a connection of db's pool for an import's writer into a
// database of a number of games, with automatic checkpoints at
// WriterCheckpointPages and a page cache of WriterCacheKiB; release sets
// both back to SQLite's default and DefaultCacheKiB and gives the
// connection back to the pool.
func WriterConn(ctx context.Context, db *sql.DB, games int64) (conn *sql.Conn, release func(), err error) {
	conn, err = db.Conn(ctx)
	if err != nil {
		return nil, nil, err
	}
	_, err = conn.ExecContext(ctx, fmt.Sprintf(`PRAGMA wal_autocheckpoint = %d`, WriterCheckpointPages))
	if err == nil {
		err = SetCache(ctx, conn, WriterCacheKiB(games))
	}
	if err != nil {
		conn.Close()
		return nil, nil, err
	}
	return conn, func() {
		conn.ExecContext(context.Background(), `PRAGMA wal_autocheckpoint = 1000`)
		SetCache(context.Background(), conn, DefaultCacheKiB)
		conn.Close()
	}, nil
}

// SetCache sets a connection's page cache, in KiB.
func SetCache(ctx context.Context, conn *sql.Conn, kib int64) error {
	_, err := conn.ExecContext(ctx, fmt.Sprintf(`PRAGMA cache_size = -%d`, kib))
	return err
}
