package posrun

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"runtime/pprof"
	"strings"

	"github.com/plateau/plateau/index/internal/dirlock"
)

// Merges beside a writer. A merge reads runs that nothing changes until
// the merge replaces them, so its work — reading, decoding, merging and
// encoding every occurrence of eight runs, hundreds of megabytes at the
// larger levels — need not stop an import's writer, its one serial stage.
// During an import a merge runs in a goroutine of its own (posMerge):
//
//   - The writer chooses the runs and reserves the merged run's id in its
//     transaction (meta pos_merging; nextRunID never gives it again).
//   - The goroutine reads the live games and the runs' blocks with reads of
//     their own, a page of blocks at a time (holding no read snapshot for
//     the merge's whole length, which would keep SQLite from resetting the
//     WAL), and hands the merged run's encoded blocks to the writer through
//     a bounded channel (mergeQueue blocks).
//   - The writer stores them in its transactions (Drain) as blocks of an
//     unlisted run, which readers ignore (they take the runs from
//     pos_runs), and, in the transaction that stores the last ones, lists
//     the merged run and deletes its sources and the meta entry: readers
//     see the old runs or the new one, never both nor neither.
//   - A merge cut short (a kill, an import stopped or failed) leaves blocks
//     of an unlisted run named by pos_merging: the next merge's transaction
//     deletes them (dropOrphanMerge) before it reserves an id.
//
// An import's last commit waits for the merge in flight, then merges in
// the writer (MergeLevels), so that an import ends with at most
// MaxRunsPerLevel-1 runs a level, as without this.

// MergingKey is the meta entry naming the run that a merge in flight
// (or cut short) writes.
const MergingKey = "pos_merging"

// mergeQueue is the number of encoded blocks a merge computes ahead of
// the writer (about 24 MiB of blockBytes blocks).
const mergeQueue = 8192

// posMerge is a merge in flight.
type posMerge struct {
	run     int64   // the merged run, unlisted until the swap
	srcs    []int64 // the runs merged
	deleted int64   // pos_deleted when the merge started
	blocks  chan encodedBlock
	bound   int64 // occurrences of srcs: at most the merged run's
	// Set before blocks is closed:
	n      int64      // occurrences in the merged run
	filter *runFilter // its filter (filter.go); nil: none
	counts []keyCount // its hot keys' counts (counts.go)
	gone   goneSet    // the gone occurrences it dropped (gone.go)
	err    error
	// stop cancels the goroutine; done is closed when it has returned.
	stop context.CancelFunc
	done chan struct{}
}

// posRunHighKey is the meta entry holding the highest id of a run that a
// merge took out of the list, so that no run id is used twice: a Store's
// fence and filter of a run (fence.go, filter.go) hold for as long as its
// id is listed.
const posRunHighKey = "pos_run_high"

// nextRunID is the id of a new run: past every listed run, the run of a
// merge in flight and every run merged away.
func nextRunID(ctx context.Context, q Querier) (int64, error) {
	var run int64
	err := q.QueryRowContext(ctx, `SELECT MAX(COALESCE((SELECT MAX(run) FROM pos_runs), 0),
		COALESCE((SELECT v FROM meta WHERE k = ?), 0),
		COALESCE((SELECT v FROM meta WHERE k = ?), 0)) + 1`, MergingKey, posRunHighKey).Scan(&run)
	return run, err
}

// dropOrphanMerge deletes the blocks of a merge that was cut short (its
// run unlisted) and the meta entry naming it.
func dropOrphanMerge(ctx context.Context, tx Tx) error {
	var run sql.NullInt64
	err := tx.QueryRowContext(ctx, `SELECT v FROM meta WHERE k = ?`, MergingKey).Scan(&run)
	if errors.Is(err, sql.ErrNoRows) {
		return nil
	}
	if err != nil {
		return err
	}
	var listed int
	if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM pos_runs WHERE run = ?`, run.Int64).Scan(&listed); err != nil {
		return err
	}
	if listed == 0 {
		if _, err := tx.ExecContext(ctx, `DELETE FROM pos_blocks WHERE run = ?`, run.Int64); err != nil {
			return err
		}
	}
	_, err = tx.ExecContext(ctx, `DELETE FROM meta WHERE k = ?`, MergingKey)
	return err
}

// mergeLevel lists the runs of the lowest level of MaxRunsPerLevel runs or
// more; none: nil.
func mergeLevel(ctx context.Context, q Querier) (runs []int64, err error) {
	var level int
	err = q.QueryRowContext(ctx, `SELECT level FROM pos_runs GROUP BY level HAVING COUNT(*) >= ? ORDER BY level LIMIT 1`,
		MaxRunsPerLevel).Scan(&level)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	rows, err := q.QueryContext(ctx, `SELECT run FROM pos_runs WHERE level = ? ORDER BY run`, level)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var run int64
		if err := rows.Scan(&run); err != nil {
			return nil, err
		}
		runs = append(runs, run)
	}
	return runs, rows.Err()
}

// Beside is the merges of one writer (an import): at most one in flight,
// computed by a goroutine beside the writer while the writer stores its
// blocks in its own transactions (Drain), and the merge lock, held from
// the transaction that starts a merge until the one that lists its run
// has ended.
type Beside struct {
	s    *Store
	m    *posMerge // in flight
	err  error     // of a merge that failed, reported after the commit
	lock *dirlock.Lock
	// ins stores merged blocks, prepared once in the transaction tx.
	ins *sql.Stmt
	tx  Tx
}

// Beside is a writer's merges.
func (s *Store) Beside() *Beside { return &Beside{s: s} }

// InFlight reports whether a merge is in flight.
func (b *Beside) InFlight() bool { return b.m != nil }

// Err returns the error of a merge that failed since the last call, and
// forgets it: a failed merge is not its transaction's failure.
func (b *Beside) Err() error {
	err := b.err
	b.err = nil
	return err
}

// Start starts a merge beside the writer when a level has
// MaxRunsPerLevel runs, no merge is in flight and no other writer holds
// the merge lock; it runs in the writer's transaction tx, before any of
// its rows (the merge reads the live games as committed).
func (b *Beside) Start(ctx context.Context, tx Tx) error {
	if b.m != nil {
		return nil
	}
	lock, err := b.s.tryMergeLock()
	if err != nil || lock == nil {
		return err // nil: another writer's merge is in flight
	}
	// Held to this transaction's end even when nothing is merged: an
	// orphan it drops is dropped once it commits.
	b.lock = lock
	if err := dropOrphanMerge(ctx, tx); err != nil {
		return err
	}
	runs, err := mergeLevel(ctx, tx)
	if err != nil || runs == nil {
		return err
	}
	deleted, err := metaInt(ctx, tx, deletedKey)
	if err != nil {
		return err
	}
	m, err := reserveMerge(ctx, tx, runs, deleted)
	if err != nil {
		return err
	}
	m.start(context.WithoutCancel(ctx), b.s)
	b.m = m
	return nil
}

// reserveMerge reserves, in tx, the id of the run that merges runs (meta
// pos_merging; nextRunID never gives it again); deleted is pos_deleted
// as tx reads it.
func reserveMerge(ctx context.Context, tx Tx, runs []int64, deleted int64) (*posMerge, error) {
	run, err := nextRunID(ctx, tx)
	if err != nil {
		return nil, err
	}
	if err := setMeta(ctx, tx, MergingKey, run); err != nil {
		return nil, err
	}
	bound, err := runsEntries(ctx, tx, runs)
	if err != nil {
		return nil, err
	}
	return &posMerge{run: run, srcs: runs, deleted: deleted, bound: bound}, nil
}

// start runs the merge in a goroutine (mergeBeside), reading through s's
// pool, until it ends or m.stop is called; ctx's values only are its.
func (m *posMerge) start(ctx context.Context, s *Store) {
	mctx, stop := context.WithCancel(ctx)
	m.blocks, m.stop, m.done = make(chan encodedBlock, mergeQueue), stop, make(chan struct{})
	// Labelled on its own, not with the step that starts it.
	go pprof.Do(context.Background(), pprof.Labels("stage", "merge"), func(context.Context) {
		defer close(m.done)
		m.filter = filterFor(m.bound)
		m.n, m.counts, m.gone, m.err = s.mergeBeside(mctx, m.srcs, m.deleted, m.filter, m.blocks)
		close(m.blocks)
	})
}

// mergeBeside merges runs, reading them through the Store's pool a page
// at a time, and sends the merged run's blocks to out.
func (s *Store) mergeBeside(ctx context.Context, runs []int64, deleted int64, filter *runFilter, out chan<- encodedBlock) (int64, []keyCount, goneSet, error) {
	live, err := s.liveGames(ctx, s.db, deleted)
	if err != nil {
		return 0, nil, nil, err
	}
	gone, err := s.loadGone(ctx, s.db)
	if err != nil {
		return 0, nil, nil, err
	}
	m := &runMerge{}
	batch := s.Tuning.pagerBatch()
	for _, run := range runs {
		pager := &blockPager{q: s.db, run: run, batch: batch}
		if err := m.add(&mergeSrc{cur: runCursor{ctx: ctx, run: run, pager: pager, dec: blockDecoder{legacy: s.cfg.LegacyBlocks}}}); err != nil {
			return 0, nil, nil, err
		}
	}
	hook := s.Tuning.BeforeMergeBlock
	enc := newBlockEncoder(func(last int64, data []byte) error {
		if hook != nil {
			if err := hook(ctx); err != nil {
				return err
			}
		}
		select {
		case out <- encodedBlock{last: last, data: append([]byte(nil), data...)}:
			return nil
		case <-ctx.Done():
			return ctx.Err()
		}
	})
	enc.filter = filter
	if err := m.encode(dropping{live, gone}, enc); err != nil {
		return 0, nil, nil, err
	}
	if err := enc.flush(); err != nil {
		return 0, nil, nil, err
	}
	return enc.n, enc.count.counts(), gone, nil
}

// blockPager reads a run's blocks in (last, id) order, batch at a time,
// each page a read of its own.
type blockPager struct {
	q        Querier
	run      int64
	batch    int
	last, id int64 // of the last block read
	started  bool
	end      bool
	page     []pagedBlock
	i        int
	arena    []byte
}

type pagedBlock struct {
	id, last int64
	data     []byte
}

// next is the run's next block, valid until the page is read again (after
// the page's last block is used).
func (p *blockPager) next(ctx context.Context) (pagedBlock, bool, error) {
	if p.i == len(p.page) {
		if p.end {
			return pagedBlock{}, false, nil
		}
		if err := p.read(ctx); err != nil {
			return pagedBlock{}, false, err
		}
		if len(p.page) == 0 {
			return pagedBlock{}, false, nil
		}
	}
	b := p.page[p.i]
	p.i++
	return b, true, nil
}

// pageQuery reads the blocks of a run after a (last, id), in order.
const pageQuery = `SELECT id, last, data FROM pos_blocks WHERE run = ? AND (last, id) > (?, ?) ORDER BY last, id LIMIT ?`

func (p *blockPager) read(ctx context.Context) error {
	p.page, p.i, p.arena = p.page[:0], 0, p.arena[:0]
	last, id := int64(-1<<63), int64(-1<<63)
	if p.started {
		last, id = p.last, p.id
	}
	rows, err := p.q.QueryContext(ctx, pageQuery, p.run, last, id, p.batch)
	if err != nil {
		return err
	}
	defer rows.Close()
	var ends []int
	for rows.Next() {
		var b pagedBlock
		var raw sql.RawBytes
		if err := rows.Scan(&b.id, &b.last, &raw); err != nil {
			return err
		}
		p.arena = append(p.arena, raw...)
		ends = append(ends, len(p.arena))
		p.page = append(p.page, b)
	}
	if err := rows.Err(); err != nil {
		return err
	}
	// The arena may have moved while it grew: slice it at the end.
	start := 0
	for i, end := range ends {
		p.page[i].data = p.arena[start:end:end]
		start = end
	}
	p.started = true
	if n := len(p.page); n > 0 {
		p.last, p.id = p.page[n-1].last, p.page[n-1].id
	}
	if len(p.page) < p.batch {
		p.end = true
	}
	return nil
}

// Drain stores the merged blocks ready (wait: every block, until the
// merge has ended) in the writer's transaction tx and, once the merge has
// ended, puts its run in place of its sources. A failed merge is not the
// transaction's failure: it is kept for Err, which the writer reports
// once its games are committed.
func (b *Beside) Drain(ctx context.Context, tx Tx, wait bool) error {
	m := b.m
	if m == nil {
		return nil
	}
	for {
		var blk encodedBlock
		var ok bool
		if wait {
			blk, ok = <-m.blocks
		} else {
			select {
			case blk, ok = <-m.blocks:
			default:
				return nil
			}
		}
		if !ok {
			break
		}
		ins, err := b.insert(ctx, tx)
		if err != nil {
			return err
		}
		if _, err := ins.ExecContext(ctx, m.run, blk.last, blk.data); err != nil {
			return fmt.Errorf("store merged positions: %w", err)
		}
	}
	<-m.done
	b.m = nil
	if m.err != nil {
		// Its blocks go with the next merge's dropOrphanMerge.
		b.err = fmt.Errorf("merge position runs: %w", m.err)
		return nil
	}
	if err := swapMerged(ctx, tx, m); err != nil {
		return err
	}
	_, err := tx.ExecContext(ctx, `DELETE FROM meta WHERE k = ?`, MergingKey)
	return err
}

// insert is the statement storing a merged block in tx, prepared once per
// transaction (database/sql closes it with tx).
func (b *Beside) insert(ctx context.Context, tx Tx) (*sql.Stmt, error) {
	if b.ins == nil || b.tx != tx {
		ins, err := tx.PrepareContext(ctx, `INSERT INTO pos_blocks(run, last, data) VALUES(?, ?, ?)`)
		if err != nil {
			return nil, err
		}
		b.ins, b.tx = ins, tx
	}
	return b.ins, nil
}

// swapMerged lists a finished merge's run (none when it holds no
// occurrence) and deletes its sources, in the writer's transaction or in
// mergeRuns'.
func swapMerged(ctx context.Context, tx Tx, m *posMerge) error {
	if m.n > 0 {
		if _, err := tx.ExecContext(ctx, `INSERT INTO pos_runs(run, entries, level) VALUES(?, ?, ?)`, m.run, m.n, runLevel(m.n)); err != nil {
			return err
		}
		if err := storeFilter(ctx, tx, m.run, m.filter); err != nil {
			return err
		}
		if err := storeCounts(ctx, tx, m.run, m.counts); err != nil {
			return err
		}
	}
	// With every run merged and no game deleted since the merge read the
	// live ones, no occurrence of a deleted game is left; nor is any of the
	// gone occurrences it read (gone.go).
	var others int
	args := []any{m.run}
	for _, r := range m.srcs {
		args = append(args, r)
	}
	if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM pos_runs WHERE run NOT IN (?`+strings.Repeat(",?", len(m.srcs))+`)`, args...).Scan(&others); err != nil {
		return err
	}
	deleted, err := metaInt(ctx, tx, deletedKey)
	if err != nil {
		return err
	}
	if others == 0 && deleted == m.deleted && deleted != 0 {
		if err := setMeta(ctx, tx, deletedKey, 0); err != nil {
			return err
		}
	}
	if others == 0 {
		if err := clearGone(ctx, tx, m.gone); err != nil {
			return err
		}
	}
	// The merged run's id is past its sources': it is the highest given.
	if _, err := tx.ExecContext(ctx, `INSERT INTO meta(k, v) VALUES(?, ?)
		ON CONFLICT(k) DO UPDATE SET v = MAX(v, excluded.v)`, posRunHighKey, m.run); err != nil {
		return err
	}
	for _, run := range m.srcs {
		if _, err := tx.ExecContext(ctx, `DELETE FROM pos_blocks WHERE run = ?`, run); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM pos_runs WHERE run = ?`, run); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM pos_filters WHERE run = ?`, run); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM pos_counts WHERE run = ?`, run); err != nil {
			return err
		}
	}
	return nil
}

// Stop cancels the merge in flight, if any, and waits for its goroutine
// (its stored blocks are left to dropOrphanMerge), then releases the
// merge lock.
func (b *Beside) Stop() {
	defer b.Release()
	m := b.m
	if m == nil {
		return
	}
	m.stop()
	for range m.blocks {
	}
	<-m.done
	b.m = nil
}

// Release gives up the merge lock, if held: once the transaction that
// lists a merged run (or that drops an orphan) has ended.
func (b *Beside) Release() {
	b.lock.Release()
	b.lock = nil
}
