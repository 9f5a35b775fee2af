// Package revisions keeps the revisions of the games stored in a
// database: every record text a game has had, numbered from 1, with when
// it was stored, its size and validity and a short note of what changed.
//
// Decisions:
//
//   - A game never edited has no row: it is at revision 1, its imported
//     record. The first save of a game lists its revision 1 (time unknown
//     when it was imported: the note names its file) and every save lists
//     the revision it makes, so that a game's current revision is its
//     highest row, else 1.
//   - A revision's text is not copied: the canonical texts are kept in
//     compressed blocks (table texts) that an edit never rewrites, and a
//     row points into them (block, offset, length) as the games table
//     does. Nothing is lost by an edit; a deleted game's rows go with it.
//   - A row keeps its text's hash, so that a re-import that finds an
//     earlier revision of an edited game in its file knows it
//     (internal/writer's supersede).
//   - The note says what changed from the revision before, when both read
//     as records: the tags changed, the first main-line ply that differs,
//     and the comments, NAGs and variations counted before and after
//     (Note).
package revisions

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// Table holds the revisions (layout 8).
const Table = `CREATE TABLE IF NOT EXISTS revisions(
	game INTEGER NOT NULL, rev INTEGER NOT NULL,
	time INTEGER, valid INTEGER NOT NULL, hash BLOB NOT NULL, note TEXT NOT NULL,
	tblock INTEGER NOT NULL, toff INTEGER NOT NULL, tlen INTEGER NOT NULL,
	PRIMARY KEY(game, rev)) WITHOUT ROWID`

// Querier is what reading the revisions needs: a database handle or a
// transaction.
type Querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// Execer runs a statement.
type Execer interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
}

// Row is one revision of a game.
type Row struct {
	Game  int64
	Rev   int
	Time  time.Time // zero: not known (an imported revision)
	Valid bool
	Hash  []byte
	Note  string
	// Where its text is in the texts table.
	Block, Off, Len int64
}

// Current is the revision game is at: its highest row, else 1.
func Current(ctx context.Context, q Querier, game int64) (int, error) {
	var rev sql.NullInt64
	if err := q.QueryRowContext(ctx, `SELECT MAX(rev) FROM revisions WHERE game = ?`, game).Scan(&rev); err != nil {
		return 0, fmt.Errorf("game #%d revisions: %w", game, err)
	}
	if !rev.Valid {
		return 1, nil
	}
	return int(rev.Int64), nil
}

// Insert stores a revision.
func Insert(ctx context.Context, e Execer, r Row) error {
	var t any
	if !r.Time.IsZero() {
		t = r.Time.UnixMilli()
	}
	_, err := e.ExecContext(ctx, `INSERT INTO revisions(game, rev, time, valid, hash, note, tblock, toff, tlen) VALUES(?,?,?,?,?,?,?,?,?)`,
		r.Game, r.Rev, t, r.Valid, r.Hash, r.Note, r.Block, r.Off, r.Len)
	if err != nil {
		return fmt.Errorf("game #%d revision %d: %w", r.Game, r.Rev, err)
	}
	return nil
}

// Delete removes the revisions of a game (deleted).
func Delete(ctx context.Context, e Execer, game int64) error {
	_, err := e.ExecContext(ctx, `DELETE FROM revisions WHERE game = ?`, game)
	return err
}

// List is the revisions listed for game, oldest first (none: never
// edited).
func List(ctx context.Context, q Querier, game int64) ([]Row, error) {
	rows, err := q.QueryContext(ctx, `SELECT rev, time, valid, hash, note, tblock, toff, tlen FROM revisions WHERE game = ? ORDER BY rev`, game)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Row
	for rows.Next() {
		r, err := scan(rows, game)
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// Find is revision n of game; ok is false when it is not listed.
func Find(ctx context.Context, q Querier, game int64, n int) (r Row, ok bool, err error) {
	rows, err := q.QueryContext(ctx, `SELECT rev, time, valid, hash, note, tblock, toff, tlen FROM revisions WHERE game = ? AND rev = ?`, game, n)
	if err != nil {
		return Row{}, false, err
	}
	defer rows.Close()
	if !rows.Next() {
		return Row{}, false, rows.Err()
	}
	r, err = scan(rows, game)
	return r, err == nil, err
}

// HasHash reports whether a revision of game has the text of hash.
func HasHash(ctx context.Context, q Querier, game int64, hash []byte) (bool, error) {
	var one int
	err := q.QueryRowContext(ctx, `SELECT 1 FROM revisions WHERE game = ? AND hash = ?`, game, hash).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	return err == nil, err
}

func scan(rows *sql.Rows, game int64) (Row, error) {
	r := Row{Game: game}
	var t sql.NullInt64
	if err := rows.Scan(&r.Rev, &t, &r.Valid, &r.Hash, &r.Note, &r.Block, &r.Off, &r.Len); err != nil {
		return Row{}, err
	}
	if t.Valid {
		r.Time = time.UnixMilli(t.Int64)
	}
	return r, nil
}
