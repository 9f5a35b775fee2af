package writer

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/plateau/plateau/index/internal/revisions"
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
// and line. A game saved in the database since its import (it has
// revisions, internal/revisions) is never superseded nor removed by a
// re-import, --replace included: the database's edits win over the file;
// the file's record at its place is not stored again when it is one of the
// game's revisions (its import, most often), and is stored as a game of
// its own otherwise.

type oldSource struct {
	all      []*oldEntry
	byHash   map[[16]byte]*oldEntry
	byOffset map[int64]*oldEntry
	byLine   map[int64]*oldEntry
}

type oldEntry struct {
	id           int64
	offset, line int64
	edited       bool // saved in the database since (it has revisions)
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
	rows, err := w.tx.QueryContext(ctx, `SELECT id, hash, offset, line, EXISTS(SELECT 1 FROM revisions r WHERE r.game = games.id)
		FROM games WHERE source = ?`, src)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	o := &oldSource{byHash: map[[16]byte]*oldEntry{}, byOffset: map[int64]*oldEntry{}, byLine: map[int64]*oldEntry{}}
	for rows.Next() {
		var id int64
		var h []byte
		var off, line sql.NullInt64
		var edited bool
		if err := rows.Scan(&id, &h, &off, &line, &edited); err != nil {
			return nil, err
		}
		e := &oldEntry{id: id, offset: off.Int64, line: line.Int64, edited: edited}
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
// before this import; skip reports a record not to store: an earlier
// revision of a game edited since, where the game came from.
func (w *txn) supersede(ctx context.Context, p *prepared) (skip bool, err error) {
	if p.ID != 0 || p.File == "" || p.File == "<stdin>" || w.added {
		return false, nil
	}
	if w.old == nil {
		w.old = map[string]*oldSource{}
	}
	o, ok := w.old[p.File]
	if !ok {
		var err error
		if o, err = w.loadOld(ctx, p.File); err != nil {
			return false, err
		}
		w.old[p.File] = o
	}
	if o == nil {
		return false, nil
	}
	if e := o.byHash[p.Hash]; e != nil {
		e.seen = true
		if e.offset != p.Offset || e.line != int64(p.Line) {
			// It moved in the file: its provenance follows (errors lists
			// the line where it is now).
			if _, err := w.tx.ExecContext(ctx, `UPDATE games SET err_line = err_line + (?2 - line), offset = ?1, line = ?2 WHERE id = ?3`, p.Offset, p.Line, e.id); err != nil {
				return false, err
			}
		}
		return false, nil
	}
	at := []*oldEntry{o.byOffset[p.Offset]}
	if p.Line > 0 {
		at = append(at, o.byLine[int64(p.Line)])
	}
	for _, e := range at {
		if e == nil {
			continue
		}
		e.superseded = true
		if !e.edited {
			continue
		}
		was, err := revisions.HasHash(ctx, w.tx, e.id, p.Hash[:])
		if err != nil {
			return false, err
		}
		if was {
			e.seen = true
			return true, nil
		}
	}
	return false, nil
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
		if e.seen || e.edited || !(e.superseded || w.replace) {
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
