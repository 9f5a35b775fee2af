package posrun

import (
	"context"
	"database/sql"
	"fmt"
)

// Key counts: a run stores, beside its blocks, the number of occurrences
// of each key it holds at least hotMin times (pos_counts, written in the
// transaction that lists the run, by an import's commit or a merge, and
// deleted with it), so that the occurrences of a popular position (the
// start position is in every game) are counted without decoding them:
// Count adds the stored counts of the runs that have one for the key and
// decodes the key's few occurrences in the others.
//
// A sum of runs is the count only when no occurrence is in two runs and
// none of the key's is gone: Count decodes every run when pos_gone lists
// one of the key's occurrences, or when pos_deleted is not 0, which
// NoteRepeat raises when an edit stores again an occurrence a run may
// still hold (an edit undone) and a merge of every run resets. A run
// without counts (written before the table, or by an older program) is
// decoded: a missing row never makes a count wrong, only slower.

// CountsTable holds the runs' key counts, added without a new layout
// version (a writable open adds it; a database without it, or a run
// without counts, is read by decoding).
const CountsTable = `CREATE TABLE IF NOT EXISTS pos_counts(key INTEGER NOT NULL, run INTEGER NOT NULL, n INTEGER NOT NULL, PRIMARY KEY(key, run)) WITHOUT ROWID`

// hotMin is the fewest occurrences of a key in a run that get a stored
// count: below it, decoding them costs about one block read.
const hotMin = 256

// keyCount is a key's occurrences in a run.
type keyCount struct{ key, n int64 }

// keyCounter collects the counts of a run's hot keys as the run is
// encoded, occurrence by occurrence in key order.
type keyCounter struct {
	key, n int64
	hot    []keyCount
}

// add counts one occurrence of key (the same as the last one's or a
// greater one).
func (c *keyCounter) add(key int64) {
	if c.n > 0 && key == c.key {
		c.n++
		return
	}
	c.end()
	c.key, c.n = key, 1
}

// end closes the current key's count.
func (c *keyCounter) end() {
	if c.n >= hotMin {
		c.hot = append(c.hot, keyCount{c.key, c.n})
	}
	c.n = 0
}

// counts are the hot keys' counts once every occurrence is added.
func (c *keyCounter) counts() []keyCount {
	c.end()
	return c.hot
}

// storeCounts stores the key counts of a run just listed, in its
// transaction.
func storeCounts(ctx context.Context, tx Tx, run int64, counts []keyCount) error {
	if len(counts) == 0 {
		return nil
	}
	st, err := tx.PrepareContext(ctx, `INSERT OR REPLACE INTO pos_counts(key, run, n) VALUES(?, ?, ?)`)
	if err != nil {
		return fmt.Errorf("key counts: %w", err)
	}
	defer st.Close()
	for _, c := range counts {
		if _, err := st.ExecContext(ctx, c.key, run, c.n); err != nil {
			return fmt.Errorf("key counts: %w", err)
		}
	}
	return nil
}

// NoteRepeat tells, in an edit's transaction, that the edit stored again
// occurrences that a run may still hold: counts then decode the runs
// (pos_deleted, as for a deleted game's occurrences) until a merge of
// every run drops the repeats.
func NoteRepeat(ctx context.Context, e Execer) error { return NoteDeleted(ctx, e) }

// countsQuery reads the stored counts of up to two keys in the listed
// runs.
const countsQuery = `SELECT c.run, c.key, c.n FROM pos_counts c JOIN pos_runs r ON r.run = c.run WHERE c.key IN (?1, ?2)`

// Count is the number of occurrences Occurrences(done, keys...) gives
// (one or two keys), from the stored counts where they hold.
func (r *Snapshot) Count(done context.Context, keys ...int64) (int64, error) {
	if len(keys) == 1 {
		keys = append(keys, keys[0])
	}
	it := r.Occurrences(done, keys...)
	if it.err != nil {
		return 0, it.err
	}
	var n int64
	if len(it.gone) == 0 {
		stored, err := r.storedCounts(Quiet(done), keys)
		if err != nil {
			return 0, err
		}
		kept := it.streams[:0]
		for _, s := range it.streams {
			if c, ok := stored[[2]int64{s.cur.run, s.key}]; ok {
				n += c
				continue
			}
			kept = append(kept, s)
		}
		it.streams = kept
	}
	for it.Next() {
		n++
	}
	return n, it.Err()
}

// storedCounts are the stored counts of keys by (run, key), none when
// they cannot be summed (pos_deleted is not 0) or the database has no
// counts.
func (r *Snapshot) storedCounts(ctx context.Context, keys []int64) (map[[2]int64]int64, error) {
	deleted, err := Deleted(ctx, r.q)
	if err != nil || deleted != 0 {
		return nil, err
	}
	var exists int
	err = r.q.QueryRowContext(ctx, `SELECT COUNT(*) FROM sqlite_schema WHERE type = 'table' AND name = 'pos_counts'`).Scan(&exists)
	if err != nil || exists == 0 {
		return nil, err
	}
	st, err := r.Stmt(ctx, countsQuery)
	if err != nil {
		return nil, err
	}
	rows, err := st.QueryContext(ctx, keys[0], keys[1])
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[[2]int64]int64{}
	for rows.Next() {
		var run, key, n int64
		if err := rows.Scan(&run, &key, &n); err != nil {
			return nil, err
		}
		out[[2]int64{run, key}] = n
	}
	return out, rows.Err()
}

// CheckCounts reports what breaks the key counts' invariants: a count of
// no listed run, a count other than its run holds, a key that a run holds
// hotMin times or more without a count (in a run of the counts' time: the
// run with the lowest id and a count, and after). For tests and
// consistency checks; a database without pos_counts has none to check.
func (s *Store) CheckCounts(ctx context.Context) (problems []string, err error) {
	var exists int
	err = s.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM sqlite_schema WHERE type = 'table' AND name = 'pos_counts'`).Scan(&exists)
	if err != nil || exists == 0 {
		return nil, err
	}
	var stray int
	var first sql.NullInt64
	if err := s.db.QueryRowContext(ctx, `SELECT (SELECT COUNT(*) FROM pos_counts WHERE run NOT IN (SELECT run FROM pos_runs)), (SELECT MIN(run) FROM pos_counts)`).Scan(&stray, &first); err != nil {
		return nil, err
	}
	if stray != 0 {
		problems = append(problems, fmt.Sprintf("%d key counts of runs not listed", stray))
	}
	runs, _, err := s.listRuns(ctx)
	if err != nil {
		return nil, err
	}
	for _, run := range runs {
		p, err := s.checkRunCounts(ctx, run, first.Valid && run >= first.Int64)
		if err != nil {
			return nil, err
		}
		problems = append(problems, p...)
	}
	return problems, nil
}

// listRuns lists the listed runs and their entries.
func (s *Store) listRuns(ctx context.Context) (runs, entries []int64, err error) {
	rows, err := s.db.QueryContext(ctx, `SELECT run, entries FROM pos_runs ORDER BY run`)
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

// checkRunCounts compares the stored counts of a run with its blocks';
// counted says that every hot key of the run must have one.
func (s *Store) checkRunCounts(ctx context.Context, run int64, counted bool) ([]string, error) {
	stored := map[int64]int64{}
	rows, err := s.db.QueryContext(ctx, `SELECT key, n FROM pos_counts WHERE run = ?`, run)
	if err != nil {
		return nil, err
	}
	for rows.Next() {
		var key, n int64
		if err := rows.Scan(&key, &n); err != nil {
			rows.Close()
			return nil, err
		}
		stored[key] = n
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if !counted && len(stored) == 0 {
		return nil, nil
	}
	var c keyCounter
	blocks, err := s.db.QueryContext(ctx, scanQuery, run)
	if err != nil {
		return nil, err
	}
	defer blocks.Close()
	for blocks.Next() {
		var id, last int64
		var data []byte
		if err := blocks.Scan(&id, &last, &data); err != nil {
			return nil, err
		}
		dec := blockDecoder{legacy: s.cfg.LegacyBlocks}
		dec.reset(data)
		for dec.next() {
			c.add(dec.key)
		}
	}
	if err := blocks.Err(); err != nil {
		return nil, err
	}
	var problems []string
	for _, kc := range c.counts() {
		if n, ok := stored[kc.key]; ok && n != kc.n || !ok && counted {
			problems = append(problems, fmt.Sprintf("run %d: key %d occurs %d times, counted %d", run, kc.key, kc.n, n))
		}
		delete(stored, kc.key)
	}
	for key, n := range stored {
		problems = append(problems, fmt.Sprintf("run %d: key %d counted %d, occurs fewer than %d times", run, key, n, hotMin))
	}
	return problems, nil
}
