package index

import (
	"context"
	"fmt"
	"strings"
	"sync"
)

// TextCoverage compares the text index with the store of record: a text
// index that holds fewer documents than the store has valid games (an
// import or a reindex killed, a disk that filled, files lost) answers
// text queries without the games it lacks; one with edits pending answers
// with the games as they were.
type TextCoverage struct {
	Valid   int // valid games in the store
	Indexed int // documents in the text index
	Pending int // games edited whose documents are not written again yet
}

// Missing is the number of valid games the text index lacks.
func (c TextCoverage) Missing() int { return max(0, c.Valid-c.Indexed) }

// Partial reports a text index that lacks games or edits: a text query
// may miss games, or find them by what they were.
func (c TextCoverage) Partial() bool { return c.Missing() > 0 || c.Pending > 0 }

// String says what the text index lacks ("" when nothing), e.g. "the text
// index holds 10000 of 102997 valid games".
func (c TextCoverage) String() string {
	var s []string
	if c.Missing() > 0 {
		s = append(s, fmt.Sprintf("the text index holds %d of %d valid games", c.Indexed, c.Valid))
	}
	if c.Pending > 0 {
		s = append(s, fmt.Sprintf("%d edited games are not indexed again yet", c.Pending))
	}
	return strings.Join(s, "; ")
}

// TextAdvice is what to do about a partial text index, for messages.
const TextAdvice = "the next import or `plateau reindex` completes it"

// textCover keeps the coverage of one Version of the database.
type textCover struct {
	mu      sync.Mutex
	version int64
	known   bool
	c       TextCoverage
}

// TextCoverage compares the text index with the store: the documents it
// holds with the valid games, and the edits not written to it yet. It
// opens the text index (waiting for an import's batch as a search does)
// unless a search of this Version of the database counted its documents
// already. A database without a text index holds none.
func (db *DB) TextCoverage(ctx context.Context) (TextCoverage, error) {
	v, err := db.Version(ctx)
	if err != nil {
		return TextCoverage{}, err
	}
	db.textCover.mu.Lock()
	if db.textCover.known && db.textCover.version == v {
		c := db.textCover.c
		db.textCover.mu.Unlock()
		return c, nil
	}
	db.textCover.mu.Unlock()
	docs, err := db.text.Count()
	if err != nil {
		return TextCoverage{}, db.textError(err)
	}
	return db.coverage(ctx, v, docs)
}

// coverage is the coverage of Version v of the database, whose text index
// holds docs documents, kept for the next TextCoverage.
func (db *DB) coverage(ctx context.Context, v int64, docs uint64) (TextCoverage, error) {
	valid, err := db.Count(ctx, Query{}, ListOptions{})
	if err != nil {
		return TextCoverage{}, err
	}
	c := TextCoverage{Valid: valid, Indexed: int(docs)}
	var todo bool
	if err := db.sql.QueryRowContext(ctx, `SELECT EXISTS(SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'text_todo')`).Scan(&todo); err != nil {
		return TextCoverage{}, err
	}
	if todo {
		if err := db.sql.QueryRowContext(ctx, `SELECT COUNT(*) FROM text_todo`).Scan(&c.Pending); err != nil {
			return TextCoverage{}, err
		}
	}
	db.textCover.mu.Lock()
	db.textCover.version, db.textCover.known, db.textCover.c = v, true, c
	db.textCover.mu.Unlock()
	return c, nil
}
