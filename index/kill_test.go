package index_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/plateau/plateau/index"
)

// TestMain runs the child process of TestKillDuringImport when the
// environment names its folder: it imports the file there, committing small
// transactions, until it is killed. Otherwise it runs the tests.
func TestMain(m *testing.M) {
	if dir := os.Getenv("PLATEAU_KILL_CHILD"); dir != "" {
		db, err := index.Open(context.Background(), filepath.Join(dir, "db"), index.Options{})
		if err == nil {
			_, err = db.Import(context.Background(), []string{filepath.Join(dir, "g.pdn")}, index.ImportOptions{TxGames: 100})
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
// its positions and opening-tree rows), then runs the import again and
// checks that it completes, text index included.
func TestKillDuringImport(t *testing.T) {
	const n = 3000
	ctx := context.Background()
	dir := t.TempDir()
	writeFile(t, dir, "g.pdn", genText(t, "draughts", n, 9))
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), "PLATEAU_KILL_CHILD="+dir)
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
	db := openDB(t, filepath.Join(dir, "db"))
	check := func(stage string) int {
		var ok string
		if err := db.SQL().QueryRowContext(ctx, `PRAGMA integrity_check`).Scan(&ok); err != nil || ok != "ok" {
			t.Fatalf("%s: integrity: %s %v", stage, ok, err)
		}
		var games, withPos int
		db.SQL().QueryRowContext(ctx, `SELECT COUNT(*) FROM games WHERE valid = 1`).Scan(&games)
		db.SQL().QueryRowContext(ctx, `SELECT COUNT(DISTINCT game) FROM positions`).Scan(&withPos)
		if games != withPos {
			t.Fatalf("%s: %d games but %d with positions", stage, games, withPos)
		}
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
		return games
	}
	before := check("after kill")
	t.Logf("killed after %d games committed (of %d)", before, n)
	st, err := db.Import(ctx, []string{filepath.Join(dir, "g.pdn")}, index.ImportOptions{})
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
