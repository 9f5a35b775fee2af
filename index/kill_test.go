package index_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"syscall"
	"testing"
	"time"

	"github.com/plateau/plateau/index"
	"github.com/plateau/plateau/internal/longtest"
)

// TestMain runs the child process of TestKillDuringImport and
// TestTextQueryDuringImport when the environment names its folder: it
// imports the file there, committing small transactions, until it is killed
// or done. Otherwise it runs the tests.
func TestMain(m *testing.M) {
	if dir := os.Getenv("PLATEAU_EDIT_CHILD"); dir != "" {
		os.Exit(editChild(dir)) // edit_kill_test.go
	}
	if dir := os.Getenv("PLATEAU_COMPACT_CHILD"); dir != "" {
		os.Exit(compactChild(dir))
	}
	if dir := os.Getenv("PLATEAU_KILL_CHILD"); dir != "" {
		if os.Getenv("PLATEAU_KILL_BULK") != "" {
			index.SetBulk(1, nil) // any file: the import is bulk (internal/writer/bulk.go)
		}
		db, err := index.Open(context.Background(), filepath.Join(dir, "db"), index.Options{})
		if err == nil {
			_, err = importFiles(context.Background(), db, []string{filepath.Join(dir, "g.pdn")}, index.ImportOptions{TxGames: 100})
		}
		if err == nil {
			err = db.Close()
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// TestKillDuringImport kills an import (SIGKILL) in the middle, checks that
// the database is consistent (no half-written game: every stored game has
// its positions, opening-tree rows and players' lines), then runs the import again and
// checks that it completes, text index included. A bulk import is killed
// with the games' player and date indexes out (bulk.go) and its tree moves
// spooled: the next writable open builds them and settles the moves.
func TestKillDuringImport(t *testing.T) {
	longtest.Skip(t)
	t.Run("normal", func(t *testing.T) { testKillDuringImport(t, false) })
	t.Run("bulk", func(t *testing.T) { testKillDuringImport(t, true) })
}

func testKillDuringImport(t *testing.T, bulk bool) {
	const n = 3000
	ctx := context.Background()
	dir := t.TempDir()
	writeFile(t, dir, "g.pdn", genText(t, "draughts", n, 9))
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), "PLATEAU_KILL_CHILD="+dir)
	if bulk {
		cmd.Env = append(cmd.Env, "PLATEAU_KILL_BULK=1")
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// Wait until some games are committed, then kill.
	var stored int
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
		db, err := index.Open(ctx, filepath.Join(dir, "db"), index.Options{ReadOnly: true})
		if err != nil {
			continue
		}
		db.SQL().QueryRowContext(ctx, `SELECT COUNT(*) FROM games`).Scan(&stored)
		db.Close()
		if stored >= 300 {
			break
		}
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	if stored < 300 {
		t.Fatalf("the child stored only %d games before the deadline", stored)
	}
	if ro, err := index.Open(ctx, filepath.Join(dir, "db"), index.Options{ReadOnly: true}); err != nil {
		t.Fatal(err)
	} else {
		m, err := index.MissingIndexes(ctx, ro)
		spooled, serr := index.SpooledRows(ctx, ro)
		ro.Close()
		if err != nil || serr != nil {
			t.Fatal(err, serr)
		}
		// The bulk import spools its tree moves (any file is large
		// enough): the writable open below settles them.
		if bulk && spooled == 0 {
			t.Fatalf("killed bulk import: no tree moves spooled")
		}
		if want := map[bool]int{false: 0, true: 4}[bulk]; len(m) != want {
			t.Fatalf("killed (bulk %v): %d indexes out %v, want %d", bulk, len(m), m, want)
		}
	}
	db := openDB(t, filepath.Join(dir, "db"))
	if m, err := index.MissingIndexes(ctx, db); err != nil || len(m) != 0 {
		t.Fatalf("a writable open after the kill left %v out (%v)", m, err)
	}
	check := func(stage string) int {
		var ok string
		if err := db.SQL().QueryRowContext(ctx, `PRAGMA integrity_check`).Scan(&ok); err != nil || ok != "ok" {
			t.Fatalf("%s: integrity: %s %v", stage, ok, err)
		}
		var games, withPos int
		db.SQL().QueryRowContext(ctx, `SELECT COUNT(*) FROM games WHERE valid = 1`).Scan(&games)
		withPos = gamesWithPositions(t, db)
		if games != withPos {
			t.Fatalf("%s: %d games but %d with positions", stage, games, withPos)
		}
		samePlayerLines(t, db) // every stored game's lines, no other
		start, _ := index.Position("draughts", "")
		tree, err := db.Tree(ctx, "draughts", start)
		if err != nil {
			t.Fatal(err)
		}
		sum := 0
		for _, m := range tree {
			sum += m.Games
		}
		if sum != games {
			t.Fatalf("%s: opening tree counts %d games, the store %d", stage, sum, games)
		}
		// The start position's count, from the runs' key counts, is that
		// of its stored occurrences.
		res, err := db.Search(ctx, index.Query{Game: "draughts", Position: start, Limit: 1, Count: true})
		if want := startOccurrences(t, db); err != nil || res.Total != want {
			t.Fatalf("%s: the start position counted %d (%v), stored %d times", stage, res.Total, err, want)
		}
		return games
	}
	before := check("after kill")
	t.Logf("killed after %d games committed (of %d)", before, n)
	st, err := importFiles(ctx, db, []string{filepath.Join(dir, "g.pdn")}, index.ImportOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if st.Duplicates != before || st.Stored != n-before {
		t.Fatalf("re-import: %+v (had %d)", st, before)
	}
	if after := check("after re-import"); after != n {
		t.Fatalf("after re-import: %d games, want %d", after, n)
	}
	ids, err := db.TextSearch(ctx, "game:draughts", 10*n)
	if err != nil {
		t.Fatal(err)
	}
	if len(ids) != n {
		t.Fatalf("text index holds %d games, want %d", len(ids), n)
	}
}

// compactChild compacts the database of dir slowly, until killed.
func compactChild(dir string) int {
	db, err := index.Open(context.Background(), filepath.Join(dir, "db"), index.Options{})
	if err == nil {
		index.SlowCompaction(db, 5*time.Millisecond)
		_, err = db.CompactPositions(context.Background(), nil)
		err = errors.Join(err, db.Close())
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// TestKillDuringCompact kills a compaction (SIGKILL) after it has
// committed some of the merged run's blocks: the runs readers see and
// their occurrences are as before; the next compaction deletes the blocks
// left behind and ends with one run holding the same occurrences.
func TestKillDuringCompact(t *testing.T) {
	longtest.Skip(t)
	ctx := context.Background()
	dir := t.TempDir()
	file := writeFile(t, dir, "g.pdn", genText(t, "ogi", 1500, 12))
	db := openDB(t, filepath.Join(dir, "db"))
	if _, err := importFiles(ctx, db, []string{file}, index.ImportOptions{TxGames: 20, Workers: 2}); err != nil {
		t.Fatal(err)
	}
	scan := func() (all [][4]int64) {
		err := db.ScanPositions(ctx, func(key, game int64, ply, vari int) error {
			all = append(all, [4]int64{key, game, int64(ply), int64(vari)})
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		return all
	}
	count := func(q string) (n int64) {
		if err := db.SQL().QueryRowContext(ctx, q).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	const (
		runsQ    = `SELECT COUNT(*) FROM pos_runs`
		orphansQ = `SELECT COUNT(*) FROM pos_blocks WHERE run NOT IN (SELECT run FROM pos_runs)`
	)
	want, runs := scan(), count(runsQ)
	if runs < 2 {
		t.Fatalf("%d runs: nothing to compact", runs)
	}

	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), "PLATEAU_COMPACT_CHILD="+dir)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	// Kill once some merged blocks are committed.
	deadline := time.Now().Add(60 * time.Second)
	for count(orphansQ) < 20 {
		select {
		case err := <-exited:
			t.Fatalf("the compaction ended before it was killed: %v", err)
		default:
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatal("the compaction committed no block within a minute")
		}
		time.Sleep(10 * time.Millisecond)
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	<-exited
	orphans := count(orphansQ)
	if got := scan(); count(runsQ) != runs || !slices.Equal(got, want) || orphans < 20 {
		t.Fatalf("after the kill: %d runs (%d before), %d occurrences (%d before), %d blocks left behind",
			count(runsQ), runs, len(got), len(want), orphans)
	}
	st, err := db.CompactPositions(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := scan(); st.Runs != int(runs) || count(runsQ) != 1 || count(orphansQ) != 0 || !slices.Equal(got, want) {
		t.Fatalf("the next compaction: %+v, %d runs, %d blocks left behind, %d occurrences (%d before)",
			st, count(runsQ), count(orphansQ), len(got), len(want))
	}
}

// TestTextQueryDuringImport runs text queries from a read-only database
// while another process imports into it: each must answer (not fail with
// ErrTextBusy) with the games indexed so far, while the import goes on.
func TestTextQueryDuringImport(t *testing.T) {
	longtest.Skip(t)
	const n = 4000
	ctx := context.Background()
	dir := t.TempDir()
	writeFile(t, dir, "g.pdn", genText(t, "draughts", n, 11))
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), "PLATEAU_KILL_CHILD="+dir)
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	running := func() bool {
		select {
		case err := <-done:
			done <- err
			return false
		default:
			return true
		}
	}
	during, last := 0, 0
	deadline := time.Now().Add(90 * time.Second)
	for running() && time.Now().Before(deadline) {
		time.Sleep(30 * time.Millisecond)
		db, err := index.Open(ctx, filepath.Join(dir, "db"), index.Options{ReadOnly: true})
		if err != nil {
			continue // not created yet
		}
		var stored int
		db.SQL().QueryRowContext(ctx, `SELECT COUNT(*) FROM games`).Scan(&stored)
		ids, err := db.TextSearch(ctx, "game:draughts", 10*n)
		if errors.Is(err, index.ErrNotFound) {
			db.Close() // no text index yet
			continue
		}
		if err != nil {
			db.Close()
			t.Fatalf("text query during the import (%d games stored): %v", stored, err)
		}
		res, err := db.Search(ctx, index.Query{Text: "game:draughts", Limit: 1, Count: true})
		db.Close()
		if err != nil {
			t.Fatalf("search with a text criterion during the import: %v", err)
		}
		if running() && len(ids) > 0 && len(ids) < n {
			during++
			if len(ids) < last {
				t.Fatalf("the text index went from %d games to %d", last, len(ids))
			}
			last = len(ids)
			if res.Total < len(ids) {
				t.Fatalf("search counts %d games, the text index %d", res.Total, len(ids))
			}
		}
	}
	if running() {
		cmd.Process.Kill()
		t.Fatal("the import did not finish in time")
	}
	if err := <-done; err != nil {
		t.Fatalf("import: %v", err)
	}
	if during < 3 {
		t.Fatalf("only %d text queries answered while the import ran", during)
	}
	t.Logf("%d text queries answered during the import (last saw %d of %d games)", during, last, n)
	db, err := index.Open(ctx, filepath.Join(dir, "db"), index.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ids, err := db.TextSearch(ctx, "game:draughts", 10*n)
	if err != nil || len(ids) != n {
		t.Fatalf("after the import: %d games, %v", len(ids), err)
	}
}

// gamesWithPositions counts the valid games with position occurrences.
func gamesWithPositions(t *testing.T, db *index.DB) int {
	t.Helper()
	seen := map[int64]bool{}
	if err := db.ScanPositions(context.Background(), func(key, game int64, ply, vari int) error {
		seen[game] = true
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return len(seen)
}

// startOccurrences counts the stored occurrences of the key of the
// games' start positions (their main lines' ply 0; one start).
func startOccurrences(t *testing.T, db *index.DB) int {
	t.Helper()
	byKey := map[int64]int{}
	start := int64(0)
	if err := db.ScanPositions(context.Background(), func(key, game int64, ply, vari int) error {
		byKey[key]++
		if ply == 0 && vari == 0 {
			start = key
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return byKey[start]
}
