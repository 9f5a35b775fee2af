package ingest_test

import (
	"archive/zip"
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/plateau/plateau/importers"
	"github.com/plateau/plateau/index"
	"github.com/plateau/plateau/internal/hostile"
	"github.com/plateau/plateau/internal/ingest"
	"github.com/plateau/plateau/replay/generate"
	"github.com/plateau/plateau/rules"

	_ "github.com/plateau/plateau/rules/dames"
	_ "github.com/plateau/plateau/rules/ogi"
)

// games is a generated collection of n draughts games.
func games(t *testing.T, n int, seed uint64) []byte {
	t.Helper()
	g, err := rules.Lookup("draughts")
	if err != nil {
		t.Fatal(err)
	}
	gen, err := generate.New(g, seed)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if _, err := gen.Write(context.Background(), &b, n, generate.Options{}); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func write(t *testing.T, path string, data []byte) string {
	t.Helper()
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func open(t *testing.T) *index.DB {
	t.Helper()
	db, err := index.Open(context.Background(), filepath.Join(t.TempDir(), "db"), index.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// TestResume: files imported completely are left out, unless changed or
// forced; a file that fails is reported, counted and read again next time.
func TestResume(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	a := write(t, filepath.Join(dir, "a.pdn"), games(t, 30, 1))
	write(t, filepath.Join(dir, "b.pdn"), games(t, 20, 2))
	// A gzip stream cut short: its first games read, then an error.
	full := gzipped(t, games(t, 40, 3))
	bad := write(t, filepath.Join(dir, "c.pdn.gz"), full[:len(full)*2/3])
	db := open(t)
	var reported []string
	o := ingest.Options{FileError: func(file string, err error) { reported = append(reported, filepath.Base(file)) }}
	st, err := ingest.Files(ctx, db, []string{dir}, o)
	if err != nil {
		t.Fatal(err)
	}
	if st.Files != 3 || st.Unreadable != 1 || st.SkippedFiles != 0 || st.Valid < 50 || st.Valid >= 90 {
		t.Fatalf("first import: %+v", st)
	}
	if !reflect.DeepEqual(reported, []string{"c.pdn.gz"}) {
		t.Errorf("reported %q, want the cut file", reported)
	}
	first := st.Stored
	// Again: a and b are left out, the cut file read again (its games are
	// duplicates now).
	reported = nil
	st, err = ingest.Files(ctx, db, []string{dir}, o)
	if err != nil || st.Files != 1 || st.SkippedFiles != 2 || st.Stored != 0 || st.Duplicates != first-50 || st.Unreadable != 1 {
		t.Fatalf("second import: %+v %v", st, err)
	}
	for _, f := range []string{a, bad} {
		if done, err := db.Imported(ctx, f, fileSize(t, f), fileTime(t, f)); err != nil || done != (f == a) {
			t.Errorf("%s imported: %v %v", f, done, err)
		}
	}
	// A changed file is read again; Force reads every file.
	write(t, a, games(t, 31, 1))
	os.Chtimes(a, time.Now(), time.Now().Add(time.Minute))
	os.Remove(bad)
	st, err = ingest.Files(ctx, db, []string{dir}, o)
	if err != nil || st.Files != 1 || st.SkippedFiles != 1 || st.Stored != 1 || st.Duplicates != 30 {
		t.Fatalf("after a change: %+v %v", st, err)
	}
	st, err = ingest.Files(ctx, db, []string{dir}, ingest.Options{Force: true})
	if err != nil || st.Files != 2 || st.SkippedFiles != 0 || st.Stored != 0 || st.Duplicates != 51 {
		t.Fatalf("forced: %+v %v", st, err)
	}
}

// TestZipProvenance: the games of a zip archive's members name the member;
// an invalid game's error reads archive:member:line; each member is
// imported, and left out the next time, on its own.
func TestZipProvenance(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	arch := filepath.Join(dir, "coll.zip")
	broken := "[Game \"draughts\"]\n[Result \"*\"]\n\n1. 32-28 19-23 2. 28-22 *\n"
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
	for _, m := range [][2]string{{"one.pdn", string(games(t, 5, 4))}, {"sub/two.pdn", "\n" + broken}} {
		w, err := zw.Create(m[0])
		if err != nil {
			t.Fatal(err)
		}
		w.Write([]byte(m[1]))
	}
	zw.Close()
	write(t, arch, b.Bytes())
	db := open(t)
	st, err := ingest.Files(ctx, db, []string{dir}, ingest.Options{})
	if err != nil || st.Files != 2 || st.Valid != 5 || st.Invalid != 1 {
		t.Fatalf("import: %+v %v", st, err)
	}
	es, _, err := db.Errors(ctx, 0, 0)
	if err != nil || len(es) != 1 {
		t.Fatalf("errors %+v %v", es, err)
	}
	if es[0].File != arch+":sub/two.pdn" || es[0].Line != 5 {
		t.Errorf("error at %s:%d, want %s:sub/two.pdn:5", es[0].File, es[0].Line, arch)
	}
	st, err = ingest.Files(ctx, db, []string{arch}, ingest.Options{})
	if err != nil || st.SkippedFiles != 2 || st.Records != 0 {
		t.Fatalf("again: %+v %v", st, err)
	}
}

// TestProgress: the progress's bytes grow and end at the files' size, as
// stored; the files' counts are there from the first report.
func TestProgress(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "a.pdn.gz"), gzipped(t, games(t, 600, 5)))
	write(t, filepath.Join(dir, "b.pdn"), games(t, 300, 6))
	db := open(t)
	var last index.ImportStats
	reports := 0
	o := ingest.Options{ImportOptions: index.ImportOptions{TxGames: 100, Progress: func(st index.ImportStats) {
		if st.Bytes < last.Bytes || st.Bytes > st.TotalBytes || st.Files != 2 {
			t.Errorf("report %+v after %+v", st, last)
		}
		last = st
		reports++
	}}}
	st, err := ingest.Files(context.Background(), db, []string{dir}, o)
	if err != nil {
		t.Fatal(err)
	}
	size := fileSize(t, filepath.Join(dir, "a.pdn.gz")) + fileSize(t, filepath.Join(dir, "b.pdn"))
	if st.TotalBytes != size || st.Bytes != size || last.Bytes != size || reports == 0 {
		t.Errorf("stats %+v (%d reports), want %d bytes", st, reports, size)
	}
}

// TestNoFiles: paths without a record file stop the import before it
// begins.
func TestNoFiles(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "notes.md"), []byte("no games"))
	_, err := ingest.Files(context.Background(), open(t), []string{dir}, ingest.Options{})
	if !errors.Is(err, importers.ErrNoFiles) || !strings.Contains(err.Error(), dir) {
		t.Errorf("got %v", err)
	}
}

func gzipped(t *testing.T, data []byte) []byte {
	t.Helper()
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	w.Write(data)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func fileSize(t *testing.T, p string) int64 {
	fi, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Size()
}

func fileTime(t *testing.T, p string) int64 {
	fi, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	return fi.ModTime().UnixNano()
}

// TestHostileFiles: the hostile inputs import as one record each whatever
// their size, nesting or encoding; a file that is not in its compression
// format is reported (importers.ErrFormat), not marked imported, and read
// again by the next import.
func TestHostileFiles(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	files := hostile.Files()
	if err := hostile.Write(dir, files); err != nil {
		t.Fatal(err)
	}
	n := hostile.Count(files)
	db := open(t)
	var reported []string
	o := ingest.Options{FileError: func(file string, err error) {
		if !errors.Is(err, importers.ErrFormat) {
			t.Errorf("%s: %v is no format error", file, err)
		}
		reported = append(reported, filepath.Base(file))
	}}
	st, err := ingest.Files(ctx, db, []string{dir}, o)
	if err != nil || st.Records != n.Records || st.Stored != n.Records || st.Valid != n.Valid || st.Invalid != n.Invalid || st.Unreadable != n.Unreadable {
		t.Fatalf("import: %+v %v, want %+v", st, err, n)
	}
	var unreadable []string
	for _, f := range files {
		if f.Unreadable {
			unreadable = append(unreadable, f.Name)
		}
	}
	slices.Sort(unreadable)
	if !reflect.DeepEqual(reported, unreadable) {
		t.Errorf("reported %q, want %q", reported, unreadable)
	}
	reported = nil
	st, err = ingest.Files(ctx, db, []string{dir}, o)
	if err != nil || st.Files != n.Unreadable || st.Records != 0 || len(reported) != n.Unreadable {
		t.Fatalf("again: %+v %v, reported %q", st, err, reported)
	}
}
