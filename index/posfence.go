package index

import (
	"context"
	"database/sql"
	"errors"
	"slices"
	"strconv"
	"sync"

	"github.com/plateau/plateau/internal/nice"
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

// runFence is the blocks of one run. It is loaded in the background, by
// the handle's one fence loader (loadFences), never by a lookup: a lookup
// reads the index for a run whose fence is not ready (a seek of one block,
// tens of microseconds) where loading it would take the lookup a read of a
// key a block (at a million Ōgi games, 75–100 ms for the first lookup of a
// new handle, and 2–20 ms for the first after each run an import adds).
type runFence struct {
	entries int64      // pos_runs.entries when loaded
	first   int64      // the id of the first block
	lasts   []int64    // the last key of each block, in order
	filter  *runFilter // the run's keys (posfilter.go); nil: none
	ready   chan struct{}
	ok      bool // loaded, kept; false: read the index for this run
}

// fenceCache holds the fences of a handle, up to maxFenceBlocks blocks in
// all (8 bytes each): about 380,000 blocks a million Ōgi games.
type fenceCache struct {
	mu      sync.Mutex
	runs    map[int64]*runFence
	blocks  int
	filters int        // bytes of the kept fences' filters
	queue   []fenceJob // fences to load, in the order lookups met them
	loading bool       // the loader runs
	held    bool       // tests: fences are queued, not loaded
	closed  bool
	ctx     context.Context // the loader's, cancelled by close
	cancel  context.CancelFunc
	wg      sync.WaitGroup
}

type fenceJob struct {
	run int64
	f   *runFence
}

var maxFenceBlocks = 64 << 20 // 512 MiB of lasts: some 170 million games

// fenceNice is how much nicer than the handle's lookups its fence loader
// runs: it is background work, which a lookup waiting for a processor
// should not wait behind.
const fenceNice = 5

// drop forgets the fence of a run.
func (c *fenceCache) drop(run int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if f := c.runs[run]; f != nil {
		select {
		case <-f.ready:
		default:
			return // being loaded: the loader checks it against its snapshot
		}
		if f.ok {
			c.release(f)
		}
		delete(c.runs, run)
	}
}

// release takes a kept fence out of the bounds' accounts.
func (c *fenceCache) release(f *runFence) {
	c.blocks -= len(f.lasts)
	if f.filter != nil {
		c.filters -= f.filter.bytes()
	}
}

// close stops the loader (a load under way is cancelled) and waits for it.
func (c *fenceCache) close() {
	c.mu.Lock()
	c.closed = true
	if c.cancel != nil {
		c.cancel()
	}
	c.mu.Unlock()
	c.wg.Wait()
}

const (
	runsQuery   = `SELECT run, entries FROM pos_runs ORDER BY run`
	fenceQuery  = `SELECT id, last FROM pos_blocks WHERE run = ? ORDER BY last, id`
	blocksQuery = `SELECT id, run, last, data FROM pos_blocks WHERE id IN (SELECT value FROM json_each(?))`
)

// fence returns the fence of a run of entries occurrences when it is
// loaded; nil when it is not yet (it is queued for the loader), when the
// run's ids do not follow each other or when the cache is full (loading a
// fence reads a key a block: it is worth it only kept). The caller then
// reads the index for this run.
func (r *posReader) fence(run, entries int64) *runFence {
	c := &r.db.fences
	c.mu.Lock()
	defer c.mu.Unlock()
	if f := c.runs[run]; f != nil && f.entries == entries {
		select {
		case <-f.ready:
			if f.ok {
				return f
			}
		default:
		}
		return nil
	} else if f != nil && f.ok { // the run's entries changed (a run id used again by an older database)
		c.release(f)
	}
	if c.closed {
		return nil
	}
	if c.runs == nil {
		c.runs = map[int64]*runFence{}
	}
	f := &runFence{entries: entries, ready: make(chan struct{})}
	c.runs[run] = f
	c.queue = append(c.queue, fenceJob{run, f})
	c.startLocked(r.db)
	return nil
}

// startLocked starts the loader unless it runs, is held or closed.
func (c *fenceCache) startLocked(db *DB) {
	if c.loading || c.held || c.closed || len(c.queue) == 0 {
		return
	}
	if c.ctx == nil {
		c.ctx, c.cancel = context.WithCancel(context.Background())
	}
	c.loading = true
	c.wg.Add(1)
	go db.loadFences(c.ctx)
}

// loadFences loads the queued fences one after the other, each in a read
// snapshot of its own, on a thread of lower priority, until none is left.
func (db *DB) loadFences(ctx context.Context) {
	c := &db.fences
	defer c.wg.Done()
	nice.LowerThread(fenceNice) // the thread ends with the goroutine
	for {
		c.mu.Lock()
		if len(c.queue) == 0 || c.held || c.closed {
			if c.closed { // lookups after close read the index
				for _, j := range c.queue {
					if c.runs[j.run] == j.f {
						delete(c.runs, j.run)
					}
					close(j.f.ready)
				}
				c.queue = nil
			}
			c.loading = false
			c.mu.Unlock()
			return
		}
		j := c.queue[0]
		c.queue = c.queue[1:]
		c.mu.Unlock()

		c.mu.Lock()
		filter := j.f.entries <= maxFilterEntries && c.filters+int(newRunFilterBytes(j.f.entries)) <= maxFilterBytes
		c.mu.Unlock()
		ok, err := db.loadFence(ctx, j.run, j.f, filter)
		c.mu.Lock()
		switch {
		case err != nil: // a later lookup queues it again
			if c.runs[j.run] == j.f {
				delete(c.runs, j.run)
			}
			j.f.lasts, j.f.filter = nil, nil
		case ok && c.blocks+len(j.f.lasts) <= maxFenceBlocks && c.runs[j.run] == j.f:
			j.f.ok = true
			if j.f.filter != nil && c.filters+j.f.filter.bytes() > maxFilterBytes {
				j.f.filter = nil
			}
			c.blocks += len(j.f.lasts)
			if j.f.filter != nil {
				c.filters += j.f.filter.bytes()
			}
		default:
			j.f.lasts, j.f.filter = nil, nil
		}
		close(j.f.ready)
		c.mu.Unlock()
	}
}

// errRunGone: the run of a fence to load is no longer listed as the
// lookup that queued it saw it (merged away since).
var errRunGone = errors.New("run no longer listed")

// loadFence reads the blocks' lasts of a run into f, in a snapshot of its
// own, and with filter the run's stored filter; false when their ids do
// not follow each other.
func (db *DB) loadFence(ctx context.Context, run int64, f *runFence, filter bool) (bool, error) {
	r, err := openPosReader(ctx, db)
	if err != nil {
		return false, err
	}
	defer r.close()
	listed, err := r.listedRuns(ctx)
	if err != nil {
		return false, err
	}
	db.fences.prune(listed)
	if entries, ok := listed[run]; !ok || entries != f.entries {
		return false, errRunGone
	}
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
	if !ok || len(f.lasts) == 0 {
		return false, nil
	}
	if filter {
		if f.filter, err = r.loadFilter(ctx, run); err != nil {
			return false, err
		}
	}
	return true, nil
}

// listedRuns reads the entries of each listed run.
func (r *posReader) listedRuns(ctx context.Context) (map[int64]int64, error) {
	st, err := r.stmt(ctx, runsQuery)
	if err != nil {
		return nil, err
	}
	rows, err := st.QueryContext(ctx)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	listed := map[int64]int64{}
	for rows.Next() {
		var run, n int64
		if err := rows.Scan(&run, &n); err != nil {
			return nil, err
		}
		listed[run] = n
	}
	return listed, rows.Err()
}

// prune forgets the loaded fences (and filters) of the runs merged away:
// those missing from a snapshot's listed runs below the highest of them.
// Run ids grow (nextRunID): a run above it is newer than the snapshot. A
// lookup in an older snapshot that still lists a pruned run reads the
// index for it and queues it; the loader then finds it gone.
func (c *fenceCache) prune(listed map[int64]int64) {
	var high int64
	for run := range listed {
		high = max(high, run)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for run, f := range c.runs {
		if _, ok := listed[run]; ok || run > high {
			continue
		}
		select {
		case <-f.ready:
		default:
			continue // queued or being loaded: the loader checks it
		}
		if f.ok {
			c.release(f)
		}
		delete(c.runs, run)
	}
}

// loadFilter reads the stored filter of a run (posfilter.go); nil when it
// has none (a run too large, or written before filters were).
func (r *posReader) loadFilter(ctx context.Context, run int64) (*runFilter, error) {
	has, err := r.stmt(ctx, `SELECT COUNT(*) FROM sqlite_schema WHERE type = 'table' AND name = 'pos_filters'`)
	if err != nil {
		return nil, err
	}
	var tables int
	if err := has.QueryRowContext(ctx).Scan(&tables); err != nil || tables == 0 {
		return nil, err // a read-only handle of a database made before filters
	}
	st, err := r.stmt(ctx, `SELECT data FROM pos_filters WHERE run = ?`)
	if err != nil {
		return nil, err
	}
	var data []byte
	err = st.QueryRowContext(ctx, run).Scan(&data)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return decodeRunFilter(data), nil
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
	var seek []int64 // runs read through the index
	for i, run := range runs {
		f := r.fence(run, entries[i])
		if f == nil {
			seek = append(seek, run)
			continue
		}
		for k, key := range keys {
			if k > 0 && key == keys[0] || f.filter != nil && !f.filter.has(key) {
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
	r.blocks += len(ids)
	if streams, err = r.seekStreams(ctx, seek, keys); err != nil || len(ids) == 0 {
		return streams, err == nil, err
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
		if streams, err = r.openStream(ctx, streams, w.run, w.key, w.id, b.last, b.data); err != nil {
			return nil, false, err
		}
	}
	return streams, true, nil
}

// seekStreams opens the streams of keys (one or two) in runs through the
// index: for each run, the first block whose last key is at least the
// smaller key, which is also the larger key's when it ends at or past it
// (the two keys of a position are neighbours), else a second seek.
func (r *posReader) seekStreams(ctx context.Context, runs, keys []int64) ([]*keyStream, error) {
	if len(runs) == 0 {
		return nil, nil
	}
	if err := r.prepareSeeks(ctx); err != nil {
		return nil, err
	}
	ks := slices.Clone(keys)
	slices.Sort(ks)
	ks = slices.Compact(ks)
	var streams []*keyStream
	for _, run := range runs {
		var id, last int64
		var data []byte
		found := false
		for _, key := range ks {
			if !found || last < key {
				r.blocks++
				err := r.seek.QueryRowContext(ctx, run, key).Scan(&id, &last, &data)
				if errors.Is(err, sql.ErrNoRows) { // the run ends before key
					break
				}
				if err != nil {
					return nil, err
				}
				found = true
			}
			var err error
			if streams, err = r.openStream(ctx, streams, run, key, id, last, data); err != nil {
				return nil, err
			}
		}
	}
	return streams, nil
}
