package index

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/plateau/plateau/index/internal/writer"
)

// An import is internal/writer's (its package doc says how: the pipeline
// of chunks, replay workers and one transaction writer, the memory budget,
// the transactions, supersede on re-import, bulk imports). The façade
// refuses a read-only database, holds the import lock around it
// (mergelock.go) and names the file of a full disk (diskfull.go). index
// never opens a file: package internal/ingest reads them
// (importers.Source) and gives their records to ImportRecords.

// ImportOptions tune an import.
type ImportOptions = writer.ImportOptions

// Record is one input of an import: a record read from a file, or the end
// of a file read completely (Record.End).
type Record = writer.Record

// FileEnd is what an import keeps of a file read completely.
type FileEnd = writer.FileEnd

// ImportStats count what an import did.
type ImportStats = writer.ImportStats

// Imported reports whether file was imported completely before, with this
// size and modification time (Unix nanoseconds): a reader leaves such a
// file out unless forced.
func (db *DB) Imported(ctx context.Context, file string, size, modTime int64) (bool, error) {
	var s, m int64
	err := db.sql.QueryRowContext(ctx, `SELECT size, mtime FROM sources WHERE path = ? AND done = 1`, file).Scan(&s, &m)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	return err == nil && s == size && m == modTime, err
}

// ImportRecords replays each record of next through its rules and stores
// it, in order; next returns io.EOF at the end. It returns what it did; an
// error stops the import (what was committed stays, and running the same
// import again completes it). An error of next ends the input: the records
// before it are stored, then the error is returned. A second import of the
// same database waits for the first (the import lock).
func (db *DB) ImportRecords(ctx context.Context, next func() (Record, error), opts ImportOptions) (ImportStats, error) {
	if db.readOnly {
		return ImportStats{TotalBytes: opts.Bytes}, fmt.Errorf("import: %w (opened for queries only)", ErrReadOnly)
	}
	lock, err := db.waitImportLock(ctx) // mergelock.go
	if err != nil {
		return ImportStats{TotalBytes: opts.Bytes}, err
	}
	defer lock.release()
	st, err := db.writes().Import(ctx, next, opts)
	if oerr := db.catchUpOpenings(ctx); err == nil {
		err = oerr
	}
	return st, db.nameFull(err)
}

// writes is the database as the writer takes it: the handle, the engines,
// and the façade's work around a write.
func (db *DB) writes() *writer.DB {
	return &writer.DB{SQL: db.sql, Pos: db.pos, Text: db.text, Fold: fold,
		CatchUpText: func(ctx context.Context) error { _, err := db.catchUpText(ctx); return err },
		SyncText:    db.syncText,
		StoreCounts: db.storeCounts,
		ErrNotFound: ErrNotFound,
		Tuning:      &writeTuning}
}

// writeTuning is the writer's sizes and hooks, which tests change
// (export_test.go); zero in use.
var writeTuning writer.Tuning
