package index_test

import (
	"context"
	"errors"
	"maps"
	"path/filepath"
	"testing"

	"github.com/plateau/plateau/index"
)

// treeState is every row of a database's opening-tree aggregate: tree,
// tree_months and the players' counts, as text.
type treeState struct {
	rows, months map[string]string
	players      map[string]int
}

func readTree(t *testing.T, db *index.DB) treeState {
	t.Helper()
	ctx := context.Background()
	var s treeState
	var err error
	if s.rows, err = index.TreeRows(ctx, db); err != nil {
		t.Fatal(err)
	}
	if s.months, err = index.MonthRows(ctx, db); err != nil {
		t.Fatal(err)
	}
	if s.players, err = index.TreePlayers(ctx, db); err != nil {
		t.Fatal(err)
	}
	if _, err := index.CheckTreeTops(ctx, db); err != nil {
		t.Fatal(err)
	}
	return s
}

// sameTree fails t unless got's rows are want's.
func sameTree(t *testing.T, stage string, got, want treeState) {
	t.Helper()
	if len(want.rows) == 0 || len(want.months) == 0 || len(want.players) == 0 {
		t.Fatalf("%s: the reference tree is empty: the test compares nothing", stage)
	}
	for name, pair := range map[string][2]map[string]string{"tree": {got.rows, want.rows}, "tree_months": {got.months, want.months}} {
		if !maps.Equal(pair[0], pair[1]) {
			n := 0
			for k, v := range pair[1] {
				if pair[0][k] != v {
					n++
					if n <= 3 {
						t.Errorf("%s: %s %q: %q, want %q", stage, name, k, pair[0][k], v)
					}
				}
			}
			t.Fatalf("%s: %s has %d rows, want %d; %d differ", stage, name, len(pair[0]), len(pair[1]), n)
		}
	}
	if !maps.Equal(got.players, want.players) {
		t.Fatalf("%s: the tree's player counts differ (%d, want %d)", stage, len(got.players), len(want.players))
	}
}

// readOnly opens the database of path for queries only (which never
// settles the tree).
func readOnly(t *testing.T, path string) *index.DB {
	t.Helper()
	db, err := index.Open(context.Background(), path, index.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// startGames is the number of games the opening tree of the start
// position counts.
func startGames(t *testing.T, db *index.DB, game string) int {
	t.Helper()
	start, err := index.Position(game, "")
	if err != nil {
		t.Fatal(err)
	}
	tree, err := db.Tree(context.Background(), game, start)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, m := range tree {
		n += m.Games
	}
	return n
}

func validGames(t *testing.T, db *index.DB) int {
	t.Helper()
	var n int
	if err := db.SQL().QueryRow(`SELECT COUNT(*) FROM games WHERE valid = 1`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// treeSpoolFiles writes two files of generated games of a ruleset and
// returns them with the tree of a database that imported them without a
// bulk import.
func treeSpoolFiles(t *testing.T, dir, game string) (files []string, want treeState) {
	t.Helper()
	files = []string{writeFile(t, dir, "a.pdn", genText(t, game, 400, 21)), writeFile(t, dir, "b.pdn", genText(t, game, 60, 22))}
	restore := index.SetBulk(1<<40, nil)
	defer restore()
	ref := openDB(t, filepath.Join(dir, "ref"))
	for _, f := range files {
		if _, err := importFiles(context.Background(), ref, []string{f}, index.ImportOptions{TxGames: 37}); err != nil {
			t.Fatal(err)
		}
	}
	return files, readTree(t, ref)
}

// TestBulkTreeSpool: a bulk import spools its games' opening-tree moves
// and adds them to the tree a group at a time and at its end: the tree,
// its months and its players' counts are those of imports that add them
// at each commit. Readers during the import see the tree of the games
// settled: never more than the games committed, never fewer than those
// committed but a group and a transaction. A later import that is not
// bulk adds to the tree at each commit, on top. Ōgi, and draughts
// (whose moves are numbers and whose results score 2-0).
func TestBulkTreeSpool(t *testing.T) {
	for _, game := range []string{"ogi", "draughts"} {
		t.Run(game, func(t *testing.T) { testBulkTreeSpool(t, game) })
	}
}

func testBulkTreeSpool(t *testing.T, game string) {
	ctx := context.Background()
	dir := t.TempDir()
	files, want := treeSpoolFiles(t, dir, game)
	const group, tx = 600, 37 // entries (TreeDepth a game), games
	var db *index.DB
	commits, before, grew := 0, 0, 0
	restore := index.SetTreeSpool(group, nil, func() {
		commits++
		settled, committed := startGames(t, db, game), validGames(t, db)
		if settled > committed || committed-settled > group/index.TreeDepth+committed-before {
			t.Errorf("after commit %d: the tree counts %d games of %d committed (%d before the commit)", commits, settled, committed, before)
		}
		if settled > 0 {
			grew++
		}
		before = committed
	})
	defer restore()
	defer index.SetBulk(1, nil)()
	db = openDB(t, filepath.Join(dir, "bulk"))
	if _, err := importFiles(ctx, db, files[:1], index.ImportOptions{TxGames: tx}); err != nil {
		t.Fatal(err)
	}
	if grew == 0 || grew == commits {
		t.Errorf("the tree counted games after %d of %d commits: nothing settled during the import, or nothing spooled", grew, commits)
	}
	if n, err := index.SpooledRows(ctx, db); err != nil || n != 0 {
		t.Fatalf("after the import, %d spool rows (%v)", n, err)
	}
	index.SetBulk(1<<40, nil)
	if _, err := importFiles(ctx, db, files[1:], index.ImportOptions{TxGames: tx}); err != nil {
		t.Fatal(err)
	}
	sameTree(t, "bulk then not", readTree(t, db), want)
}

// TestTreeSpoolInterrupted: a bulk import stopped after its last commit,
// before it adds its spooled moves to the tree, leaves them spooled
// (a read-only open sees the tree without them); a removal in that state
// settles them first, and so does the next writable open, or the next
// import while an import holds the lock.
func TestTreeSpoolInterrupted(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	files, want := treeSpoolFiles(t, dir, "ogi")
	defer index.SetBulk(1, nil)()
	interrupted := func(name string) string {
		cctx, cancel := context.WithCancel(ctx)
		defer cancel()
		restore := index.SetTreeSpool(0, cancel, nil)
		defer restore()
		path := filepath.Join(dir, name)
		db := openDB(t, path)
		if _, err := importFiles(cctx, db, files[:1], index.ImportOptions{TxGames: 37}); !errors.Is(err, context.Canceled) {
			t.Fatalf("import: %v, want it cancelled before the tree settles", err)
		}
		if n, err := index.SpooledRows(ctx, db); err != nil || n == 0 {
			t.Fatalf("interrupted: %d spool rows (%v)", n, err)
		}
		db.Close()
		ro := readOnly(t, path)
		if n, v := startGames(t, ro, "ogi"), validGames(t, ro); n != 0 || v != 400 {
			t.Fatalf("interrupted: the tree counts %d games of %d, want none of 400", n, v)
		}
		return path
	}

	t.Run("open", func(t *testing.T) {
		db := openDB(t, interrupted("open"))
		if n, err := index.SpooledRows(ctx, db); err != nil || n != 0 {
			t.Fatalf("after a writable open, %d spool rows (%v)", n, err)
		}
		if _, err := importFiles(ctx, db, files[1:], index.ImportOptions{TxGames: 37}); err != nil {
			t.Fatal(err)
		}
		sameTree(t, "open", readTree(t, db), want)
	})
	t.Run("import", func(t *testing.T) {
		path := interrupted("import")
		release, err := index.HoldImportLock(readOnly(t, path))
		if err != nil || release == nil {
			t.Fatalf("import lock: %v", err)
		}
		db := openDB(t, path) // leaves the spool to the import
		release()
		if n, err := index.SpooledRows(ctx, db); err != nil || n == 0 {
			t.Fatalf("an open while an import runs settled the tree (%d rows, %v)", n, err)
		}
		if _, err := importFiles(ctx, db, files[1:], index.ImportOptions{TxGames: 37}); err != nil {
			t.Fatal(err)
		}
		sameTree(t, "import", readTree(t, db), want)
	})
	t.Run("delete", func(t *testing.T) {
		path := interrupted("delete")
		release, err := index.HoldImportLock(readOnly(t, path))
		if err != nil || release == nil {
			t.Fatalf("import lock: %v", err)
		}
		db := openDB(t, path)
		if n, err := index.SpooledRows(ctx, db); err != nil || n == 0 {
			t.Fatalf("an open while an import runs settled the tree (%d rows, %v)", n, err)
		}
		ref := openDB(t, filepath.Join(dir, "ref"))
		for _, d := range []*index.DB{db, ref} {
			if n, err := d.Delete(ctx, []int64{5, 300}, nil); err != nil || n != 2 {
				t.Fatalf("delete: %d (%v)", n, err)
			}
		}
		release()
		if n, err := index.SpooledRows(ctx, db); err != nil || n != 0 {
			t.Fatalf("after a delete, %d spool rows (%v)", n, err)
		}
		if _, err := importFiles(ctx, db, files[1:], index.ImportOptions{TxGames: 37}); err != nil {
			t.Fatal(err)
		}
		sameTree(t, "delete", readTree(t, db), readTree(t, ref))
	})
}
