package index_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
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
			switch id % 4 {
			case 0, 2:
				_, err = db.Delete(ctx, []int64{id}, nil)
			case 1:
				_, err = db.SetTags(ctx, id, []record.Tag{{Name: "Event", Value: "Edited " + strconv.FormatInt(id, 10)}, {Name: "Black", Value: "Kill, Test"}})
			case 3:
				err = saveHalf(ctx, db, id)
			}
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// saveHalf saves a new revision of game id: its first half, annotated,
// the game unfinished (its later positions are no longer the game's).
func saveHalf(ctx context.Context, db *index.DB, id int64) error {
	rev, text, err := db.CurrentRevision(ctx, id)
	if err != nil {
		return err
	}
	g, err := record.NewReader(bytes.NewReader(text), "db").Next()
	if err != nil {
		return err
	}
	if len(g.Moves) < 2 {
		return nil
	}
	g.Moves = g.Moves[:len(g.Moves)/2]
	g.Moves[0].After = append(g.Moves[0].After, "Saved half")
	g.Result = "*"
	g.SetTag("Result", "*")
	g.SetTag("Termination", "")
	_, err = db.SaveRecord(ctx, id, record.Format(g), rev)
	return err
}

// savedHalves checks that each game saveHalf saved is at its first
// revision, as imported, or at its second, the half saved: never a mix.
func savedHalves(t *testing.T, db *index.DB) (saved int) {
	t.Helper()
	ctx := context.Background()
	for id := int64(51); id <= 150; id += 4 { // id%4 == 3
		rev, text, err := db.CurrentRevision(ctx, id)
		if err != nil {
			t.Fatalf("game #%d: %v", id, err)
		}
		stored, err := db.Text(ctx, id)
		half := strings.Contains(string(text), "Saved half")
		if err != nil || string(stored) != string(text) || half != (rev == 2) || rev > 2 {
			t.Errorf("game #%d at revision %d: its text is the half saved: %v (%v)", id, rev, half, err)
		}
		if half {
			saved++
		}
	}
	return saved
}

// TestKillDuringEdit kills deletes, tag edits and saves (SIGKILL), once
// between the SQLite commit and the text index's update and once at a
// random moment, and checks that the next writable open leaves a database
// equal to a fresh import of the games it holds, text index included, and
// every game saved at its old revision or its new one, never a mix.
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
	t.Logf("killed with %d games left, %d saved", s.games, savedHalves(t, db))
	r, err := db.Search(ctx, index.Query{Event: "Edited", Limit: -1, Count: true})
	if err != nil || r.Total == 0 {
		t.Errorf("no edited game found: %v", err)
	}
}
