package posrun

import (
	"context"
	"fmt"
	"slices"

	"github.com/plateau/plateau/index/internal/dirlock"
	"github.com/plateau/plateau/index/internal/store"
)

// mergeRuns merges the runs of a level that has MaxRunsPerLevel of them
// into one, in one transaction, keeping only the occurrences of games
// still stored and valid. It reports whether it merged.
func (s *Store) mergeRuns(ctx context.Context, tx Tx) (bool, error) {
	runs, err := mergeLevel(ctx, tx)
	if err != nil || runs == nil {
		return false, err
	}
	return true, s.mergeRunsOf(ctx, tx, runs)
}

// mergeTail merges, in one transaction, the tail of the runs into one: in
// the runs ordered from the largest, the runs after the first one that
// outweighs them all (tailOf). An import ends with it (MergeLevels), so
// that a lookup reads a few blocks, not one per run that the import's
// last level merges happened to leave, at a cost bounded by budget
// occurrences. It reports whether it merged.
func (s *Store) mergeTail(ctx context.Context, tx Tx, budget int64) (bool, error) {
	rows, err := tx.QueryContext(ctx, `SELECT run, entries FROM pos_runs ORDER BY entries DESC, run`)
	if err != nil {
		return false, err
	}
	var runs, entries []int64
	for rows.Next() {
		var run, n int64
		if err := rows.Scan(&run, &n); err != nil {
			rows.Close()
			return false, err
		}
		runs, entries = append(runs, run), append(entries, n)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return false, err
	}
	k := tailOf(entries, budget)
	if k < 0 {
		return false, nil
	}
	tail := runs[k+1:]
	slices.Sort(tail)
	return true, s.mergeRunsOf(ctx, tx, tail)
}

// tailOf chooses the tail merge of runs of entries occurrences, ordered
// from the largest: the runs after the first run k that holds at least as
// many occurrences as they do together, when they are two or more and
// hold at most budget; -1: none. The runs left then each outweigh all the
// smaller ones, so that there are at most log2 of the largest's size in
// all, and in practice two to four.
func tailOf(entries []int64, budget int64) int {
	var sum int64
	for _, n := range entries {
		sum += n
	}
	for k, n := range entries {
		sum -= n // the runs after k
		if len(entries)-k-1 < 2 {
			return -1
		}
		if sum <= n && sum <= budget {
			return k
		}
	}
	return -1
}

// mergeRunsOf merges runs into one, in tx, keeping only the occurrences of
// games still stored and valid.
func (s *Store) mergeRunsOf(ctx context.Context, tx Tx, runs []int64) error {
	deleted, err := metaInt(ctx, tx, deletedKey)
	if err != nil {
		return err
	}
	// The ids of the valid games, as a bitmap: a merge drops the
	// occurrences of deleted games (none while pos_deleted is 0).
	live, err := s.liveGames(ctx, tx, deleted)
	if err != nil {
		return err
	}
	gone, err := s.loadGone(ctx, tx)
	if err != nil {
		return err
	}
	m, err := newRunMerge(ctx, tx, runs, s.cfg.LegacyBlocks)
	if err != nil {
		return err
	}
	defer m.close()
	// The sources' blocks are deleted as the merge passes them (see
	// runMerge.release), so that the merged run's blocks take their pages.
	del, err := tx.PrepareContext(ctx, `DELETE FROM pos_blocks WHERE id IN (SELECT value FROM json_each(?))`)
	if err != nil {
		return err
	}
	defer del.Close()
	m.releasing(func(ids []int64) error {
		_, err := del.ExecContext(ctx, store.JSONIDs(ids))
		return err
	})
	rw, err := newRunWriter(ctx, tx)
	if err != nil {
		return err
	}
	defer rw.ins.Close()
	bound, err := runsEntries(ctx, tx, runs)
	if err != nil {
		return err
	}
	rw.enc.filter = filterFor(bound)
	if err := m.encode(dropping{live, gone}, rw.enc); err != nil {
		return err
	}
	if err := rw.enc.flush(); err != nil {
		return err
	}
	return swapMerged(ctx, tx, &posMerge{run: rw.run, srcs: runs, deleted: deleted, n: rw.enc.n, filter: rw.enc.filter, counts: rw.enc.count.counts(), gone: gone})
}

// runsEntries is the occurrences of runs together: a bound on those of
// their merge.
func runsEntries(ctx context.Context, q Querier, runs []int64) (int64, error) {
	var n int64
	err := q.QueryRowContext(ctx, `SELECT COALESCE(SUM(entries), 0) FROM pos_runs WHERE run IN (SELECT value FROM json_each(?))`, store.JSONIDs(runs)).Scan(&n)
	return n, err
}

// liveGames is the set of games whose occurrences a merge keeps: nil, every
// occurrence, when no valid game was deleted since every run was merged
// (pos_deleted, read in the same transaction or before the merge's reads,
// is 0: the runs hold only games stored and valid), else Config.Live's:
// reading the ids of every game and testing every occurrence against them
// was a large part of the merges that had nothing to drop.
func (s *Store) liveGames(ctx context.Context, q Querier, deleted int64) (IDSet, error) {
	if deleted == 0 {
		return nil, nil
	}
	return s.cfg.Live(ctx, q)
}

// MergeLevels merges runs while a level holds MaxRunsPerLevel of them,
// one merge a transaction, then, with a tailBudget (occurrences), the runs
// but the largest (mergeTail), unless another writer holds the merge lock.
func (s *Store) MergeLevels(ctx context.Context, tailBudget int64) error {
	lock, err := s.tryMergeLock()
	if err != nil || lock == nil {
		return err // nil: another writer merges
	}
	defer lock.Release()
	for {
		var merged bool
		err := s.inTx(ctx, func(tx Tx) error {
			var err error
			merged, err = s.mergeRuns(ctx, tx)
			return err
		})
		if err != nil {
			return fmt.Errorf("merge position runs: %w", err)
		}
		if !merged {
			break
		}
	}
	if tailBudget <= 0 {
		return nil
	}
	err = s.inTx(ctx, func(tx Tx) error {
		_, err := s.mergeTail(ctx, tx, tailBudget)
		return err
	})
	if err != nil {
		return fmt.Errorf("merge position runs: %w", err)
	}
	return nil
}

// runMerge reads whole runs merged in (key, at) order, each occurrence
// once. Its sources are the leaves of a tournament tree (a loser tree:
// each inner node holds the source that lost there), so that taking an
// occurrence compares along one path, log2 of the sources, where scanning
// every source's head compared them all.
type runMerge struct {
	all     []*mergeSrc // to close
	heads   []mergeHead // each source's current occurrence
	tree    []int32     // tree[0]: the winner; tree[1:]: the losers
	key, at int64
	started bool
	err     error
	// release, when set (releasing), is given the ids of the sources'
	// blocks that the merge has read to their end, releaseBatch at a time
	// (encode) and the last at the end of encode. A merge in one
	// transaction (mergeRuns) deletes them there: SQLite then reuses their
	// pages for the merged run's blocks in the same transaction, instead
	// of the file growing by the whole merged run and keeping the sources'
	// pages free after the commit. The sources' cursors read in (last, id)
	// order, ahead of the blocks deleted.
	release func(ids []int64) error
	spent   []int64
}

// mergeHead is a source's current occurrence; end: the source has none
// left, and its head is the last (key, at), which comes after every
// other.
type mergeHead struct {
	key, at int64
	end     bool
}

// endHead is the head of a source at its end.
var endHead = mergeHead{key: 1<<63 - 1, at: 1<<63 - 1, end: true}

// before reports whether source a's occurrence comes before source b's:
// keys differ in most comparisons, which then take one test.
func (m *runMerge) before(a, b int32) bool {
	x, y := &m.heads[a], &m.heads[b]
	return x.key < y.key || (x.key == y.key && (x.at < y.at || (x.at == y.at && !x.end && y.end)))
}

// build plays the tournament of the sources: source i is leaf k+i of a
// tree of inner nodes 1..k-1 (node n's children 2n and 2n+1).
func (m *runMerge) build() {
	k := len(m.all)
	m.tree = make([]int32, max(k, 1))
	win := make([]int32, 2*k)
	for i := range k {
		win[k+i] = int32(i)
	}
	for n := k - 1; n >= 1; n-- {
		a, b := win[2*n], win[2*n+1]
		if m.before(b, a) {
			a, b = b, a
		}
		win[n], m.tree[n] = a, b
	}
	if k > 1 {
		m.tree[0] = win[1]
	}
}

// replay plays again the path of the winner, whose occurrence changed.
func (m *runMerge) replay() {
	x := m.tree[0]
	for n := (int(x) + len(m.all)) / 2; n >= 1; n /= 2 {
		if y := m.tree[n]; m.before(y, x) {
			m.tree[n], x = x, y
		}
	}
	m.tree[0] = x
}

// releaseBatch is how many read blocks a merge deletes at a time (about
// 3 MiB of blocks; a variable for tests).
var releaseBatch = 1024

// mergeSrc is a run a merge reads: its blocks in order, each decoded
// whole (decodeBlock) when the merge reaches it.
type mergeSrc struct {
	cur     runCursor
	occs    []occ    // the current block's
	i       int      // the next of occs
	key, at int64    // the current occurrence
	spent   *[]int64 // nil, or where the ids of its read blocks go
}

func (s *mergeSrc) advance() (bool, error) {
	for s.i == len(s.occs) {
		if s.spent != nil && s.cur.id != 0 && !s.cur.done {
			*s.spent = append(*s.spent, s.cur.id) // read to its end
		}
		ok, err := s.cur.nextBlock(0)
		if err != nil || !ok {
			return false, err
		}
		s.occs, err = decodeBlock(s.occs[:0], &s.cur.dec)
		s.i = 0
		if err != nil {
			return false, fmt.Errorf("run %d: %w", s.cur.run, err)
		}
	}
	o := s.occs[s.i]
	s.i++
	s.key, s.at = o.key, o.at
	return true, nil
}

func newRunMerge(ctx context.Context, q Querier, runs []int64, legacy bool) (*runMerge, error) {
	m := &runMerge{}
	for _, run := range runs {
		rows, err := q.QueryContext(ctx, scanQuery, run)
		if err != nil {
			m.close()
			return nil, err
		}
		if err := m.add(&mergeSrc{cur: runCursor{ctx: ctx, rows: rows, run: run, dec: blockDecoder{legacy: legacy}}}); err != nil {
			m.close()
			return nil, err
		}
	}
	return m, nil
}

// add makes s one of the merge's sources, at its first occurrence.
func (m *runMerge) add(s *mergeSrc) error {
	m.all = append(m.all, s)
	ok, err := s.advance()
	h := mergeHead{key: s.key, at: s.at}
	if !ok {
		h = endHead
	}
	m.heads = append(m.heads, h)
	return err
}

// dropping is what a merge leaves out: the occurrences of the games not
// in live (none when live is nil: liveGames) and the gone ones (gone.go).
type dropping struct {
	live IDSet
	gone goneSet
}

// keeps reports whether the merge keeps an occurrence.
func (d dropping) keeps(key, at int64) bool {
	g, _, _ := UnpackAt(at)
	return d.live.Has(g) && !d.gone.has(key, at)
}

// encode writes the merged occurrences that d keeps to enc (not flushed).
func (m *runMerge) encode(d dropping, enc *blockEncoder) error {
	all := d.live == nil && len(d.gone) == 0 // keeps every occurrence
	for m.next() {
		if all || d.keeps(m.key, m.at) {
			if err := enc.add(m.key, m.at); err != nil {
				return err
			}
		}
		if len(m.spent) >= releaseBatch {
			if err := m.releaseSpent(); err != nil {
				return err
			}
		}
	}
	if m.err != nil {
		return m.err
	}
	return m.releaseSpent()
}

// releasing sets release and has the sources note their read blocks.
func (m *runMerge) releasing(release func(ids []int64) error) {
	m.release = release
	for _, s := range m.all {
		s.spent = &m.spent
	}
}

// releaseSpent gives the blocks read to their end to release, if set.
func (m *runMerge) releaseSpent() error {
	if m.release == nil || len(m.spent) == 0 {
		m.spent = m.spent[:0]
		return nil
	}
	err := m.release(m.spent)
	m.spent = m.spent[:0]
	return err
}

func (m *runMerge) close() {
	for _, s := range m.all {
		if s.cur.rows != nil {
			s.cur.rows.Close()
		}
	}
}

func (m *runMerge) next() bool {
	if m.tree == nil {
		if len(m.all) == 0 {
			return false
		}
		m.build()
	}
	for m.err == nil {
		w := m.tree[0]
		h := &m.heads[w]
		if h.end {
			return false
		}
		key, at := h.key, h.at
		if s := m.all[w]; s.i < len(s.occs) { // advance's common case
			o := s.occs[s.i]
			s.i++
			h.key, h.at = o.key, o.at
		} else {
			ok, err := s.advance()
			if err != nil {
				m.err = err
				return false
			}
			if *h = endHead; ok {
				*h = mergeHead{key: s.key, at: s.at}
			}
		}
		m.replay()
		if m.started && key == m.key && at == m.at {
			continue
		}
		m.started, m.key, m.at = true, key, at
		return true
	}
	return false
}

// Scan calls fn for every stored occurrence (stored key and at) of a game
// of Config.Live but the gone ones, in (key, at) order, in one snapshot. It reads every run:
// for tests and consistency checks.
func (s *Store) Scan(ctx context.Context, fn func(key, at int64) error) error {
	r, err := s.Snapshot(ctx)
	if err != nil {
		return err
	}
	defer r.Close()
	live, err := s.cfg.Live(ctx, r.q)
	if err != nil {
		return err
	}
	gone, err := s.loadGone(ctx, r.q)
	if err != nil {
		return err
	}
	d := dropping{live, gone}
	if err := r.loadRuns(ctx); err != nil {
		return err
	}
	m, err := newRunMerge(ctx, r.q, r.runs, s.cfg.LegacyBlocks)
	if err != nil {
		return err
	}
	defer m.close()
	for m.next() {
		if !d.keeps(m.key, m.at) {
			continue
		}
		if err := fn(m.key, m.at); err != nil {
			return err
		}
	}
	return m.err
}

// inTx runs fn in a transaction of its own, committed when fn succeeds.
func (s *Store) inTx(ctx context.Context, fn func(tx Tx) error) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	if err := fn(tx); err != nil {
		tx.Rollback()
		return err
	}
	return tx.Commit()
}

// tryMergeLock takes the merge lock if no other writer holds it: nil, nil
// when one does.
func (s *Store) tryMergeLock() (*dirlock.Lock, error) { return dirlock.Try(s.cfg.Dir, dirlock.Merge) }
