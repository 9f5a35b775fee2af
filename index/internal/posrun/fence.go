package posrun

import (
	"context"
	"database/sql"
	"errors"
	"slices"
	"sync"

	"github.com/plateau/plateau/index/internal/store"
	"github.com/plateau/plateau/internal/nice"
)

// Fences: the last key of every block of every run, in memory, so that a
// lookup finds in memory the block of each run that may hold a key and
// reads all of them by id in one statement. Without them, a lookup took a
// descent of the index pos_blocks_run, then one of the table, per run and
// stored key: half of the lookup's page reads (docs/storage.md).
//
// A run's blocks never change while it lives (written in one transaction,
// deleted by a merge in one) and one writer appends them, so their ids
// follow each other in key order: a fence is the first id and the lasts.
// A fence is checked on use: the run's entries as listed, and each block
// read must be of the run and end on the fence's key (a run id used again
// after its run was merged away gives other blocks); on a mismatch the
// fence is dropped and the lookup reads the index (firstBlocks).

// runFence is the blocks of one run. It is loaded in the background, by
// the Store's one fence loader (loadFences), never by a lookup: a lookup
// reads the index for a run whose fence is not ready (a seek of one
// block) where loading it would take the lookup a read of a key a block
// (tens of milliseconds for the first lookup of a new handle or after
// each run an import adds).
type runFence struct {
	entries int64      // pos_runs.entries when loaded
	first   int64      // the id of the first block
	lasts   []int64    // the last key of each block, in order
	filter  *runFilter // the run's keys (filter.go); nil: none
	ready   chan struct{}
	ok      bool // loaded, kept; false: read the index for this run
}

// fenceCache holds the fences of a Store, up to maxFenceBlocks blocks in
// all (8 bytes each).
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

var maxFenceBlocks = 64 << 20 // 512 MiB of lasts (a variable for tests)

// fenceNice is how much nicer than the Store's lookups its fence loader
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
func (r *Snapshot) fence(run, entries int64) *runFence {
	c := &r.s.fences
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
	c.startLocked(r.s)
	return nil
}

// startLocked starts the loader unless it runs, is held or closed.
func (c *fenceCache) startLocked(s *Store) {
	if c.loading || c.held || c.closed || len(c.queue) == 0 {
		return
	}
	if c.ctx == nil {
		c.ctx, c.cancel = context.WithCancel(context.Background())
	}
	c.loading = true
	c.wg.Add(1)
	go s.loadFences(c.ctx)
}

// loadFences loads the queued fences one after the other, each in a read
// snapshot of its own, on a thread of lower priority, until none is left.
func (s *Store) loadFences(ctx context.Context) {
	c := &s.fences
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
		ok, err := s.loadFence(ctx, j.run, j.f, filter)
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
func (s *Store) loadFence(ctx context.Context, run int64, f *runFence, filter bool) (bool, error) {
	r, err := s.Snapshot(ctx)
	if err != nil {
		return false, err
	}
	defer r.Close()
	listed, err := r.listedRuns(ctx)
	if err != nil {
		return false, err
	}
	s.fences.prune(listed)
	if entries, ok := listed[run]; !ok || entries != f.entries {
		return false, errRunGone
	}
	st, err := r.Stmt(ctx, fenceQuery)
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
func (r *Snapshot) listedRuns(ctx context.Context) (map[int64]int64, error) {
	runs, entries, err := r.runEntries(ctx)
	if err != nil {
		return nil, err
	}
	listed := make(map[int64]int64, len(runs))
	for i, run := range runs {
		listed[run] = entries[i]
	}
	return listed, nil
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

// loadFilter reads the stored filter of a run (filter.go); nil when it
// has none (a run too large, or written before filters were).
func (r *Snapshot) loadFilter(ctx context.Context, run int64) (*runFilter, error) {
	has, err := r.Stmt(ctx, `SELECT COUNT(*) FROM sqlite_schema WHERE type = 'table' AND name = 'pos_filters'`)
	if err != nil {
		return nil, err
	}
	var tables int
	if err := has.QueryRowContext(ctx).Scan(&tables); err != nil || tables == 0 {
		return nil, err // a read-only handle of a database made before filters
	}
	st, err := r.Stmt(ctx, `SELECT data FROM pos_filters WHERE run = ?`)
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
func (r *Snapshot) fencedStreams(ctx context.Context, keys []int64) (streams []*keyStream, ok bool, err error) {
	runs, entries, err := r.runEntries(ctx)
	if err != nil {
		return nil, false, err
	}
	wants, ids, seek := r.planBlocks(runs, entries, keys)
	r.blocks += len(ids)
	if streams, err = r.seekStreams(ctx, seek, keys); err != nil || len(ids) == 0 {
		return streams, err == nil, err
	}
	got, err := r.readBlocks(ctx, ids)
	if err != nil {
		return nil, false, err
	}
	for _, w := range wants {
		b, found := got[w.id]
		if !found || b.run != w.run || b.last != w.last {
			r.s.fences.drop(w.run)
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

// fencedBlock is a block a lookup reads through its run's fence: the
// block id of run that may hold key, ending on last.
type fencedBlock struct {
	run, key, last, id int64
	check              bool // only to check the fence: the key is past the run
}

// planBlocks chooses, in each run whose fence is loaded, the block of
// each key that its filter does not rule out (wants; ids: the blocks to
// read, each once); the runs without a fence are to seek through the
// index.
func (r *Snapshot) planBlocks(runs, entries, keys []int64) (wants []fencedBlock, ids, seek []int64) {
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
			wants = append(wants, fencedBlock{run, key, f.lasts[b], id, skip})
			if !slices.Contains(ids, id) { // the two keys of a position share a block
				ids = append(ids, id)
			}
		}
	}
	return wants, ids, seek
}

// storedBlock is a block as stored: its run, last key and data.
type storedBlock struct {
	run, last int64
	data      []byte
}

// readBlocks reads blocks by id, in one statement.
func (r *Snapshot) readBlocks(ctx context.Context, ids []int64) (map[int64]storedBlock, error) {
	st, err := r.Stmt(ctx, blocksQuery)
	if err != nil {
		return nil, err
	}
	rows, err := st.QueryContext(ctx, store.JSONIDs(ids))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	got := make(map[int64]storedBlock, len(ids))
	for rows.Next() {
		var id int64
		var b storedBlock
		if err := rows.Scan(&id, &b.run, &b.last, &b.data); err != nil {
			return nil, err
		}
		got[id] = b
	}
	return got, rows.Err()
}

// seekStreams opens the streams of keys (one or two) in runs through the
// index: for each run, the first block whose last key is at least the
// smaller key, which is also the larger key's when it ends at or past it
// (the two keys of a position are neighbours), else a second seek.
func (r *Snapshot) seekStreams(ctx context.Context, runs, keys []int64) ([]*keyStream, error) {
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
