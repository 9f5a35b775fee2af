package index

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"

	"github.com/blevesearch/bleve/v2"

	"github.com/plateau/plateau/index/internal/gamerows"
	"github.com/plateau/plateau/index/internal/textindex"
	"github.com/plateau/plateau/index/internal/writer"
	"github.com/plateau/plateau/record"
)

// The text index (internal/textindex) holds a document per valid game; this
// file feeds it from the store: the documents of edited games (edit.go
// syncText), of games past its high-water mark after a kill (catchUpText),
// and all of them on Reindex; an import indexes its new games after each
// commit (internal/writer).

// textDoc is the text-index document of a game (writer.DocOf).
type textDoc = textindex.Doc

// textBatch is the number of games an edit re-indexes at a time (syncText).
const textBatch = 1000

// withText opens the text index, runs fn and closes it (textindex.With),
// an error of a read-only database without one wrapping ErrNotFound.
func (db *DB) withText(fn func(bleve.Index) error) error {
	return db.textError(db.text.With(fn))
}

// textError is err, ErrNotFound when it says the index is missing.
func (db *DB) textError(err error) error {
	if errors.Is(err, textindex.ErrMissing) {
		return fmt.Errorf("no text index in %s: %w", db.dir, ErrNotFound)
	}
	return err
}

func (db *DB) textPath() string { return db.text.Path() }

// scanTextDoc reads a row of (id, game, result, date, event, site, the two
// players' names) and the stored record's annotator and comments into the
// game's text document.
func (db *DB) scanTextDoc(ctx context.Context, rows *sql.Rows, cache *blockCache) (int64, textDoc, error) {
	var id int64
	var game string
	var res, date, ev, site, a, b sql.NullString
	if err := rows.Scan(&id, &game, &res, &date, &ev, &site, &a, &b); err != nil {
		return 0, textDoc{}, err
	}
	p := &prepared{Game: game, Result: res.String, Date: date.String, Event: ev.String, Site: site.String,
		Players: [2]string{a.String, b.String}}
	if rec, err := db.record(ctx, id, cache); err == nil {
		p.Annot = rec.Tag("Annotator")
		var cb strings.Builder
		for _, c := range rec.Intro {
			cb.WriteString(c + " ")
		}
		gamerows.Comments(&cb, rec.Moves)
		p.Comment = cb.String()
	}
	return id, writer.DocOf(id, p), nil
}

// catchUpText completes the text index (an import calls it first, under
// its lock): it rebuilds a damaged one (repairText), indexes the valid
// games SQLite holds beyond its high-water mark (left there by an import
// or a reindex that was killed, a disk that filled) and, when it still
// holds fewer documents than SQLite has valid games (files lost, an index
// removed: the high-water mark says nothing of those), rebuilds it; each
// time telling Notice. It returns the number of games indexed.
func (db *DB) catchUpText(ctx context.Context) (int, error) {
	if n, done, err := db.repairText(ctx); done || err != nil {
		return n, err
	}
	hw, err := db.metaInt(ctx, db.sql, "text_hw")
	if err != nil {
		return 0, err
	}
	var after int
	if err := db.sql.QueryRowContext(ctx, `SELECT COUNT(*) FROM games WHERE valid = 1 AND id > ?`, hw).Scan(&after); err != nil {
		return 0, err
	}
	n := 0
	if after > 0 {
		before, err := db.TextCoverage(ctx)
		if err != nil {
			return 0, err
		}
		msg := before.String()
		if msg == "" { // its documents were written, its mark not
			msg = "the text index's mark is behind the store"
		}
		db.tell(fmt.Sprintf("%s (an import or a reindex did not finish); indexing the %d games after #%d", msg, after, hw))
		if n, err = db.indexFrom(ctx, hw); err != nil {
			return n, err
		}
	}
	c, err := db.TextCoverage(ctx)
	if err != nil || c.Missing() == 0 {
		return n, err
	}
	db.tell(fmt.Sprintf("%s; rebuilding it from the SQLite store", c))
	if n, err = db.reindex(ctx, nil); err != nil {
		return n, fmt.Errorf("rebuilding the text index: %w", err)
	}
	db.tell(fmt.Sprintf("text index rebuilt: %d games indexed", n))
	return n, nil
}

// indexFrom (re)indexes every valid game with id > after, then records the
// high-water mark.
func (db *DB) indexFrom(ctx context.Context, after int64) (int, error) {
	return db.indexFromProgress(ctx, after, nil)
}

// indexFromProgress is indexFrom calling progress after each batch with the
// games indexed and the valid games to index.
func (db *DB) indexFromProgress(ctx context.Context, after int64, progress func(done, total int)) (int, error) {
	total := 0
	if progress != nil {
		db.sql.QueryRowContext(ctx, `SELECT COUNT(*) FROM games WHERE valid = 1 AND id > ?`, after).Scan(&total)
	}
	n := 0
	var cache blockCache
	for {
		rows, err := db.sql.QueryContext(ctx, `SELECT g.id, g.game, g.result, g.date, g.event, g.site, a.name, b.name
			FROM games g LEFT JOIN players a ON a.id = g.p0 LEFT JOIN players b ON b.id = g.p1
			WHERE g.valid = 1 AND g.id > ? ORDER BY g.id LIMIT ?`, after, textindex.Batch)
		if err != nil {
			return n, err
		}
		var docs []textDoc
		size := 0
		for size < textindex.BatchBytes && rows.Next() {
			id, doc, err := db.scanTextDoc(ctx, rows, &cache)
			if err != nil {
				rows.Close()
				return n, err
			}
			docs = append(docs, doc)
			size += doc.Size()
			after = id
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return n, err
		}
		if len(docs) == 0 {
			return n, nil
		}
		if err := db.textError(db.text.Add(docs)); err != nil {
			return n, err
		}
		n += len(docs)
		if err := setMeta(ctx, db.sql, "text_hw", after); err != nil {
			return n, err
		}
		if progress != nil {
			progress(n, max(n, total))
		}
		if err := ctx.Err(); err != nil {
			return n, err
		}
	}
}

// repairText rebuilds a damaged text index (a disk that filled while it
// was written, files lost) from SQLite, telling Notice so; done reports
// that it did.
func (db *DB) repairText(ctx context.Context) (n int, done bool, err error) {
	err = db.text.Check()
	if !errors.Is(err, ErrTextBroken) {
		return 0, false, err
	}
	if db.notice != nil {
		db.notice(fmt.Sprintf("%v; rebuilding it from the SQLite store", err))
	}
	n, err = db.reindex(ctx, nil) // under the import's lock
	if err != nil {
		return n, true, fmt.Errorf("rebuilding the damaged text index: %w", err)
	}
	if db.notice != nil {
		db.notice(fmt.Sprintf("text index rebuilt: %d games indexed", n))
	}
	return n, true, nil
}

// Reindex rebuilds the text index from SQLite and returns the number of
// games indexed.
func (db *DB) Reindex(ctx context.Context) (int, error) {
	return db.ReindexProgress(ctx, nil)
}

// ReindexProgress is Reindex calling progress after each batch of documents
// with the games indexed and the games to index. Stopped (ctx), it leaves
// the index holding the games up to the last batch, and the next writable
// import or reindex goes on from there.
func (db *DB) ReindexProgress(ctx context.Context, progress func(done, total int)) (int, error) {
	if db.readOnly {
		return 0, fmt.Errorf("reindex: %w (opened for queries only)", ErrReadOnly)
	}
	lock, err := db.waitImportLock(ctx) // mergelock.go
	if err != nil {
		return 0, err
	}
	defer lock.release()
	if c, err := db.TextCoverage(ctx); err == nil && c.Partial() {
		db.tell(fmt.Sprintf("%s; rebuilding it", c))
	}
	return db.reindex(ctx, progress)
}

// reindex is ReindexProgress under the import lock.
func (db *DB) reindex(ctx context.Context, progress func(done, total int)) (int, error) {
	if err := db.text.Remove(); err != nil {
		return 0, err
	}
	if err := setMeta(ctx, db.sql, "text_hw", 0); err != nil {
		return 0, err
	}
	return db.indexFromProgress(ctx, 0, progress)
}

// record reads a stored record.
func (db *DB) record(ctx context.Context, id int64, cache *blockCache) (*record.Game, error) {
	text, err := db.recordText(ctx, id, cache)
	if err != nil {
		return nil, err
	}
	r := record.NewReader(bytes.NewReader(text), "db")
	return r.Next()
}

// Bounds of a text query (textindex.MaxQuery…).
const (
	MaxTextQuery    = textindex.MaxQuery    // bytes
	MaxTextTerms    = textindex.MaxTerms    // words separated by spaces
	MaxTextPatterns = textindex.MaxPatterns // words with *, ?, ~ or a /regexp/
)

// TextSearch runs a Bleve query-string query (fields players,
// event, site, annotator, comments, game, result, date) and returns the
// matching game ids, at most max. A query over a bound (MaxTextQuery…) is
// refused with ErrQuery; the query is parsed before the text index is
// opened, and the search stops when ctx is done (its error is then ctx's),
// also while a pattern word is matched against the index's words.
// The documents the index held are kept as its coverage of the store
// (TextCoverage).
func (db *DB) TextSearch(ctx context.Context, q string, max int) ([]int64, error) {
	v, err := db.Version(ctx)
	if err != nil {
		return nil, err
	}
	ids, docs, err := db.text.SearchCount(ctx, q, max)
	var qe *textindex.QueryError
	if errors.As(err, &qe) {
		return nil, fmt.Errorf("%w: %s", ErrQuery, qe.Msg)
	}
	if err != nil {
		return nil, db.textError(err)
	}
	if _, err := db.coverage(ctx, v, docs); err != nil {
		return nil, err
	}
	return ids, nil
}
