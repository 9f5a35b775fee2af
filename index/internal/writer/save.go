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

	"github.com/plateau/plateau/index/internal/gamerows"
	"github.com/plateau/plateau/index/internal/gametext"
	"github.com/plateau/plateau/index/internal/posrun"
	"github.com/plateau/plateau/index/internal/revisions"
	"github.com/plateau/plateau/index/internal/stats"
	"github.com/plateau/plateau/record"
	"github.com/plateau/plateau/replay"
)

// Saving a game: a new record text replaces a stored game's under its id,
// as a new revision (internal/revisions), in one transaction: its row,
// tags, names, opening-tree counts and warnings are those of the new
// record, its text document follows after the commit (text_todo), and
// its position occurrences are those of the new record from the commit on
// (posrun.Replace: only the occurrences it adds are written, the ones it
// loses are listed gone), and so are the stored counts of games
// (stats.Replaced). Decisions:
//
//   - The save names the revision it was made from (base); another
//     revision stored since makes it a ConflictError that changes nothing.
//   - A text that reads as the stored record (the same canonical text)
//     saves nothing: the result says so and the revision stays.
//   - The text must hold one record (ErrNotOneRecord). A record that does
//     not read (a syntax error) is stored invalid with its error, as an
//     import stores it, but its text is kept as given, not cut at the
//     error, so that nothing typed is lost; a readable invalid record is
//     kept in its canonical form, its moves from the error on as written.
//   - The game keeps its provenance (file, offset, line): the error line
//     stored is the line in the saved text plus the record's first line,
//     as an import would store it at that place; the result gives the line
//     in the saved text.

// ErrConflict: the revision a save was made from is no longer the game's
// current one (a ConflictError).
var ErrConflict = errors.New("the game was saved meanwhile")

// ErrNotOneRecord: a text saved as a game's record holds no record, or
// more than one.
var ErrNotOneRecord = errors.New("not one record")

// ConflictError is a save made from revision Base of game ID, which is at
// revision Current.
type ConflictError struct {
	ID            int64
	Base, Current int
}

func (e *ConflictError) Error() string {
	return fmt.Sprintf("game #%d: %v: it is at revision %d, the text saved was made from revision %d", e.ID, ErrConflict, e.Current, e.Base)
}

// Unwrap returns ErrConflict.
func (e *ConflictError) Unwrap() error { return ErrConflict }

// SaveResult is what a save did.
type SaveResult struct {
	ID       int64
	Revision int  // the game's revision after the save
	Changed  bool // false: the text reads as the stored record; nothing saved
	Valid    bool
	// Fault is the first error of an invalid record, its line and column
	// in the text saved (nil when valid).
	Fault *gamerows.ErrInfo
	Note  string // what changed (revisions.Note)
}

// anyRevision, as a save's base, saves over whatever revision is current
// (SetTags: its change is made inside the transaction).
const anyRevision = 0

// draft is a new record text of a game, read.
type draft struct {
	rec  *record.Game // nil: no record could be read
	err  error        // the reader's error, if any
	text []byte       // as given: kept when it does not read
}

// readDraft reads the one record of text (name: its name in errors).
func readDraft(text []byte, name string) (draft, error) {
	r := record.NewReader(bytes.NewReader(text), name)
	rec, err := r.Next()
	if errors.Is(err, io.EOF) {
		return draft{}, fmt.Errorf("%s: %w: the text holds no record", name, ErrNotOneRecord)
	}
	d := draft{rec: rec, err: err, text: text}
	if err != nil {
		// What follows a syntax error is kept as part of this record.
		return d, nil
	}
	if _, err := r.Next(); !errors.Is(err, io.EOF) {
		return draft{}, fmt.Errorf("%s: %w: the text holds more than one record", name, ErrNotOneRecord)
	}
	return d, nil
}

// rows replays the draft as a record of old's ruleset and file, and
// returns its rows: a record that does not read keeps the text as given.
func (d *DB) draftRows(dr draft, old *oldGame) *prepared {
	p := newPreparer(replay.Options{DefaultGame: old.game}).
		prepare(Record{Game: dr.rec, Err: dr.err, File: old.file, Size: int64(len(dr.text))})
	if dr.err != nil && utf8.Valid(dr.text) {
		p.Text = append(bytes.TrimRight(bytes.Clone(dr.text), " \t\r\n"), '\n')
		h := sha256.Sum256(p.Text)
		copy(p.Hash[:], h[:])
	}
	return p
}

// SaveRecord stores text as the record of game id, a new revision, if base
// is its current revision (else a ConflictError).
func (d *DB) SaveRecord(ctx context.Context, id int64, text []byte, base int) (SaveResult, error) {
	dr, err := readDraft(text, fmt.Sprintf("#%d", id))
	if err != nil {
		return SaveResult{}, err
	}
	return d.save(ctx, id, base, func(*oldGame) (draft, error) { return dr, nil })
}

// CheckRecord is what SaveRecord would store, without storing it: the
// revision is the game's current one.
func (d *DB) CheckRecord(ctx context.Context, id int64, text []byte) (SaveResult, error) {
	dr, err := readDraft(text, fmt.Sprintf("#%d", id))
	if err != nil {
		return SaveResult{}, err
	}
	var c gametext.Cache
	old, err := readGame(ctx, d.SQL, &c, id, d.ErrNotFound)
	if err != nil {
		return SaveResult{}, err
	}
	cur, err := revisions.Current(ctx, d.SQL, id)
	if err != nil {
		return SaveResult{}, err
	}
	p := d.draftRows(dr, old)
	return resultOf(id, cur, p, !bytes.Equal(p.Hash[:], old.hash)), nil
}

// resultOf is the result of a save of p at revision rev.
func resultOf(id int64, rev int, p *prepared, changed bool) SaveResult {
	return SaveResult{ID: id, Revision: rev, Changed: changed, Valid: p.Valid, Fault: p.Err}
}

// save stores, in one transaction, the record that edit makes of game
// id's stored one as its next revision, if base is its current revision
// (or anyRevision). The record's rows replace the game's
// (replaceGame); the revisions are listed (listRevisions).
func (d *DB) save(ctx context.Context, id int64, base int, edit func(*oldGame) (draft, error)) (SaveResult, error) {
	w := d.newTxn()
	if err := w.begin(ctx); err != nil {
		return SaveResult{}, err
	}
	defer w.rollback()
	old, err := w.readGame(ctx, id)
	if err != nil {
		return SaveResult{}, err
	}
	cur, err := revisions.Current(ctx, w.tx, id)
	if err != nil {
		return SaveResult{}, err
	}
	if base != anyRevision && base != cur {
		return SaveResult{}, &ConflictError{ID: id, Base: base, Current: cur}
	}
	dr, err := edit(old)
	if err != nil {
		return SaveResult{}, err
	}
	p := d.draftRows(dr, old)
	if bytes.Equal(p.Hash[:], old.hash) {
		return resultOf(id, cur, p, false), nil
	}
	res := resultOf(id, cur+1, p, true)
	if p.Err != nil {
		fault := *p.Err
		res.Fault = &fault // the line in the text saved; the stored one is shifted
	}
	res.Note = noteOf(old, dr.rec)
	if err := w.replaceGame(ctx, old, p); err != nil {
		return SaveResult{}, err
	}
	if err := w.listRevisions(ctx, old, cur, res.Note); err != nil {
		return SaveResult{}, err
	}
	err = stats.Replaced(ctx, w.tx, EditsKey, id, stats.Game{Game: old.game, Valid: old.valid, Plies: old.plies},
		stats.Game{Game: p.Game, Valid: p.Valid, Plies: p.Plies})
	if err != nil {
		return SaveResult{}, err
	}
	if _, err := w.commit(ctx); err != nil {
		return SaveResult{}, err
	}
	run(d.Tuning.AfterEditCommit)
	return res, d.SyncText(ctx)
}

// noteOf is the note of a save of rec over old.
func noteOf(old *oldGame, rec *record.Game) string {
	var was *record.Game
	if len(old.text) > 0 {
		was, _ = record.NewReader(bytes.NewReader(old.text), "db").Next()
	}
	return revisions.Note(was, rec)
}

// replaceGame stores p, a game's new record, in place of the stored game
// old, under its id and with its provenance: the old rows but its position
// occurrences are taken out (unstore), p's stored (add), and the game's
// occurrences become p's (posrun.Replace: only the new ones are written).
func (w *txn) replaceGame(ctx context.Context, old *oldGame, p *prepared) error {
	was, err := w.storedRows(old)
	if err != nil {
		return err
	}
	if err := w.unstore(ctx, old, was); err != nil {
		return err
	}
	p.ID = old.id
	p.Offset, p.Line, p.Size = old.offset.Int64, int(old.line.Int64), old.size.Int64
	if p.Err != nil && p.Line > 0 && p.Err.Line > 0 {
		e := *p.Err
		e.Line += p.Line - 1
		p.Err = &e
	}
	start := len(w.positions)
	_, dup, err := w.add(ctx, p)
	if err != nil {
		return err
	}
	if dup {
		var other int64
		w.tx.QueryRowContext(ctx, `SELECT id FROM games WHERE hash = ?`, p.Hash[:]).Scan(&other)
		return fmt.Errorf("%w: game #%d would be the same as game #%d", ErrDuplicate, old.id, other)
	}
	var oldPos []posrun.Pos
	if was != nil {
		oldPos = w.occurrences(old.id, was)
	}
	fresh, err := posrun.Replace(ctx, txStmts{w}, oldPos, w.positions[start:])
	if err != nil {
		return fmt.Errorf("game #%d: %w", old.id, err)
	}
	w.positions = append(w.positions[:start], fresh...)
	_, err = w.tx.ExecContext(ctx, `INSERT OR IGNORE INTO text_todo(id) VALUES(?)`, old.id)
	return err
}

// occurrences are the position occurrences of game id's rows p, as
// holdRows stores them.
func (w *txn) occurrences(id int64, p *prepared) []posrun.Pos {
	return appendOcc(nil, aheadOf(w.d.Pos, p).occ, id)
}

// listRevisions lists, after replaceGame, the game's revision cur (old's,
// when it is its first save: a game never edited has no row) and the new
// one, cur+1, whose text the games row now names.
func (w *txn) listRevisions(ctx context.Context, old *oldGame, cur int, note string) error {
	id := old.id
	rows, err := revisions.List(ctx, w.tx, id)
	if err != nil {
		return err
	}
	if len(rows) == 0 {
		if err := revisions.Insert(ctx, txStmts{w}, importedRevision(old)); err != nil {
			return err
		}
	}
	r := revisions.Row{Game: id, Rev: cur + 1, Time: time.Now(), Note: note}
	err = w.tx.QueryRowContext(ctx, `SELECT valid, hash, tblock, toff, tlen FROM games WHERE id = ?`, id).
		Scan(&r.Valid, &r.Hash, &r.Block, &r.Off, &r.Len)
	if err != nil {
		return fmt.Errorf("game #%d: %w", id, err)
	}
	return revisions.Insert(ctx, txStmts{w}, r)
}

// importedRevision is the row of a game's revision 1 that was never
// listed: its record as imported, the text still in its block.
func importedRevision(old *oldGame) revisions.Row {
	r := revisions.Row{Game: old.id, Rev: 1, Valid: old.valid, Hash: old.hash, Note: "imported",
		Block: old.block, Off: old.off, Len: old.n}
	if old.file != "" {
		r.Note = "imported from " + old.file
		if old.line.Valid && old.line.Int64 > 0 {
			r.Note += fmt.Sprintf(":%d", old.line.Int64)
		}
	}
	return r
}
