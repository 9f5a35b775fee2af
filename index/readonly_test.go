package index_test

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/plateau/plateau/index"
	"github.com/plateau/plateau/internal/longtest"
)

// newImported imports n generated draughts games into dir/db and closes
// the database; it returns the database directory and the record file.
func newImported(t *testing.T, dir string, n int) (string, string) {
	t.Helper()
	file := writeFile(t, dir, "g.pdn", genText(t, "draughts", n, 3))
	dbDir := filepath.Join(dir, "db")
	db, err := index.Open(context.Background(), dbDir, index.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := importFiles(context.Background(), db, []string{file}, index.ImportOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	return dbDir, file
}

func listDir(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range es {
		names = append(names, e.Name())
	}
	return names
}

// queryAll runs the queries of info, search (text and player) and tree on
// a read-only database of n games.
func queryAll(t *testing.T, db *index.DB, n int) {
	t.Helper()
	ctx := context.Background()
	in, err := db.Info(ctx)
	if err != nil || len(in.Games) != 1 || in.Games[0].Valid != n {
		t.Fatalf("info: %+v %v", in.Games, err)
	}
	ids, err := db.TextSearch(ctx, "game:draughts", 10*n)
	if err != nil || len(ids) != n {
		t.Fatalf("text search: %d of %d, %v", len(ids), n, err)
	}
	res, err := db.Search(ctx, index.Query{Game: "draughts", Limit: 5, Count: true})
	if err != nil || res.Total != n {
		t.Fatalf("search: %+v %v", res.Total, err)
	}
	start, _ := index.Position("draughts", "")
	tree, err := db.Tree(ctx, "draughts", start)
	if err != nil || len(tree) == 0 {
		t.Fatalf("tree: %d moves, %v", len(tree), err)
	}
}

// TestReadOnlyDatabase opens a database whose directory cannot be written
// (Options.Unwritable, as a read-only mount): every query works, nothing
// is written in the directory, and writing refuses with ErrReadOnly.
func TestReadOnlyDatabase(t *testing.T) {
	const n = 150
	dbDir, file := newImported(t, t.TempDir(), n)
	before := listDir(t, dbDir)
	ctx := context.Background()
	db, err := index.Open(ctx, dbDir, index.Options{ReadOnly: true, Unwritable: true})
	if err != nil {
		t.Fatal(err)
	}
	queryAll(t, db, n)
	if _, err := importFiles(ctx, db, []string{file}, index.ImportOptions{}); !errors.Is(err, index.ErrReadOnly) {
		t.Errorf("import into a read-only open: %v", err)
	}
	if _, err := db.Reindex(ctx); !errors.Is(err, index.ErrReadOnly) {
		t.Errorf("reindex of a read-only open: %v", err)
	}
	db.Close()
	if after := listDir(t, dbDir); !slices.Equal(before, after) {
		t.Errorf("the read-only open wrote in the directory: %v, then %v", before, after)
	}
	_, err = index.Open(ctx, dbDir, index.Options{Unwritable: true})
	if !errors.Is(err, index.ErrReadOnly) || !strings.Contains(err.Error(), dbDir) {
		t.Errorf("writable open of an unwritable directory: %v", err)
	}
	_, err = index.Open(ctx, filepath.Join(dbDir, "new"), index.Options{Unwritable: true})
	if !errors.Is(err, index.ErrReadOnly) {
		t.Errorf("creating a database in an unwritable directory: %v", err)
	}
}

// TestReadOnlyDirectory: a directory without write permission is detected
// (no Options flag). Root writes anyway, so the test needs another user.
func TestReadOnlyDirectory(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("running as root, whom permissions do not stop: TestReadOnlyMount checks the detection on a read-only mount")
	}
	const n = 60
	dir := t.TempDir()
	dbDir, _ := newImported(t, dir, n)
	if err := os.Chmod(dbDir, 0o555); err != nil {
		t.Fatal(err)
	}
	defer os.Chmod(dbDir, 0o755)
	db, err := index.Open(context.Background(), dbDir, index.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	queryAll(t, db, n)
	if _, err := index.Open(context.Background(), dbDir, index.Options{}); !errors.Is(err, index.ErrReadOnly) {
		t.Errorf("writable open: %v", err)
	}
}

// TestReadOnlyMount serves queries from a database on a read-only file
// system (a tmpfs remounted read-only), found so without any flag. It
// needs root (mount); CI runs as root.
func TestReadOnlyMount(t *testing.T) {
	mnt := tmpfs(t, "64m")
	const n = 120
	dbDir, _ := newImported(t, mnt, n)
	remount(t, mnt, "ro")
	ctx := context.Background()
	db, err := index.Open(ctx, dbDir, index.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	queryAll(t, db, n)
	db.Close()
	_, err = index.Open(ctx, dbDir, index.Options{})
	if !errors.Is(err, index.ErrReadOnly) || !strings.Contains(err.Error(), "import") {
		t.Errorf("writable open on a read-only mount: %v", err)
	}
}

// tmpfs mounts a tmpfs of size (e.g. "4m") in a temporary directory,
// unmounted at the end of the test; without root the test is skipped.
func tmpfs(t *testing.T, size string) string {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("mounting a tmpfs needs root: not checked on a real file system in this run")
	}
	dir := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size="+size, "tmpfs", dir).CombinedOutput(); err != nil {
		t.Skipf("cannot mount a tmpfs (%v: %s): not checked on a real file system in this run", err, out)
	}
	t.Cleanup(func() {
		if out, err := exec.Command("umount", dir).CombinedOutput(); err != nil {
			t.Errorf("umount %s: %v: %s", dir, err, out)
		}
	})
	return dir
}

func remount(t *testing.T, dir, opts string) {
	t.Helper()
	if out, err := exec.Command("mount", "-o", "remount,"+opts, dir).CombinedOutput(); err != nil {
		t.Fatalf("remount %s %s: %v: %s", dir, opts, err, out)
	}
}

// TestReadOnlyMountAfterKill: an import killed in the middle leaves its
// WAL (committed games not yet in the database file); the file system is
// then made read-only. Queries must see every committed game: SQLite reads
// the WAL read-only instead of ignoring it (immutable). Needs root.
func TestReadOnlyMountAfterKill(t *testing.T) {
	longtest.Skip(t)
	mnt := tmpfs(t, "64m")
	ctx := context.Background()
	writeFile(t, mnt, "g.pdn", genText(t, "draughts", 1500, 13))
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), "PLATEAU_KILL_CHILD="+mnt)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	dbDir := filepath.Join(mnt, "db")
	var stored int
	deadline := time.Now().Add(90 * time.Second)
	for time.Now().Before(deadline) && stored < 300 {
		time.Sleep(50 * time.Millisecond)
		db, err := index.Open(ctx, dbDir, index.Options{ReadOnly: true})
		if err != nil {
			continue
		}
		db.SQL().QueryRowContext(ctx, `SELECT COUNT(*) FROM games`).Scan(&stored)
		db.Close()
	}
	cmd.Process.Kill()
	cmd.Wait()
	if stored < 300 {
		t.Fatalf("the import stored only %d games before the deadline", stored)
	}
	fi, err := os.Stat(filepath.Join(dbDir, "plateau.sqlite-wal"))
	if err != nil || fi.Size() == 0 {
		t.Skipf("the killed import left no WAL (%v): nothing to check", err)
	}
	// What a writable open sees, then the same read-only.
	db, err := index.Open(ctx, dbDir, index.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	want, err := db.Info(ctx)
	db.Close()
	if err != nil {
		t.Fatal(err)
	}
	remount(t, mnt, "ro")
	db, err = index.Open(ctx, dbDir, index.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	got, err := db.Info(ctx)
	if err != nil || len(got.Games) != 1 || got.Games[0] != want.Games[0] {
		t.Fatalf("read-only after the kill: %+v %v, before %+v", got.Games, err, want.Games)
	}
	t.Logf("%d games committed, read from the WAL on a read-only mount", got.Games[0].Valid)
}
