package index

import (
	"context"
	"slices"
	"strconv"
	"sync"
)

// Fences: the last key of every block of every run, in memory, so that a
// lookup finds in memory the block of each run that may hold a key and
// reads all of them by id in one statement. Without them, a lookup took a
// descent of the index pos_blocks_run, then one of the table, per run and
// stored key: at ten million Ōgi games (21 runs, two stored keys) 42 of
// each, the index's half of the lookup's page reads.
//
// A run's blocks never change while it lives (written in one transaction,
// deleted by a merge in one) and one writer appends them, so their ids
// follow each other in key order: a fence is the first id and the lasts.
// A fence is checked on use: the run's entries as listed, and each block
// read must be of the run and end on the fence's key (a run id used again
// after its run was merged away gives other blocks); on a mismatch the
// fence is dropped and the lookup reads the index (firstBlocks).

// runFence is the blocks of one run. It is loaded once by the first lookup
// that needs it (the others wait for ready): fifty clients of a server
// that has just started would otherwise load every fence fifty times.
type runFence struct {
	entries int64   // pos_runs.entries when loaded
	first   int64   // the id of the first block
	lasts   []int64 // the last key of each block, in order
	ready   chan struct{}
	ok      bool // loaded, kept; false: read the index for this run
}

// fenceCache holds the fences of a handle, up to maxFenceBlocks blocks in
// all (8 bytes each): about 380,000 blocks a million Ōgi games.
type fenceCache struct {
	mu     sync.Mutex
	runs   map[int64]*runFence
	blocks int
}

var maxFenceBlocks = 64 << 20 // 512 MiB of lasts: some 170 million games

// drop forgets the fence of a run.
func (c *fenceCache) drop(run int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if f := c.runs[run]; f != nil {
		if f.ok {
			c.blocks -= len(f.lasts)
		}
		delete(c.runs, run)
	}
}

const (
	runsQuery   = `SELECT run, entries FROM pos_runs ORDER BY run`
	fenceQuery  = `SELECT id, last FROM pos_blocks WHERE run = ? ORDER BY last, id`
	blocksQuery = `SELECT id, run, last, data FROM pos_blocks WHERE id IN (SELECT value FROM json_each(?))`
)

// fence returns the fence of a run of entries occurrences, loading it in
// the reader's snapshot if no other lookup has; nil when the run's ids do
// not follow each other or the cache is full (loading a fence reads a key
// a block: it is worth it only kept).
func (r *posReader) fence(ctx context.Context, run, entries int64) (*runFence, error) {
	c := &r.db.fences
	c.mu.Lock()
	if f := c.runs[run]; f != nil && f.entries == entries {
		c.mu.Unlock()
		select {
		case <-f.ready:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		if !f.ok {
			return nil, nil
		}
		return f, nil
	} else if f != nil && f.ok { // the run id is another run's now
		c.blocks -= len(f.lasts)
	}
	if c.runs == nil {
		c.runs = map[int64]*runFence{}
	}
	f := &runFence{entries: entries, ready: make(chan struct{})}
	c.runs[run] = f
	c.mu.Unlock()

	ok, err := r.loadFence(ctx, run, f)
	c.mu.Lock()
	switch {
	case err != nil: // another lookup tries again
		if c.runs[run] == f {
			delete(c.runs, run)
		}
	case ok && c.blocks+len(f.lasts) <= maxFenceBlocks && c.runs[run] == f:
		f.ok = true
		c.blocks += len(f.lasts)
	default:
		f.lasts = nil
	}
	c.mu.Unlock()
	close(f.ready)
	if !f.ok {
		return nil, err
	}
	return f, nil
}

// loadFence reads the blocks' lasts of a run into f; false when their ids
// do not follow each other.
func (r *posReader) loadFence(ctx context.Context, run int64, f *runFence) (bool, error) {
	st, err := r.stmt(ctx, fenceQuery)
	if err != nil {
		return false, err
	}
	rows, err := st.QueryContext(ctx, run)
	if err != nil {
		return false, err
	}
	defer rows.Close()
	ok := true
	for rows.Next() {
		var id, last int64
		if err := rows.Scan(&id, &last); err != nil {
			return false, err
		}
		if len(f.lasts) == 0 {
			f.first = id
		}
		if id != f.first+int64(len(f.lasts)) {
			ok = false
		}
		f.lasts = append(f.lasts, last)
	}
	if err := rows.Err(); err != nil {
		return false, err
	}
	return ok && len(f.lasts) > 0, nil
}

// fencedStreams opens the streams of keys over every run through the
// fences. ok is false when a fence is missing or does not match what the
// snapshot holds: the caller then reads the index.
func (r *posReader) fencedStreams(ctx context.Context, keys []int64) (streams []*keyStream, ok bool, err error) {
	st, err := r.stmt(ctx, runsQuery)
	if err != nil {
		return nil, false, err
	}
	rows, err := st.QueryContext(ctx)
	if err != nil {
		return nil, false, err
	}
	type want struct {
		run, key, last, id int64
		check              bool // only to check the fence
	}
	var wants []want
	var ids []int64
	var runs, entries []int64
	for rows.Next() {
		var run, n int64
		if err := rows.Scan(&run, &n); err != nil {
			rows.Close()
			return nil, false, err
		}
		runs, entries = append(runs, run), append(entries, n)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, false, err
	}
	for i, run := range runs {
		f, err := r.fence(ctx, run, entries[i])
		if err != nil || f == nil {
			return nil, false, err
		}
		for k, key := range keys {
			if k > 0 && key == keys[0] {
				continue
			}
			b, _ := slices.BinarySearch(f.lasts, key) // the first block whose last >= key
			skip := b == len(f.lasts)
			if skip { // the key is past the run: its last block is read to check the fence
				b--
			}
			id := f.first + int64(b)
			wants = append(wants, want{run, key, f.lasts[b], id, skip})
			if !slices.Contains(ids, id) { // the two keys of a position share a block
				ids = append(ids, id)
			}
		}
	}
	if len(ids) == 0 {
		return nil, true, nil
	}
	list := make([]byte, 0, 20*len(ids))
	list = append(list, '[')
	for i, id := range ids {
		if i > 0 {
			list = append(list, ',')
		}
		list = strconv.AppendInt(list, id, 10)
	}
	list = append(list, ']')
	st, err = r.stmt(ctx, blocksQuery)
	if err != nil {
		return nil, false, err
	}
	brows, err := st.QueryContext(ctx, string(list))
	if err != nil {
		return nil, false, err
	}
	defer brows.Close()
	type block struct {
		run, last int64
		data      []byte
	}
	got := make(map[int64]block, len(ids))
	for brows.Next() {
		var id int64
		var b block
		if err := brows.Scan(&id, &b.run, &b.last, &b.data); err != nil {
			return nil, false, err
		}
		got[id] = b
	}
	if err := brows.Err(); err != nil {
		return nil, false, err
	}
	for _, w := range wants {
		b, found := got[w.id]
		if !found || b.run != w.run || b.last != w.last {
			r.db.fences.drop(w.run)
			return nil, false, nil
		}
		if w.check {
			continue
		}
		s := &keyStream{cur: runCursor{ctx: ctx, r: r, run: w.run, id: w.id, last: b.last}, key: w.key}
		s.cur.dec.reset(b.data)
		more, err := s.advance()
		if err != nil {
			return nil, false, err
		}
		if more {
			streams = append(streams, s)
		}
	}
	return streams, true, nil
}
