package posrun

import (
	"context"
	"database/sql"
	"encoding/binary"
	"fmt"
)

// Repack rewrites, in tx, every block of pos_blocks from the legacy form
// (layout 14 and before) into the current one: each run's occurrences, in
// order, cut again into blocks of about blockBytes (the same keys and
// ats, fewer bytes, hence fewer blocks). The blocks go into a new table
// that replaces pos_blocks, so that the old table's pages are freed
// whole, for the caller to give back. Runs, filters and counts are
// unchanged: they hold keys and numbers, not blocks. It returns the
// occurrences rewritten.
func Repack(ctx context.Context, tx Tx) (int64, error) {
	return repack(ctx, tx, false)
}

// RepackLegacy is Repack's inverse: it rewrites every block in the legacy
// form, as layout 14 kept them (the tests of the upgrades from older
// layouts make such databases with it).
func RepackLegacy(ctx context.Context, tx Tx) (int64, error) {
	return repack(ctx, tx, true)
}

func repack(ctx context.Context, tx Tx, toLegacy bool) (int64, error) {
	for _, q := range []string{
		`DROP TABLE IF EXISTS pos_blocks_repack`,
		`CREATE TABLE pos_blocks_repack(id INTEGER PRIMARY KEY, run INTEGER NOT NULL, last INTEGER NOT NULL, data BLOB NOT NULL)`,
	} {
		if _, err := tx.ExecContext(ctx, q); err != nil {
			return 0, err
		}
	}
	runs, err := blockRuns(ctx, tx)
	if err != nil {
		return 0, err
	}
	ins, err := tx.PrepareContext(ctx, `INSERT INTO pos_blocks_repack(run, last, data) VALUES(?, ?, ?)`)
	if err != nil {
		return 0, err
	}
	defer ins.Close()
	var total int64
	for _, run := range runs {
		n, err := repackRun(ctx, tx, ins, run, toLegacy)
		if err != nil {
			return 0, fmt.Errorf("run %d: %w", run, err)
		}
		total += n
	}
	for _, q := range []string{
		`DROP TABLE pos_blocks`,
		`ALTER TABLE pos_blocks_repack RENAME TO pos_blocks`,
		`CREATE INDEX IF NOT EXISTS pos_blocks_run ON pos_blocks(run, last)`,
	} {
		if _, err := tx.ExecContext(ctx, q); err != nil {
			return 0, err
		}
	}
	return total, nil
}

// blockRuns lists the runs that have blocks, listed or not (a merge cut
// short leaves blocks of an unlisted run, which the next merge deletes).
func blockRuns(ctx context.Context, q Querier) ([]int64, error) {
	rows, err := q.QueryContext(ctx, `SELECT DISTINCT run FROM pos_blocks ORDER BY run`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var runs []int64
	for rows.Next() {
		var run int64
		if err := rows.Scan(&run); err != nil {
			return nil, err
		}
		runs = append(runs, run)
	}
	return runs, rows.Err()
}

// occEncoder is a block encoder: add, then flush.
type occEncoder interface {
	add(key, at int64) error
	flush() error
}

// repackRun reads a run's blocks in order and writes its occurrences
// through ins in the other form: current blocks from legacy ones, or
// legacy ones (toLegacy) from current ones.
func repackRun(ctx context.Context, q Querier, ins *sql.Stmt, run int64, toLegacy bool) (int64, error) {
	rows, err := q.QueryContext(ctx, scanQuery, run)
	if err != nil {
		return 0, err
	}
	defer rows.Close()
	emit := func(last int64, data []byte) error {
		_, err := ins.ExecContext(ctx, run, last, data)
		return err
	}
	var enc occEncoder
	var n *int64
	if toLegacy {
		e := &legacyEncoder{emit: emit}
		enc, n = e, &e.n
	} else {
		e := newBlockEncoder(emit)
		enc, n = e, &e.n
	}
	dec := blockDecoder{legacy: !toLegacy}
	for rows.Next() {
		var id, last int64
		var data sql.RawBytes
		if err := rows.Scan(&id, &last, &data); err != nil {
			return 0, err
		}
		dec.reset(data)
		for dec.next() {
			if err := enc.add(dec.key, dec.at); err != nil {
				return 0, err
			}
		}
		if dec.err != nil {
			return 0, fmt.Errorf("block %d: %w", id, dec.err)
		}
	}
	if err := rows.Err(); err != nil {
		return 0, err
	}
	return *n, enc.flush()
}

// legacyEncoder writes legacy blocks (block.go), cut once they pass
// blockBytes.
type legacyEncoder struct {
	buf     []byte
	key, at int64
	n       int64
	emit    func(last int64, data []byte) error
}

func (e *legacyEncoder) add(key, at int64) error {
	switch {
	case len(e.buf) == 0:
		e.buf = binary.AppendVarint(e.buf, key)
		e.buf = binary.AppendUvarint(e.buf, uint64(at))
	case key == e.key:
		if at == e.at {
			return nil
		}
		e.buf = append(e.buf, 0)
		e.buf = binary.AppendUvarint(e.buf, uint64(at-e.at))
	default:
		e.buf = binary.AppendUvarint(e.buf, uint64(key-e.key))
		e.buf = binary.AppendUvarint(e.buf, uint64(at))
	}
	e.key, e.at = key, at
	e.n++
	if len(e.buf) >= blockBytes {
		return e.flush()
	}
	return nil
}

func (e *legacyEncoder) flush() error {
	if len(e.buf) == 0 {
		return nil
	}
	err := e.emit(e.key, e.buf)
	e.buf = e.buf[:0]
	return err
}
