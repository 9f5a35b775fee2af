package writer

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"time"
	"unicode/utf8"

	"github.com/plateau/plateau/importers/jsonl"
	"github.com/plateau/plateau/importers/sgf"
	"github.com/plateau/plateau/index/internal/gamerows"
	"github.com/plateau/plateau/index/internal/revisions"
	"github.com/plateau/plateau/record"
	"github.com/plateau/plateau/replay"
)

// Adding games: records given as text (PDN, SGF or a JSON export, told by
// their content), not read from a file, stored as
// new games in one transaction. Decisions: every record is stored, valid
// or not, as an import stores it, but a record that does not read keeps
// its text as given (from its first token to the next record's) rather
// than the part read; a record already stored is not added again (its
// game is named); each game added has its revision 1 listed, with the
// time it was added; the games' source is the name the caller gives, and
// no game is superseded by a later add of the same source.

// Added is what AddRecords did with one record.
type Added struct {
	ID    int64 // the game stored, or the stored game it duplicates
	Dup   bool  // the record was stored already (as game ID)
	Valid bool
	Line  int               // the record's first line in the text
	Fault *gamerows.ErrInfo // the first error of an invalid record
}

// AddRecords stores the records of text as new games of source, in one
// transaction, and says what it did with each, in order.
func (d *DB) AddRecords(ctx context.Context, text []byte, source string, opts replay.Options) ([]Added, error) {
	ps, err := addRows(text, source, opts)
	if err != nil {
		return nil, err
	}
	w := d.newTxn()
	w.added = true
	if err := w.begin(ctx); err != nil {
		return nil, err
	}
	defer w.rollback()
	now := time.Now()
	out := make([]Added, 0, len(ps))
	for _, p := range ps {
		a, err := w.addOne(ctx, p, now)
		if err != nil {
			return nil, err
		}
		out = append(out, a)
	}
	if _, err := w.commit(ctx); err != nil {
		return nil, err
	}
	run(d.Tuning.AfterEditCommit)
	return out, d.SyncText(ctx)
}

// addRows reads and replays the records of text.
func addRows(text []byte, source string, opts replay.Options) ([]*prepared, error) {
	r, err := readerOf(text, source)
	if err != nil {
		return nil, err
	}
	pr := newPreparer(opts)
	var ps []*prepared
	var starts []int64
	var unread []bool
	for {
		rec, err := r.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		var re *record.Error
		if err != nil && !errors.As(err, &re) {
			return nil, err
		}
		p := pr.prepare(Record{Game: rec, Err: err, File: source})
		ps, starts, unread = append(ps, p), append(starts, p.Offset), append(unread, err != nil)
	}
	if len(ps) == 0 {
		return nil, fmt.Errorf("%s: %w: the text holds no record", source, ErrNotOneRecord)
	}
	keepUnread(ps, starts, unread, text)
	return ps, nil
}

// readerOf reads the records of text by what it holds: a JSON export
// (plateau export --format json), SGF, else PDN.
func readerOf(text []byte, source string) (interface {
	Next() (*record.Game, error)
}, error) {
	switch {
	case jsonl.Looks(text):
		return jsonl.NewReader(bytes.NewReader(text), source), nil
	case sgf.Looks(text):
		return sgf.NewReader(bytes.NewReader(text), source)
	}
	return record.NewReader(bytes.NewReader(text), source), nil
}

// keepUnread gives the records that did not read their text as given:
// from their start to the next record's (UTF-8 text only: the offsets of
// another encoding are those of its decoded text).
func keepUnread(ps []*prepared, starts []int64, unread []bool, text []byte) {
	if !utf8.Valid(text) {
		return
	}
	for i, p := range ps {
		if !unread[i] {
			continue // its canonical text holds it all
		}
		end := int64(len(text))
		if i+1 < len(ps) {
			end = starts[i+1]
		}
		if starts[i] < 0 || starts[i] > end || end > int64(len(text)) {
			continue
		}
		p.Text = append(bytes.TrimRight(bytes.Clone(text[starts[i]:end]), " \t\r\n"), '\n')
		h := sha256.Sum256(p.Text)
		copy(p.Hash[:], h[:])
	}
}

// addOne stores one added game and lists its revision 1.
func (w *txn) addOne(ctx context.Context, p *prepared, now time.Time) (Added, error) {
	a := Added{Valid: p.Valid, Line: p.Line, Fault: p.Err}
	id, dup, err := w.add(ctx, p)
	if err != nil {
		return a, err
	}
	if dup {
		a.Dup = true
		err := w.tx.QueryRowContext(ctx, `SELECT id FROM games WHERE hash = ?`, p.Hash[:]).Scan(&a.ID)
		return a, err
	}
	a.ID = id
	r := revisions.Row{Game: id, Rev: 1, Time: now, Note: "added", Valid: p.Valid, Hash: p.Hash[:]}
	err = w.tx.QueryRowContext(ctx, `SELECT tblock, toff, tlen FROM games WHERE id = ?`, id).Scan(&r.Block, &r.Off, &r.Len)
	if err != nil {
		return a, err
	}
	if err := revisions.Insert(ctx, txStmts{w}, r); err != nil {
		return a, err
	}
	_, err = w.tx.ExecContext(ctx, `INSERT OR IGNORE INTO text_todo(id) VALUES(?)`, id)
	return a, err
}
