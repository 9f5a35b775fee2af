package posrun

import (
	"context"
	"database/sql"
	"sync"
	"time"
)

// Snapshot reads occurrences in one read snapshot of the database: a
// BEGIN DEFERRED on one of the Store's read connections (readConn). Its
// user runs its own queries of the same snapshot through Stmt or Conn.
type Snapshot struct {
	s          *Store
	q          Querier // the snapshot's connection
	rc         *readConn
	seek, cont *sql.Stmt
	runs       []int64
	own        []*sql.Stmt // statements of this snapshot only, to close
	blocks     int         // the blocks its lookups sought (tests)
}

// readConn is a connection that a Store keeps for read snapshots, with
// the statements prepared on it. A snapshot is a BEGIN DEFERRED on it,
// not a database/sql transaction: a transaction, and each query run in
// one, starts a goroutine that waits for its context to end, and waking
// them delayed lookups on busy processors (docs/storage.md). Statements
// prepared on a kept connection are prepared once, not once a snapshot.
type readConn struct {
	conn            *sql.Conn
	begin, rollback *sql.Stmt // a snapshot's ends
	stmts           map[string]*sql.Stmt
	idle            time.Time // since it was put back
}

// readConns are the read connections a handle keeps: at most
// maxReadConns idle ones (fewer under a bounded pool, put); more lookups
// at once take more, which go back to database/sql's pool after their
// snapshot.
type readConns struct {
	mu     sync.Mutex
	free   []*readConn // the last put back last
	closed bool
	sweep  *time.Timer // closes the connections idle for readConnIdle
}

// readConnIdle is how long a kept read connection may stay idle before it
// is closed and its page cache freed (as a server's pool closes its idle
// connections).
var readConnIdle = 30 * time.Second

const (
	maxReadConns = 4
	// maxReadStmts bounds the statements kept on a read connection (the
	// searches' joins differ by their filters): past it, a statement is
	// prepared for its snapshot only.
	maxReadStmts = 64
)

// take returns an idle read connection, or a new one.
func (p *readConns) take(ctx context.Context, db *sql.DB) (*readConn, error) {
	p.mu.Lock()
	if n := len(p.free); n > 0 {
		rc := p.free[n-1]
		p.free = p.free[:n-1]
		p.mu.Unlock()
		return rc, nil
	}
	p.mu.Unlock()
	conn, err := db.Conn(ctx)
	if err != nil {
		return nil, err
	}
	rc := &readConn{conn: conn, stmts: map[string]*sql.Stmt{}}
	ctx = Quiet(ctx)
	rc.begin, err = conn.PrepareContext(ctx, `BEGIN DEFERRED`)
	if err == nil {
		rc.rollback, err = conn.PrepareContext(ctx, `ROLLBACK`)
	}
	if err != nil {
		rc.close()
		return nil, err
	}
	return rc, nil
}

// put keeps rc for the next snapshot, or closes it. Under a bound on
// db's open connections (a server bounds its pool), a read connection kept
// idle counts as open: two at least are left, one to the queries that do
// not read positions and one to the fence loader.
func (p *readConns) put(rc *readConn, db *sql.DB) {
	keep := maxReadConns
	if max := db.Stats().MaxOpenConnections; max > 0 {
		keep = min(keep, max-2)
	}
	p.mu.Lock()
	if !p.closed && len(p.free) < keep {
		rc.idle = time.Now()
		p.free = append(p.free, rc)
		if p.sweep == nil {
			p.sweep = time.AfterFunc(readConnIdle, p.closeIdle)
		}
		p.mu.Unlock()
		return
	}
	p.mu.Unlock()
	rc.close()
}

// closeIdle closes the connections idle for readConnIdle, and comes back
// for the others.
func (p *readConns) closeIdle() {
	p.mu.Lock()
	var old []*readConn
	for len(p.free) > 0 && time.Since(p.free[0].idle) >= readConnIdle {
		old = append(old, p.free[0])
		p.free = p.free[1:]
	}
	p.sweep = nil
	if len(p.free) > 0 && !p.closed {
		p.sweep = time.AfterFunc(readConnIdle-time.Since(p.free[0].idle), p.closeIdle)
	}
	p.mu.Unlock()
	for _, rc := range old {
		rc.close()
	}
}

// close closes the idle connections; those in use close when put back.
func (p *readConns) close() {
	p.mu.Lock()
	free := p.free
	p.free, p.closed = nil, true
	if p.sweep != nil {
		p.sweep.Stop()
	}
	p.mu.Unlock()
	for _, rc := range free {
		rc.close()
	}
}

func (rc *readConn) close() {
	for _, st := range rc.stmts {
		st.Close()
	}
	for _, st := range []*sql.Stmt{rc.begin, rc.rollback} {
		if st != nil {
			st.Close()
		}
	}
	rc.conn.Close()
}

// Snapshot starts a read snapshot (BEGIN DEFERRED: a writable handle's
// transactions take the write lock, BEGIN IMMEDIATE) on a read connection
// of the Store. The caller runs its other queries of the same snapshot
// through Stmt or Conn and calls Close.
func (s *Store) Snapshot(ctx context.Context) (*Snapshot, error) {
	rc, err := s.reads.take(ctx, s.db)
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		s.reads.put(rc, s.db)
		return nil, err
	}
	if _, err := rc.begin.ExecContext(Quiet(ctx)); err != nil {
		rc.close()
		return nil, err
	}
	return &Snapshot{s: s, q: rc.conn, rc: rc}, nil
}

// Conn is the snapshot's connection, for queries of the same snapshot.
func (r *Snapshot) Conn() Querier { return r.q }

// Stmt is query prepared on the snapshot's connection, once for the
// connection's life (up to maxReadStmts queries; past them, for the
// snapshot only): the caller does not close it.
func (r *Snapshot) Stmt(ctx context.Context, query string) (*sql.Stmt, error) {
	if st := r.rc.stmts[query]; st != nil {
		return st, nil
	}
	st, err := r.rc.conn.PrepareContext(ctx, query)
	if err != nil {
		return nil, err
	}
	if len(r.rc.stmts) < maxReadStmts {
		r.rc.stmts[query] = st
	} else {
		r.own = append(r.own, st)
	}
	return st, nil
}

// loadRuns lists the live runs.
func (r *Snapshot) loadRuns(ctx context.Context) error {
	runs, _, err := r.runEntries(ctx)
	r.runs = append(r.runs, runs...)
	return err
}

// runEntries lists the live runs and their entries, in run order.
func (r *Snapshot) runEntries(ctx context.Context) (runs, entries []int64, err error) {
	st, err := r.Stmt(ctx, runsQuery)
	if err != nil {
		return nil, nil, err
	}
	rows, err := st.QueryContext(ctx)
	if err != nil {
		return nil, nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var run, n int64
		if err := rows.Scan(&run, &n); err != nil {
			return nil, nil, err
		}
		runs, entries = append(runs, run), append(entries, n)
	}
	return runs, entries, rows.Err()
}

// prepareSeeks prepares the statements of blocks after the first.
func (r *Snapshot) prepareSeeks(ctx context.Context) error {
	if r.seek != nil {
		return nil
	}
	var err error
	if r.seek, err = r.Stmt(ctx, seekQuery); err != nil {
		return err
	}
	r.cont, err = r.Stmt(ctx, contQuery)
	return err
}

// Close ends the snapshot and keeps its connection for the next one.
func (r *Snapshot) Close() {
	for _, st := range r.own {
		st.Close()
	}
	// A connection whose snapshot did not end is not kept.
	if _, err := r.rc.rollback.ExecContext(context.Background()); err != nil {
		r.rc.close()
		return
	}
	r.s.reads.put(r.rc, r.s.db)
}

// Quiet is ctx without its end, for a snapshot's statements: under a
// context that can end, database/sql starts a goroutine for each query
// (to close its rows when the context ends) and go-sqlite3 runs each Exec
// in a goroutine of its own (to interrupt it). The statements of a lookup
// are short (a block, a batch of games): its loops check the caller's
// context instead (Iter.Next, and the caller's joins).
func Quiet(ctx context.Context) context.Context { return context.WithoutCancel(ctx) }
