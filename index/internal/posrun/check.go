package posrun

import (
	"context"
	"fmt"
)

// CheckRuns reports what breaks the runs' invariants between two writes:
// a level of MaxRunsPerLevel runs or more, a block of no listed run, a
// merge named in flight; and CheckFilters'. It returns the number of runs
// and the problems found (none: nil), for tests and consistency checks.
func (s *Store) CheckRuns(ctx context.Context) (runs int, problems []string, err error) {
	var full, orphans, merging int
	for _, q := range []struct {
		n     *int
		query string
		args  []any
	}{
		{&runs, `SELECT COUNT(*) FROM pos_runs`, nil},
		{&full, `SELECT COUNT(*) FROM (SELECT level FROM pos_runs GROUP BY level HAVING COUNT(*) >= ?)`, []any{MaxRunsPerLevel}},
		{&orphans, `SELECT COUNT(*) FROM pos_blocks WHERE run NOT IN (SELECT run FROM pos_runs)`, nil},
		{&merging, `SELECT COUNT(*) FROM meta WHERE k = ?`, []any{MergingKey}},
	} {
		if err := s.db.QueryRowContext(ctx, q.query, q.args...).Scan(q.n); err != nil {
			return 0, nil, err
		}
	}
	if full != 0 || orphans != 0 || merging != 0 {
		problems = append(problems, fmt.Sprintf("%d runs, %d levels of %d runs or more, %d blocks of unlisted runs, pos_merging %d",
			runs, full, MaxRunsPerLevel, orphans, merging))
	}
	more, err := s.CheckFilters(ctx)
	if err != nil {
		return runs, append(problems, more...), err
	}
	counts, err := s.CheckCounts(ctx)
	return runs, append(append(problems, more...), counts...), err
}

// CheckFilters reports what breaks the filters' invariants: a filter of
// no listed run, a run of at most maxFilterEntries occurrences without a
// filter, a stored filter that is not one or that misses a key of its
// run, a run whose blocks hold another number of occurrences than listed.
func (s *Store) CheckFilters(ctx context.Context) (problems []string, err error) {
	var stray int
	if err := s.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM pos_filters WHERE run NOT IN (SELECT run FROM pos_runs)`).Scan(&stray); err != nil {
		return nil, err
	}
	if stray != 0 {
		problems = append(problems, fmt.Sprintf("%d filters of runs not listed", stray))
	}
	rows, err := s.db.QueryContext(ctx, `SELECT r.run, r.entries, f.data FROM pos_runs r LEFT JOIN pos_filters f ON f.run = r.run`)
	if err != nil {
		return nil, err
	}
	type stored struct {
		run, entries int64
		f            *runFilter
	}
	var runs []stored
	for rows.Next() {
		var r stored
		var data []byte
		if err := rows.Scan(&r.run, &r.entries, &data); err != nil {
			rows.Close()
			return nil, err
		}
		if data != nil {
			if r.f = decodeRunFilter(data); r.f == nil {
				problems = append(problems, fmt.Sprintf("run %d: a stored filter of %d bytes is not one", r.run, len(data)))
			}
		}
		runs = append(runs, r)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	for _, r := range runs {
		if r.f == nil {
			if r.entries <= maxFilterEntries {
				problems = append(problems, fmt.Sprintf("run %d of %d occurrences has no filter", r.run, r.entries))
			}
			continue
		}
		p, err := s.checkFilter(ctx, r.run, r.entries, r.f)
		if err != nil {
			return nil, err
		}
		problems = append(problems, p...)
	}
	return problems, nil
}

// checkFilter reads the blocks of a run and reports a key its filter f
// misses and a count of occurrences other than entries.
func (s *Store) checkFilter(ctx context.Context, run, entries int64, f *runFilter) ([]string, error) {
	rows, err := s.db.QueryContext(ctx, scanQuery, run)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var n int64
	for rows.Next() {
		var id, last int64
		var data []byte
		if err := rows.Scan(&id, &last, &data); err != nil {
			return nil, err
		}
		dec := blockDecoder{legacy: s.cfg.LegacyBlocks}
		dec.reset(data)
		for dec.next() {
			n++
			if !f.has(dec.key) {
				return []string{fmt.Sprintf("run %d: key %d not in its filter", run, dec.key)}, nil
			}
		}
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if n != entries {
		return []string{fmt.Sprintf("run %d: %d occurrences read, %d listed", run, n, entries)}, nil
	}
	return nil, nil
}
