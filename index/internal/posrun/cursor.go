package posrun

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// runCursor reads the blocks of one run in order: from the block that
// may hold a key (seek), or every block (scan).
type runCursor struct {
	ctx      context.Context
	r        *Snapshot   // its seekQuery and contQuery (nil when scanning)
	rows     *sql.Rows   // a scan's blocks
	pager    *blockPager // a merge's blocks, read a page at a time (beside.go)
	run      int64
	last, id int64 // the current block
	dec      blockDecoder
	done     bool
}

const (
	// seekQuery finds the first block whose last key is at least a key;
	// after a block ending with the key, the list goes on in the next
	// block: contQuery one of the same last key (a key's list can span
	// many blocks), else seekQuery's with last past the key.
	seekQuery = `SELECT id, last, data FROM pos_blocks WHERE run = ? AND last >= ? ORDER BY last, id LIMIT 1`
	contQuery = `SELECT id, last, data FROM pos_blocks WHERE run = ? AND last = ? AND id > ? ORDER BY id LIMIT 1`
	scanQuery = `SELECT id, last, data FROM pos_blocks WHERE run = ? ORDER BY last, id`
)

// nextBlock loads the next block; false at the end of the run or, when
// seeking key, past the blocks that can hold it.
func (c *runCursor) nextBlock(key int64) (bool, error) {
	if c.done {
		return false, nil
	}
	var data []byte
	var err error
	switch {
	case c.pager != nil:
		b, ok, err := c.pager.next(c.ctx)
		if err != nil || !ok {
			c.done = true
			return false, err
		}
		c.id, c.last = b.id, b.last
		c.dec.reset(b.data)
		return true, nil
	case c.rows != nil:
		if !c.rows.Next() {
			c.done = true
			return false, c.rows.Err()
		}
		// The block is read before the next Next: its bytes need no
		// copy.
		var raw sql.RawBytes
		err = c.rows.Scan(&c.id, &c.last, &raw)
		data = raw
	case c.last == key:
		if err := c.r.prepareSeeks(c.ctx); err != nil {
			return false, err
		}
		err = c.r.cont.QueryRowContext(c.ctx, c.run, key, c.id).Scan(&c.id, &c.last, &data)
		if errors.Is(err, sql.ErrNoRows) && key < 1<<63-1 {
			err = c.r.seek.QueryRowContext(c.ctx, c.run, key+1).Scan(&c.id, &c.last, &data)
		}
	default: // the block's last key is past key
		c.done = true
		return false, nil
	}
	if errors.Is(err, sql.ErrNoRows) {
		c.done = true
		return false, nil
	}
	if err != nil {
		return false, err
	}
	c.dec.reset(data)
	return true, nil
}

// firstBlocks finds, in one statement, the first block that may hold a
// key in every run, for each of up to two keys.
const firstBlocks = `SELECT r.run, ks.k, b.id, b.last, b.data
	FROM pos_runs r, (SELECT ?1 AS k UNION ALL SELECT ?2) ks
	JOIN pos_blocks b ON b.id = (SELECT id FROM pos_blocks WHERE run = r.run AND last >= ks.k ORDER BY last, id LIMIT 1)`

// keyStream streams the ats of one key in one run.
type keyStream struct {
	cur   runCursor
	key   int64
	at    int64 // current
	ended bool
}

// advance moves to the key's next at; false at the end of the key.
func (s *keyStream) advance() (bool, error) {
	if s.ended {
		return false, nil
	}
	for {
		for s.cur.dec.next() {
			if s.cur.dec.key < s.key {
				continue
			}
			if s.cur.dec.key > s.key {
				s.ended = true
				return false, nil
			}
			s.at = s.cur.dec.at
			return true, nil
		}
		if s.cur.dec.err != nil {
			return false, fmt.Errorf("run %d: %w", s.cur.run, s.cur.dec.err)
		}
		ok, err := s.cur.nextBlock(s.key)
		if err != nil || !ok {
			s.ended = true
			return false, err
		}
	}
}

// openStream appends to streams the stream of key in run from its block
// (id, last, data), unless the key has no at from there on.
func (r *Snapshot) openStream(ctx context.Context, streams []*keyStream, run, key, id, last int64, data []byte) ([]*keyStream, error) {
	s := &keyStream{cur: runCursor{ctx: ctx, r: r, run: run, id: id, last: last, dec: blockDecoder{legacy: r.s.cfg.LegacyBlocks}}, key: key}
	s.cur.dec.reset(data)
	more, err := s.advance()
	if err != nil || !more {
		return streams, err
	}
	return append(streams, s), nil
}

// Iter merges the ats of some keys over every run, in at order, each at
// once.
type Iter struct {
	streams []*keyStream
	at      int64
	prev    int64
	gone    map[int64]bool // the gone occurrences of its keys (gone.go)
	err     error
	done    context.Context // the caller's: checked every checkEvery ats
	n       int
	keep    func(at int64) bool
}

// Keep makes the iteration skip the ats for which keep is false (a
// reader's filter of the games it wants, before it joins their rows), and
// returns it.
func (it *Iter) Keep(keep func(at int64) bool) *Iter {
	it.keep = keep
	return it
}

// checkEvery is how often an Iter checks its caller's context: its
// statements run without the context's end (quiet).
const checkEvery = 256

// Occurrences iterates the ats stored under the given stored keys (one or
// two: Store.Keys) in the snapshot, but the gone ones (gone.go), under
// done, which ends the iteration with its error.
func (r *Snapshot) Occurrences(done context.Context, keys ...int64) *Iter {
	it := &Iter{prev: -1, done: done}
	if it.err = done.Err(); it.err != nil {
		return it
	}
	ctx := Quiet(done)
	if len(keys) == 1 {
		keys = append(keys, keys[0])
	}
	if it.gone, it.err = r.goneAts(ctx, keys); it.err != nil {
		return it
	}
	if streams, ok, err := r.fencedStreams(ctx, keys); err != nil || ok {
		it.streams, it.err = streams, err
		return it
	}
	st, err := r.Stmt(ctx, firstBlocks)
	if err != nil {
		it.err = err
		return it
	}
	rows, err := st.QueryContext(ctx, keys[0], keys[1])
	if err != nil {
		it.err = err
		return it
	}
	defer rows.Close()
	seen := map[[2]int64]bool{}
	for rows.Next() {
		var run, key, id, last int64
		var data []byte
		if err := rows.Scan(&run, &key, &id, &last, &data); err != nil {
			it.err = err
			return it
		}
		if seen[[2]int64{run, key}] { // the same key twice
			continue
		}
		seen[[2]int64{run, key}] = true
		if it.streams, it.err = r.openStream(ctx, it.streams, run, key, id, last, data); it.err != nil {
			return it
		}
	}
	if err := rows.Err(); err != nil {
		it.err = err
	}
	return it
}

// At is the current at.
func (it *Iter) At() int64 { return it.at }

// Err is the error that ended the iteration, if any.
func (it *Iter) Err() error { return it.err }

// Next moves to the next at (in PackAt order: game, ply, var).
func (it *Iter) Next() bool {
	if it.n++; it.n%checkEvery == 0 && it.err == nil {
		it.err = it.done.Err()
	}
	for it.err == nil && len(it.streams) > 0 {
		m := 0
		for i, s := range it.streams[1:] {
			if s.at < it.streams[m].at {
				m = i + 1
			}
		}
		s := it.streams[m]
		at := s.at
		ok, err := s.advance()
		if err != nil {
			it.err = err
			return false
		}
		if !ok {
			it.streams = append(it.streams[:m], it.streams[m+1:]...)
		}
		if at == it.prev {
			continue
		}
		it.prev = at
		if it.gone[at] {
			continue
		}
		if it.keep != nil && !it.keep(at) {
			if it.n++; it.n%checkEvery == 0 {
				it.err = it.done.Err()
			}
			continue
		}
		it.at = at
		return true
	}
	return false
}
