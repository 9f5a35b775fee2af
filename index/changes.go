package index

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sync"
)

// errClosed is the error of a call on a closed database.
var errClosed = errors.New("the database is closed")

// changes watches the commits made to the database by any connection, in
// this process or another: SQLite's PRAGMA data_version, read on a
// connection of its own, which tells the commits of the other connections
// (this one never writes), so that the pool's connections stay free for
// queries. The last game id and the edits counter (meta "edits") miss the
// text index's progress (a reindex, the text documents of an edit, written
// after its commit).
type changes struct {
	dsn string

	mu      sync.Mutex
	conn    *sql.DB // opened by the first seen
	closed  bool    // after close, seen opens nothing
	version int64   // the last data_version read
	n       int64   // the changes seen
}

// seen returns the number of changes seen: one more than at the last call
// when anything was committed since.
func (c *changes) seen(ctx context.Context) (int64, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		// A caller that outlives the database (a count in the
		// background) must not open the file again: it would make the
		// WAL files of a database closed, perhaps removed.
		return 0, fmt.Errorf("data version: %w", errClosed)
	}
	if c.conn == nil {
		conn, err := sql.Open(driverName, c.dsn)
		if err != nil {
			return 0, err
		}
		conn.SetMaxOpenConns(1)
		conn.SetMaxIdleConns(1)
		c.conn = conn
	}
	var v int64
	if err := c.conn.QueryRowContext(ctx, `PRAGMA data_version`).Scan(&v); err != nil {
		return 0, fmt.Errorf("data version: %w", err)
	}
	if v != c.version {
		c.version = v
		c.n++
	}
	return c.n, nil
}

// close closes the watching connection.
func (c *changes) close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.closed = true
	if c.conn == nil {
		return nil
	}
	err := c.conn.Close()
	c.conn = nil
	return err
}
