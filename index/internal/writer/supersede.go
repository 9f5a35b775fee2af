package writer

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// Re-importing a file replaces the records it supersedes. Decision: a game
// stored from the same file (same path as given to import) is superseded
// when the new read of the file has, at the same byte offset or the same
// line, a record that differs from it, and the game itself is not found
// again anywhere in the file (so a game that merely moved is kept: games
// inserted before it shift it). With ImportOptions.Replace (import
// --replace) every game stored from the file and not found again in it is
// removed: the file is the truth. The removals happen when the file has
// been read to its end, in the transaction that marks it done; an import
// stopped before leaves the old games, and running it again finishes. A
// game found again at another place in its file is given its new offset
// and line.

type oldSource struct {
	all      []*oldEntry
	byHash   map[[16]byte]*oldEntry
	byOffset map[int64]*oldEntry
	byLine   map[int64]*oldEntry
}

type oldEntry struct {
	id           int64
	offset, line int64
	seen         bool // found again in the file
	superseded   bool // another record stands where it stood
}

// loadOld reads the games stored from file before this import; nil when
// the file was never imported.
func (w *txn) loadOld(ctx context.Context, file string) (*oldSource, error) {
	var src int64
	err := w.tx.QueryRowContext(ctx, `SELECT id FROM sources WHERE path = ?`, file).Scan(&src)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	// Made the first time a file is imported again (a new index, not a new
	// layout: older programs ignore it).
	if _, err := w.tx.ExecContext(ctx, `CREATE INDEX IF NOT EXISTS games_source ON games(source)`); err != nil {
		return nil, fmt.Errorf("index games by source: %w", err)
	}
	rows, err := w.tx.QueryContext(ctx, `SELECT id, hash, offset, line FROM games WHERE source = ?`, src)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	o := &oldSource{byHash: map[[16]byte]*oldEntry{}, byOffset: map[int64]*oldEntry{}, byLine: map[int64]*oldEntry{}}
	for rows.Next() {
		var id int64
		var h []byte
		var off, line sql.NullInt64
		if err := rows.Scan(&id, &h, &off, &line); err != nil {
			return nil, err
		}
		e := &oldEntry{id: id, offset: off.Int64, line: line.Int64}
		o.all = append(o.all, e)
		var k [16]byte
		copy(k[:], h)
		o.byHash[k] = e
		if off.Valid {
			o.byOffset[off.Int64] = e
		}
		if line.Valid && line.Int64 > 0 {
			o.byLine[line.Int64] = e
		}
	}
	return o, rows.Err()
}

// supersede notes what the record p says of the games stored from its file
// before this import.
func (w *txn) supersede(ctx context.Context, p *prepared) error {
	if p.ID != 0 || p.File == "" || p.File == "<stdin>" {
		return nil
	}
	if w.old == nil {
		w.old = map[string]*oldSource{}
	}
	o, ok := w.old[p.File]
	if !ok {
		var err error
		if o, err = w.loadOld(ctx, p.File); err != nil {
			return err
		}
		w.old[p.File] = o
	}
	if o == nil {
		return nil
	}
	if e := o.byHash[p.Hash]; e != nil {
		e.seen = true
		if e.offset != p.Offset || e.line != int64(p.Line) {
			// It moved in the file: its provenance follows (errors lists
			// the line where it is now).
			if _, err := w.tx.ExecContext(ctx, `UPDATE games SET err_line = err_line + (?2 - line), offset = ?1, line = ?2 WHERE id = ?3`, p.Offset, p.Line, e.id); err != nil {
				return err
			}
		}
		return nil
	}
	if e := o.byOffset[p.Offset]; e != nil {
		e.superseded = true
	}
	if e := o.byLine[int64(p.Line)]; e != nil && p.Line > 0 {
		e.superseded = true
	}
	return nil
}

// finishSource removes the games of file that its new read superseded
// (or, replacing, did not find again).
func (w *txn) finishSource(ctx context.Context, file string) error {
	o := w.old[file]
	if o == nil {
		return nil
	}
	delete(w.old, file)
	for _, e := range o.all {
		if e.seen || !(e.superseded || w.replace) {
			continue
		}
		g, err := w.readGame(ctx, e.id)
		if errors.Is(err, w.d.ErrNotFound) {
			continue
		}
		if err == nil {
			err = w.removeGame(ctx, g)
		}
		if err != nil {
			return fmt.Errorf("%s: replacing game #%d: %w", file, e.id, err)
		}
		w.replaced++
	}
	return nil
}
