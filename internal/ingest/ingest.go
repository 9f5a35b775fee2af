// Package ingest imports record files into a database: importers.Source
// reads them (directories, globs, standard input, compressed files, zip
// archives), a Lookahead gives each record its file's evidence for the
// detection of an untagged record's ruleset (ahead.go; the commands that
// read files without a database use it too), index.DB.ImportRecords
// replays and stores their records. It is
// where the two meet, so that index takes records and never opens a file,
// and so that plateau import, the temporary database of plateau serve, the
// benchmark and the tests read files the same way.
//
// Decisions: a file imported completely before, with the same size and
// modification time (index.DB.Imported), is left out unless Options.Force;
// standard input is always read. A file that cannot be read is reported
// (Options.FileError) and counted; the import goes on with the others and
// does not mark it imported, so that the next import reads it again.
package ingest

import (
	"context"
	"errors"
	"sync/atomic"

	"github.com/plateau/plateau/importers"
	"github.com/plateau/plateau/index"
	"github.com/plateau/plateau/replay"
)

// Options tune an import of files.
type Options struct {
	index.ImportOptions
	// Force re-reads files already imported completely (their games are
	// then skipped as duplicates).
	Force bool
	// MaxRecord is the size limit of a record (importers.SourceOptions);
	// a larger record is stored as an invalid record naming the limit.
	MaxRecord int64
	// FileError, if set, is told of each file that could not be read (open
	// or read error: the games read before it are kept, the file is not
	// marked imported) and of each file skipped in a directory walk (an
	// error wrapping importers.ErrNotRegular). It is called from the
	// goroutine that reads the files.
	FileError func(file string, err error)
	// Sized, if set, is told the size of the files to read (as stored)
	// before any is read: plateau import sizes its memory budget by it.
	Sized func(bytes int64)
}

// Files imports the record files of paths (as plateau import names them)
// into db, and returns what it did: ImportRecords' counts with the files'.
// An error reading the paths' list (a missing file, a glob that matches
// nothing, importers.ErrNoFiles) stops it before anything is stored.
func Files(ctx context.Context, db *index.DB, paths []string, o Options) (index.ImportStats, error) {
	var skip func(*importers.File) bool
	if !o.Force {
		skip = func(f *importers.File) bool {
			done, err := db.Imported(ctx, f.Name, f.Size, f.ModTime)
			return err == nil && done
		}
	}
	src, err := importers.NewSource(paths, importers.SourceOptions{MaxRecord: o.MaxRecord, Skip: skip, Walk: o.FileError})
	if err != nil {
		return index.ImportStats{}, err
	}
	defer src.Close()
	ss := src.Stats()
	if o.Sized != nil {
		o.Sized(ss.Bytes)
	}
	var unreadable atomic.Int64 // counted by the reading goroutine, read by Progress
	unreadable.Store(int64(ss.Unreadable))
	files := func(st *index.ImportStats) {
		st.Files, st.SkippedFiles, st.Unreadable = ss.Files, ss.Skipped, int(unreadable.Load())
	}
	opts := o.ImportOptions
	opts.Bytes = ss.Bytes
	if progress := o.Progress; progress != nil {
		opts.Progress = func(st index.ImportStats) {
			files(&st)
			progress(st)
		}
	}
	// Untagged records carry their file's evidence (ahead.go): import
	// chooses their ruleset as validate does.
	ahead := NewLookahead(src, replay.Options{DefaultGame: o.DefaultGame, Detect: o.Detect})
	next := Records(ahead, func(file string, err error) {
		unreadable.Add(1)
		if o.FileError != nil {
			o.FileError(file, err)
		}
	})
	st, err := db.ImportRecords(ctx, next, opts)
	files(&st)
	return st, err
}

// Records returns the records of src (an importers.Source, or a Lookahead
// over one), for index.DB.ImportRecords: each game, and each file's end
// (index.Record.End). A file that cannot be read is told to fileError and
// left; the records go on with the next file.
func Records(src Items, fileError func(file string, err error)) func() (index.Record, error) {
	return func() (index.Record, error) {
		for {
			it, err := src.Next()
			var fe *importers.FileError
			if errors.As(err, &fe) {
				if fileError != nil {
					fileError(fe.File, fe.Err)
				}
				continue
			}
			if err != nil {
				return index.Record{}, err
			}
			r := index.Record{Game: it.Game, Err: it.Err, File: it.File.Name, Read: it.Read}
			if it.End {
				r.End = &index.FileEnd{Size: it.File.Size, ModTime: it.File.ModTime, Stream: it.File.Stdin()}
			}
			return r, nil
		}
	}
}
