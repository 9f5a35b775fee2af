package index

import (
	"context"
	"fmt"

	"github.com/plateau/plateau/index/internal/writer"
	"github.com/plateau/plateau/record"
)

// Keeping a database: Delete and SetTags are internal/writer's (its
// package doc says how a game's rows are removed and stored again). The
// text index is changed after the commit; the ids it must catch up with
// are listed in the table text_todo in the same transaction, so that a
// process that dies between the two leaves a list that the next writable
// Open (or the next change) works off (syncText). text_todo is created by
// a writable Open when missing: an older database gains it without a new
// layout version, and older programs ignore it.

// ErrDuplicate: an edited game became identical to another stored game.
var ErrDuplicate = writer.ErrDuplicate

// editsKey is the meta entry counting the games removed (deleted,
// superseded or stored again), so that cached counts know the database
// changed although its last id did not.
const editsKey = writer.EditsKey

// openEdits makes the text_todo table of a writable database and works off
// what a process that died left in it.
func (db *DB) openEdits(ctx context.Context) error {
	if _, err := db.sql.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS text_todo(id INTEGER PRIMARY KEY)`); err != nil {
		return fmt.Errorf("text_todo: %w", err)
	}
	return db.syncText(ctx)
}

// Delete removes the games of ids (those that exist) with everything that
// refers to them, in transactions of a few thousand games, and returns how
// many it removed. An error or a cancelled ctx stops it: the games of the
// transactions committed before are removed, the others are not.
func (db *DB) Delete(ctx context.Context, ids []int64, progress func(done, total int)) (int, error) {
	if db.readOnly {
		return 0, fmt.Errorf("delete: database opened read-only")
	}
	return db.writes().Delete(ctx, ids, progress)
}

// SetTags changes tags of a stored game (a tag given with an empty value is
// removed; names are matched without regard to case) and stores it again
// under the same id, replayed, as its next revision (SaveRecord): its
// columns, players, tags, positions, opening-tree counts and text document
// follow the new record, and it may become valid or invalid. It returns
// whether the game is valid now.
func (db *DB) SetTags(ctx context.Context, id int64, tags []record.Tag) (valid bool, err error) {
	if db.readOnly {
		return false, fmt.Errorf("tag: database opened read-only")
	}
	valid, err = db.writes().SetTags(ctx, id, tags)
	if err == nil {
		db.refreshOpening(ctx, id)
	}
	return valid, err
}

// syncText brings the text index in line with SQLite for the games listed
// in text_todo: a valid game is indexed again, any other id removed.
func (db *DB) syncText(ctx context.Context) error {
	for {
		rows, err := db.sql.QueryContext(ctx, `SELECT id FROM text_todo ORDER BY id LIMIT ?`, textBatch)
		if err != nil {
			return err
		}
		var ids []int64
		for rows.Next() {
			var id int64
			if err := rows.Scan(&id); err != nil {
				rows.Close()
				return err
			}
			ids = append(ids, id)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		if len(ids) == 0 {
			return nil
		}
		docs, err := db.textDocs(ctx, ids)
		if err != nil {
			return err
		}
		err = db.textError(db.text.Update(ids, docs))
		if err != nil {
			return fmt.Errorf("text index: %w", err)
		}
		if _, err := db.sql.ExecContext(ctx, `DELETE FROM text_todo WHERE id IN (SELECT value FROM json_each(?))`, jsonIDs(ids)); err != nil {
			return err
		}
	}
}

// textDocs builds the text documents of the valid games among ids.
func (db *DB) textDocs(ctx context.Context, ids []int64) (map[int64]textDoc, error) {
	rows, err := db.sql.QueryContext(ctx, `SELECT g.id, g.game, g.result, g.date, g.event, g.site, a.name, b.name
		FROM games g LEFT JOIN players a ON a.id = g.p0 LEFT JOIN players b ON b.id = g.p1
		WHERE g.valid = 1 AND g.id IN (SELECT value FROM json_each(?))`, jsonIDs(ids))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[int64]textDoc{}
	var cache blockCache
	for rows.Next() {
		id, doc, err := db.scanTextDoc(ctx, rows, &cache)
		if err != nil {
			return nil, err
		}
		out[id] = doc
	}
	return out, rows.Err()
}
