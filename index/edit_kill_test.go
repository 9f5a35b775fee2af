package index_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/plateau/plateau/index"
	"github.com/plateau/plateau/internal/longtest"
	"github.com/plateau/plateau/record"
)

// editChild is the child process of TestKillDuringEdit (see TestMain): in
// mode "window" it deletes games 1 to 50 in one transaction and kills
// itself after the commit, before the text index is told; in mode "loop" it
// deletes and edits games one at a time until it is killed.
func editChild(dir string) int {
	ctx := context.Background()
	db, err := index.Open(ctx, filepath.Join(dir, "db"), index.Options{})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	switch os.Getenv("PLATEAU_EDIT_MODE") {
	case "window":
		index.SetAfterEditCommit(func() { syscall.Kill(os.Getpid(), syscall.SIGKILL) })
		var ids []int64
		for id := int64(1); id <= 50; id++ {
			ids = append(ids, id)
		}
		_, err = db.Delete(ctx, ids, nil)
	default:
		for id := int64(51); id <= 150 && err == nil; id++ {
			if id%2 == 0 {
				_, err = db.Delete(ctx, []int64{id}, nil)
			} else {
				_, err = db.SetTags(ctx, id, []record.Tag{{Name: "Event", Value: "Edited " + strconv.FormatInt(id, 10)}, {Name: "Black", Value: "Kill, Test"}})
			}
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// TestKillDuringEdit kills deletes and tag edits (SIGKILL), once between the
// SQLite commit and the text index's update and once at a random moment,
// and checks that the next writable open leaves a database equal to a fresh
// import of the games it holds, text index included.
func TestKillDuringEdit(t *testing.T) {
	longtest.Skip(t)
	ctx := context.Background()
	dir := t.TempDir()
	f := writeFile(t, dir, "g.pdn", genText(t, "draughts", 150, 21))
	db, err := index.Open(ctx, filepath.Join(dir, "db"), index.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := importFiles(ctx, db, []string{f}, index.ImportOptions{}); err != nil {
		t.Fatal(err)
	}
	db.Close()
	child := func(mode string) *exec.Cmd {
		cmd := exec.Command(os.Args[0], "-test.run", "^$")
		cmd.Env = append(os.Environ(), "PLATEAU_EDIT_CHILD="+dir, "PLATEAU_EDIT_MODE="+mode)
		cmd.Stderr = os.Stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		return cmd
	}
	// Between the commit and the text index.
	err = child("window").Wait()
	if ee, ok := err.(*exec.ExitError); !ok || ee.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
		t.Fatalf("the child was not killed after its commit: %v", err)
	}
	ro, err := index.Open(ctx, filepath.Join(dir, "db"), index.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	ids, err := ro.TextSearch(ctx, "game:draughts", 1000)
	ro.Close()
	if err != nil || len(ids) != 150 {
		t.Fatalf("before the repair the text index should still hold the 150 games: %d %v", len(ids), err)
	}
	db = openDB(t, filepath.Join(dir, "db"))
	if s := sameAsFresh(t, db); s.games != 100 {
		t.Errorf("%d games after deleting 50 of 150", s.games)
	}
	db.Close()

	// At a random moment of a run of deletes and edits.
	cmd := child("loop")
	deadline := time.Now().Add(60 * time.Second)
	var n int
	for time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
		ro, err := index.Open(ctx, filepath.Join(dir, "db"), index.Options{ReadOnly: true})
		if err != nil {
			continue
		}
		ro.SQL().QueryRowContext(ctx, `SELECT COUNT(*) FROM games`).Scan(&n)
		ro.Close()
		if n <= 94 {
			break
		}
	}
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	if n > 94 {
		t.Fatalf("the child deleted only %d games before the deadline", 100-n)
	}
	db = openDB(t, filepath.Join(dir, "db"))
	s := sameAsFresh(t, db)
	t.Logf("killed with %d games left", s.games)
	r, err := db.Search(ctx, index.Query{Event: "Edited", Limit: -1, Count: true})
	if err != nil || r.Total == 0 {
		t.Errorf("no edited game found: %v", err)
	}
}
