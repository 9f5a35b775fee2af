package index

import (
	"context"
	"errors"

	"github.com/plateau/plateau/importers"
)

// importFiles imports record files for index's own tests. They cannot use
// package internal/ingest, which imports index: this is its Files in
// short, importers.Source giving the records to ImportRecords, files
// imported before left out.
func importFiles(ctx context.Context, db *DB, paths []string, opts ImportOptions) (ImportStats, error) {
	return testImportFiles(ctx, db, paths, opts, false)
}

// reimportFiles is importFiles reading again the files imported before
// (plateau import --force).
func reimportFiles(ctx context.Context, db *DB, paths []string, opts ImportOptions) (ImportStats, error) {
	return testImportFiles(ctx, db, paths, opts, true)
}

func testImportFiles(ctx context.Context, db *DB, paths []string, opts ImportOptions, force bool) (ImportStats, error) {
	so := importers.SourceOptions{}
	if !force {
		so.Skip = func(f *importers.File) bool {
			done, err := db.Imported(ctx, f.Name, f.Size, f.ModTime)
			return err == nil && done
		}
	}
	src, err := importers.NewSource(paths, so)
	if err != nil {
		return ImportStats{}, err
	}
	defer src.Close()
	opts.Bytes = src.Stats().Bytes
	st, err := db.ImportRecords(ctx, func() (Record, error) {
		for {
			it, err := src.Next()
			var fe *importers.FileError
			if errors.As(err, &fe) {
				continue
			}
			if err != nil {
				return Record{}, err
			}
			r := Record{Game: it.Game, Err: it.Err, File: it.File.Name, Read: it.Read}
			if it.End {
				r.End = &FileEnd{Size: it.File.Size, ModTime: it.File.ModTime, Stream: it.File.Stdin()}
			}
			return r, nil
		}
	}, opts)
	ss := src.Stats()
	st.Files, st.SkippedFiles, st.Unreadable = ss.Files, ss.Skipped, ss.Unreadable
	return st, err
}
