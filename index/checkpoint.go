package index

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
// automatic checkpoint waits for writerCheckpointPages (a bound on the
// WAL, should the checkpointer fall behind), and a goroutine checkpoints
// on another connection after each commit (PASSIVE: it never blocks the
// writer nor readers, and copies what no reader still needs), while the
// writer goes on with the next transaction. The writer's next transaction
// starts the WAL again from its beginning when the checkpoint copied it
// all. The import's end checkpoints and truncates the WAL as before
// (DB.checkpoint).

// writerCheckpointPages is the automatic checkpoint of an import's writer:
// 1 GiB of 16 KiB pages.
const writerCheckpointPages = 65536

// writerCacheKiB is the page cache of an import's writer, four times a
// connection's (defaultCacheKiB): the random-key B-trees an import writes
// at every commit (the games' hash and players, tags, the opening tree)
// outgrow 64 MiB from a few hundred thousand games on, and a page read
// again is a system call and a copy. 200,000 Ōgi games into 1,000,000:
// 37.2 and 44.1 s against 48.4 and 44.9 s with 64 MiB (alternated runs,
// load about 1.5), less system time (9.6–10.8 s against 12.6–13.6), for
// about 190 MB more memory at most.
const writerCacheKiB = 256 << 10

// checkpointer runs checkpoints beside the writer.
type checkpointer struct {
	poke chan struct{}
	done chan struct{}
	once sync.Once
}

func newCheckpointer(db *DB) *checkpointer {
	c := &checkpointer{poke: make(chan struct{}, 1), done: make(chan struct{})}
	go pprof.Do(context.Background(), pprof.Labels("stage", "checkpoint"), func(ctx context.Context) {
		defer close(c.done)
		for range c.poke {
			t0 := time.Now()
			_, err := db.sql.ExecContext(ctx, `PRAGMA wal_checkpoint(PASSIVE)`)
			if debugTiming {
				fmt.Fprintf(os.Stderr, "checkpoint %v %v\n", time.Since(t0), err)
			}
			// A failure (a full disk…) leaves the pages in the WAL: the
			// writer's commits and the import's end say so if it lasts.
		}
	})
	return c
}

// committed asks for a checkpoint of what the writer committed, unless one
// is asked for already; not after stop.
func (c *checkpointer) committed() {
	select {
	case c.poke <- struct{}{}:
	default:
	}
}

// stop waits for the checkpoint in progress; the checkpointer takes no
// more.
func (c *checkpointer) stop() {
	c.once.Do(func() { close(c.poke) })
	<-c.done
}

// writerConn is a connection of the pool for an import's writer, with
// automatic checkpoints at writerCheckpointPages; release sets them back
// to SQLite's default and gives the connection back to the pool.
func (db *DB) writerConn(ctx context.Context) (conn *sql.Conn, release func(), err error) {
	conn, err = db.sql.Conn(ctx)
	if err != nil {
		return nil, nil, err
	}
	for _, q := range []string{fmt.Sprintf(`PRAGMA wal_autocheckpoint = %d`, writerCheckpointPages), fmt.Sprintf(`PRAGMA cache_size = -%d`, writerCacheKiB)} {
		if _, err := conn.ExecContext(ctx, q); err != nil {
			conn.Close()
			return nil, nil, err
		}
	}
	return conn, func() {
		conn.ExecContext(context.Background(), `PRAGMA wal_autocheckpoint = 1000`)
		conn.ExecContext(context.Background(), fmt.Sprintf(`PRAGMA cache_size = -%d`, defaultCacheKiB))
		conn.Close()
	}, nil
}
