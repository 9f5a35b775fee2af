package index

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/plateau/plateau/index/internal/gamerows"
	"github.com/plateau/plateau/index/internal/gametext"
	"github.com/plateau/plateau/index/internal/posrun"
	"github.com/plateau/plateau/index/internal/revisions"
	"github.com/plateau/plateau/index/internal/writer"
	"github.com/plateau/plateau/replay"
)

// Writing games: a stored game's record is replaced by a new revision
// (SaveRecord, and SetTags), records given as text are added as new games
// (AddRecords), and every revision a game has had is kept (History,
// Revision). internal/writer stores, internal/revisions lists; their
// package docs hold the decisions.

// ErrConflict: a save was made from a revision of the game that is no
// longer its current one (a *ConflictError).
var ErrConflict = writer.ErrConflict

// ErrNotOneRecord: a text saved as a game's record holds no record or
// more than one; a text added holds no record.
var ErrNotOneRecord = writer.ErrNotOneRecord

// ConflictError is a save made from revision Base of game ID, which is at
// revision Current: nothing was saved.
type ConflictError = writer.ConflictError

// SaveResult is what SaveRecord did (or CheckRecord would do).
type SaveResult = writer.SaveResult

// RecordFault is the first error of an invalid record: its message,
// line and column, and for an illegal move its ply, move and rule.
type RecordFault = gamerows.ErrInfo

// Added is what AddRecords did with one record.
type Added = writer.Added

// Revision is one revision of a stored game.
type Revision struct {
	N       int
	Time    time.Time // when it was stored; zero: not known (imported)
	Size    int       // bytes of its record text
	Valid   bool
	Note    string // what changed from the revision before
	Current bool
}

// SaveRecord replaces the record of game id by text, as its next revision,
// in one transaction: its columns, players, tags, positions, opening-tree
// counts, warnings and errors follow the new record at once, its text
// document after the commit. base is the revision the text was made from:
// when the game is at another one (saved meanwhile), nothing is saved and
// the error is a *ConflictError (errors.Is ErrConflict). text must hold
// one record (ErrNotOneRecord); an invalid one is stored invalid, with its
// first error in the result. A text that reads as the stored record saves
// nothing (SaveResult.Changed false).
func (db *DB) SaveRecord(ctx context.Context, id int64, text []byte, base int) (SaveResult, error) {
	if db.readOnly {
		return SaveResult{}, fmt.Errorf("save: %w (opened for queries only)", ErrReadOnly)
	}
	if base < 1 {
		return SaveResult{}, fmt.Errorf("save game #%d: base revision %d: revisions are numbered from 1", id, base)
	}
	res, err := db.writes().SaveRecord(ctx, id, text, base)
	if err == nil {
		db.refreshOpening(ctx, id)
	}
	return res, err
}

// CheckRecord says what SaveRecord would store for text as game id's
// record (validity, first error), storing nothing; Revision is the game's
// current revision.
func (db *DB) CheckRecord(ctx context.Context, id int64, text []byte) (SaveResult, error) {
	return db.writes().CheckRecord(ctx, id, text)
}

// AddRecords stores the records of text as new games, in one transaction,
// with source as their file (a name, not a file that an import reads
// again), and says what it did with each record, in order: stored valid or
// invalid, or already stored. Records are replayed under opts (the ruleset
// of untagged records: DefaultGame, Detect).
func (db *DB) AddRecords(ctx context.Context, text []byte, source string, opts replay.Options) ([]Added, error) {
	if db.readOnly {
		return nil, fmt.Errorf("add: %w (opened for queries only)", ErrReadOnly)
	}
	added, err := db.writes().AddRecords(ctx, text, source, opts)
	if err == nil {
		err = db.catchUpOpenings(ctx)
	}
	return added, err
}

// History lists the revisions of game id, oldest first: a game never
// edited has one, its record as imported.
func (db *DB) History(ctx context.Context, id int64) ([]Revision, error) {
	r, err := db.pos.Snapshot(ctx)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	q := r.Conn()
	rows, err := db.revisionRows(ctx, q, id)
	if err != nil {
		return nil, err
	}
	out := make([]Revision, len(rows))
	for i, row := range rows {
		out[i] = Revision{N: row.Rev, Time: row.Time, Size: int(row.Len), Valid: row.Valid, Note: row.Note, Current: i == len(rows)-1}
	}
	return out, nil
}

// revisionRows are the revisions listed for game id, or the one row of a
// game never edited (ErrNotFound: no such game).
func (db *DB) revisionRows(ctx context.Context, q posrun.Querier, id int64) ([]revisions.Row, error) {
	var valid bool
	var tblock, toff, tlen int64
	var line sql.NullInt64
	var file sql.NullString
	err := q.QueryRowContext(ctx, `SELECT g.valid, g.tblock, g.toff, g.tlen, g.line, s.path
		FROM games g LEFT JOIN sources s ON s.id = g.source WHERE g.id = ?`, id).Scan(&valid, &tblock, &toff, &tlen, &line, &file)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("game #%d: %w", id, ErrNotFound)
	}
	if err != nil {
		return nil, err
	}
	if db.revisions {
		rows, err := revisions.List(ctx, q, id)
		if err != nil || len(rows) > 0 {
			return rows, err
		}
	}
	note := "imported"
	if file.Valid {
		note = "imported from " + file.String
		if line.Int64 > 0 {
			note += fmt.Sprintf(":%d", line.Int64)
		}
	}
	return []revisions.Row{{Game: id, Rev: 1, Valid: valid, Note: note, Block: tblock, Off: toff, Len: tlen}}, nil
}

// Revision returns the record text of revision n of game id (ErrNotFound:
// no such game or revision).
func (db *DB) Revision(ctx context.Context, id int64, n int) ([]byte, error) {
	r, err := db.pos.Snapshot(ctx)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	rows, err := db.revisionRows(ctx, r.Conn(), id)
	if err != nil {
		return nil, err
	}
	for _, row := range rows {
		if row.Rev == n {
			return readRevision(ctx, r.Conn(), row)
		}
	}
	return nil, fmt.Errorf("game #%d has no revision %d (it has revisions 1 to %d): %w", id, n, rows[len(rows)-1].Rev, ErrNotFound)
}

// CurrentRevision returns game id's current revision and its record text,
// read together: the base of a save made from the text.
func (db *DB) CurrentRevision(ctx context.Context, id int64) (n int, text []byte, err error) {
	r, err := db.pos.Snapshot(ctx)
	if err != nil {
		return 0, nil, err
	}
	defer r.Close()
	rows, err := db.revisionRows(ctx, r.Conn(), id)
	if err != nil {
		return 0, nil, err
	}
	last := rows[len(rows)-1]
	text, err = readRevision(ctx, r.Conn(), last)
	return last.Rev, text, err
}

// readRevision reads a revision's text (a copy).
func readRevision(ctx context.Context, q posrun.Querier, row revisions.Row) ([]byte, error) {
	var c gametext.Cache
	text, err := gametext.ReadAt(ctx, q, row.Block, row.Off, row.Len, &c)
	if err != nil {
		return nil, fmt.Errorf("game #%d revision %d: %w", row.Game, row.Rev, err)
	}
	return bytes.Clone(text), nil
}

// AddSource is the source name of games added at t from name (a file
// name, or "-" for standard input): add:TIME, or add:TIME:NAME.
func AddSource(t time.Time, name string) string {
	s := "add:" + t.UTC().Format(time.RFC3339)
	if name != "" && name != "-" {
		s += ":" + strings.TrimSpace(name)
	}
	return s
}
