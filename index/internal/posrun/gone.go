package posrun

import (
	"context"
	"fmt"
)

// Gone occurrences. A game stored again under its id with other positions
// (an edit that changes its moves, its start position or its validity)
// leaves occurrences in the runs that are no longer true of it; rewriting
// the blocks that hold them would break what handles keep of a run (its
// fence and filter), so they are listed instead in pos_gone(key, at):
// lookups skip them, merges drop them, and a merge of every run, which
// leaves none behind, empties the list of what it read. An occurrence that
// becomes true again (an edit undone) leaves the list and is written again
// in the edit's run. Replace keeps this in the edit's transaction: the
// occurrences of a game are those of its stored record, whatever the runs
// hold.

// GoneTable lists the gone occurrences (layout 8; a read-only handle on an
// older layout has none).
const GoneTable = `CREATE TABLE IF NOT EXISTS pos_gone(key INTEGER NOT NULL, at INTEGER NOT NULL, PRIMARY KEY(key, at)) WITHOUT ROWID`

// Replace records, in e (the edit's transaction), that a game's
// occurrences are now cur instead of old (each a set: repeats are
// ignored): the occurrences of old not in cur are listed gone, those of
// cur not in old leave the list. It returns the latter, the occurrences
// that the edit must write in a run of its own (the others are in the
// runs already).
func Replace(ctx context.Context, e Execer, old, cur []Pos) (fresh []Pos, err error) {
	was := make(map[Pos]bool, len(old))
	for _, p := range old {
		was[p] = true
	}
	is := make(map[Pos]bool, len(cur))
	for _, p := range cur {
		if is[p] {
			continue
		}
		is[p] = true
		if !was[p] {
			fresh = append(fresh, p)
		}
	}
	for p := range was {
		if is[p] {
			continue
		}
		if _, err := e.ExecContext(ctx, `INSERT OR IGNORE INTO pos_gone(key, at) VALUES(?, ?)`, p.Key, p.At); err != nil {
			return nil, fmt.Errorf("gone occurrences: %w", err)
		}
	}
	repeats := false
	for _, p := range fresh {
		res, err := e.ExecContext(ctx, `DELETE FROM pos_gone WHERE key = ? AND at = ?`, p.Key, p.At)
		if err != nil {
			return nil, fmt.Errorf("gone occurrences: %w", err)
		}
		// An occurrence that was gone may still be in its run: written
		// again, it is there twice until a merge (counts.go).
		if n, err := res.RowsAffected(); err != nil || n > 0 {
			repeats = true
		}
	}
	if repeats {
		if err := NoteRepeat(ctx, e); err != nil {
			return nil, fmt.Errorf("gone occurrences: %w", err)
		}
	}
	return fresh, nil
}

// goneSet is the gone occurrences a merge read (nil: none).
type goneSet map[Pos]struct{}

func (g goneSet) has(key, at int64) bool {
	if g == nil {
		return false
	}
	_, ok := g[Pos{key, at}]
	return ok
}

// loadGone reads every gone occurrence through q (none when the handle's
// database has no list).
func (s *Store) loadGone(ctx context.Context, q Querier) (goneSet, error) {
	if ok, err := s.hasGone(ctx, q); err != nil || !ok {
		return nil, err
	}
	rows, err := q.QueryContext(ctx, `SELECT key, at FROM pos_gone`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var g goneSet
	for rows.Next() {
		var p Pos
		if err := rows.Scan(&p.Key, &p.At); err != nil {
			return nil, err
		}
		if g == nil {
			g = goneSet{}
		}
		g[p] = struct{}{}
	}
	return g, rows.Err()
}

// clearGone takes off the list, in tx, the gone occurrences that a merge
// of every run read: none is left in any run (an occurrence listed again
// since, after its edit was undone, was written in a run the merge did not
// read, which the caller has checked there is not).
func clearGone(ctx context.Context, tx Tx, g goneSet) error {
	if len(g) == 0 {
		return nil
	}
	del, err := tx.PrepareContext(ctx, `DELETE FROM pos_gone WHERE key = ? AND at = ?`)
	if err != nil {
		return err
	}
	defer del.Close()
	for p := range g {
		if _, err := del.ExecContext(ctx, p.Key, p.At); err != nil {
			return fmt.Errorf("gone occurrences: %w", err)
		}
	}
	return nil
}

// hasGone reports whether the database has the list of gone occurrences:
// a handle opened on an older layout looks again at each call until a
// writer has upgraded it.
func (s *Store) hasGone(ctx context.Context, q Querier) (bool, error) {
	if s.gone.Load() {
		return true, nil
	}
	var n int
	if err := q.QueryRowContext(ctx, `SELECT COUNT(*) FROM sqlite_schema WHERE type = 'table' AND name = 'pos_gone'`).Scan(&n); err != nil {
		return false, err
	}
	if n > 0 {
		s.gone.Store(true)
	}
	return n > 0, nil
}

// goneQuery reads the gone occurrences of a lookup's keys.
const goneQuery = `SELECT at FROM pos_gone WHERE key IN (?1, ?2)`

// goneAts reads, in the snapshot, the ats of the gone occurrences of keys
// (one or two): a lookup skips them.
func (r *Snapshot) goneAts(ctx context.Context, keys []int64) (map[int64]bool, error) {
	if ok, err := r.s.hasGone(ctx, r.q); err != nil || !ok {
		return nil, err
	}
	st, err := r.Stmt(ctx, goneQuery)
	if err != nil {
		return nil, err
	}
	rows, err := st.QueryContext(ctx, keys[0], keys[len(keys)-1])
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out map[int64]bool
	for rows.Next() {
		var at int64
		if err := rows.Scan(&at); err != nil {
			return nil, err
		}
		if out == nil {
			out = map[int64]bool{}
		}
		out[at] = true
	}
	return out, rows.Err()
}
