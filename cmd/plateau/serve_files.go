package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"time"

	"github.com/plateau/plateau/index"
	"github.com/plateau/plateau/index/browse"
	"github.com/plateau/plateau/internal/ingest"
	"github.com/plateau/plateau/replay"
	"github.com/plateau/plateau/replay/web"
)

// serveFiles imports the record files of `serve FILE…` into a temporary
// database (a directory of os.MkdirTemp) in the background and returns it
// as the source to serve, at once: the page lists the games imported so far
// and shows the import's progress. cleanup closes the database and removes
// its directory; call it when the server has stopped.
func serveFiles(ctx context.Context, paths []string, ropts replay.Options, maxRecord int64, log io.Writer, bar *progress) (src web.Source, cleanup func(), err error) {
	for _, p := range paths {
		if p == "-" {
			continue
		}
		if _, err := os.Stat(p); err != nil {
			if m, _ := filepath.Glob(p); len(m) == 0 {
				return nil, nil, fmt.Errorf("serve: %w", err)
			}
		}
	}
	dir, err := os.MkdirTemp("", "plateau-serve-")
	if err != nil {
		return nil, nil, err
	}
	db, err := index.Open(ctx, dir, boundPool(index.Options{}))
	if err != nil {
		os.RemoveAll(dir)
		return nil, nil, err
	}
	ictx, cancel := context.WithCancel(ctx)
	opts := index.ImportOptions{DefaultGame: ropts.DefaultGame, Detect: ropts.Detect, Workers: max(1, runtime.GOMAXPROCS(0)-1)}
	imp := func(ctx context.Context, opts index.ImportOptions) (index.ImportStats, error) {
		return ingest.Files(ctx, db, paths, ingest.Options{ImportOptions: opts, MaxRecord: maxRecord,
			FileError: func(file string, err error) { fmt.Fprintf(log, "%s: %v\n", file, err) }})
	}
	l, done := browse.Load(ictx, imp, opts, browse.New(db, ropts))
	finished, loaded, drawn := make(chan struct{}), make(chan struct{}), make(chan struct{})
	go func() { showLoading(l, bar, loaded); close(drawn) }()
	go func() {
		defer close(finished)
		err := <-done
		close(loaded)
		<-drawn
		bar.done()
		st := l.Status()
		if err != nil && ictx.Err() == nil {
			fmt.Fprintf(log, "loading the files: %v\n", err)
		} else if err == nil {
			fmt.Fprintf(log, "loaded: %d records, %d games (%d invalid), %d duplicates\n", st.Records, st.Stored, st.Invalid, st.Duplicates)
		}
	}()
	cleanup = func() {
		cancel()
		<-finished // the import has stopped: its database can go
		db.Close()
		os.RemoveAll(dir)
	}
	return l, cleanup, nil
}

// showLoading draws the loading of served files on bar (bytes of the files
// read, games stored) until stop is closed; the page shows the same figures.
func showLoading(l *browse.Loading, bar *progress, stop <-chan struct{}) {
	t := time.NewTicker(200 * time.Millisecond)
	defer t.Stop()
	for {
		select {
		case <-stop:
			return
		case <-t.C:
		}
		st := l.Status()
		bar.describe("loading: %d games stored", st.Stored)
		bar.set(int(st.Bytes), int(st.TotalBytes))
	}
}
