package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/plateau/plateau/index"
)

// fakeEditor is an editor script for plateau edit: its n-th run (counted
// in the folder's file n) keeps the file it is given as got-n.pdn and
// writes edit-n.pdn over it, or leaves it as it is when there is none;
// while the folder holds a file hold, it waits for the file go first.
type fakeEditor struct {
	t   *testing.T
	dir string
}

func newFakeEditor(t *testing.T) *fakeEditor {
	dir := t.TempDir()
	script := `#!/bin/sh
d='` + dir + `'
n=$(( $(cat "$d/n") + 1 ))
echo $n > "$d/n"
cp "$1" "$d/got-$n.pdn"
if [ -f "$d/hold" ]; then
	touch "$d/editing"
	while [ ! -f "$d/go" ]; do sleep 0.05; done
fi
if [ -f "$d/edit-$n.pdn" ]; then cp "$d/edit-$n.pdn" "$1"; fi
`
	path := filepath.Join(dir, "editor")
	if err := os.WriteFile(path, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("VISUAL", path)
	t.Setenv("EDITOR", "false")
	return &fakeEditor{t, dir}
}

// plan sets the texts that the next runs write (one per run; "" leaves
// the file unchanged).
func (e *fakeEditor) plan(texts ...string) {
	os.WriteFile(filepath.Join(e.dir, "n"), []byte("0\n"), 0o644)
	for i := 1; i <= 4; i++ {
		os.Remove(filepath.Join(e.dir, fmt.Sprintf("edit-%d.pdn", i)))
	}
	for i, text := range texts {
		if text != "" {
			os.WriteFile(filepath.Join(e.dir, fmt.Sprintf("edit-%d.pdn", i+1)), []byte(text), 0o644)
		}
	}
}

// got is what the editor's n-th run was given.
func (e *fakeEditor) got(n int) string {
	b, err := os.ReadFile(filepath.Join(e.dir, fmt.Sprintf("got-%d.pdn", n)))
	if err != nil {
		e.t.Fatal(err)
	}
	return string(b)
}

// withStdin runs plateau with standard input reading input.
func withStdin(t *testing.T, input string, args ...string) (stdout, stderr string, status int) {
	t.Helper()
	f := filepath.Join(t.TempDir(), "stdin")
	os.WriteFile(f, []byte(input), 0o644)
	fd, err := os.Open(f)
	if err != nil {
		t.Fatal(err)
	}
	defer fd.Close()
	saved := os.Stdin
	os.Stdin = fd
	defer func() { os.Stdin = saved }()
	return plateau(t, args...)
}

// TestEditCommand: plateau edit opens the game's canonical record in the
// editor and saves what it leaves as a new revision; an unchanged file
// saves nothing; an invalid record is shown with its line and may be
// edited again, saved invalid or abandoned; history lists the revisions
// and export --revision prints each.
func TestEditCommand(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "db")
	mustRun(t, "import", "--db", db, genFile(t, dir, "draughts", 5))
	ed := newFakeEditor(t)
	first := mustRun(t, "export", "--db", db, "2")
	edited := strings.Replace(first, "[Event ", "[Annotator \"Zéphyrin\"]\n[Event ", 1)
	edited = strings.Replace(edited, "\n1. ", "\n{A quiet opening.} 1. ", 1)
	broken := strings.Replace(first, "\n1. ", "\n1. 46-51 ", 1)

	ed.plan("")
	if out := mustRun(t, "edit", "--db", db, "2"); !strings.Contains(out, "unchanged: nothing saved") || ed.got(1) != first {
		t.Errorf("unchanged edit: %q; the editor was given\n%s", out, ed.got(1))
	}
	ed.plan(edited)
	out := mustRun(t, "edit", "--db", db, "2")
	if !strings.Contains(out, "#2: revision 2 saved (tags Annotator; comments 0→1)") {
		t.Errorf("edit: %q", out)
	}
	second := mustRun(t, "export", "--db", db, "2")
	// Broken, then edited again into a valid record.
	ed.plan(broken, strings.Replace(edited, "Zéphyrin", "Zoé", 1))
	out, errOut, st := withStdin(t, "\n", "edit", "--db", db, "2")
	if st != exitOK || !regexp.MustCompile(`#2: line \d+, column \d+: .*46-51`).MatchString(errOut) ||
		!strings.Contains(errOut, "(e)dit again, (s)ave it invalid, (a)bort?") || !strings.Contains(out, "revision 3 saved") || ed.got(2) != broken {
		t.Errorf("edit again: status %d\n%s%s", st, out, errOut)
	}
	// Broken and abandoned: nothing saved.
	ed.plan(broken)
	if out, errOut, st := withStdin(t, "a\n", "edit", "--db", db, "2"); st != exitInvalid || !strings.Contains(errOut, "aborted") {
		t.Errorf("abort: status %d\n%s%s", st, out, errOut)
	}
	// Broken and saved invalid: kept with its error.
	ed.plan(broken)
	out, errOut, st = withStdin(t, "s\n", "edit", "--db", db, "2")
	if st != exitInvalid || !strings.Contains(out, "revision 4 saved invalid") {
		t.Errorf("save invalid: status %d\n%s%s", st, out, errOut)
	}
	fourth, _, _ := plateau(t, "export", "--db", db, "2") // invalid: exit status 1
	if !strings.Contains(fourth, "1. 46-51 ") {
		t.Errorf("the record saved invalid is not kept as written:\n%s", fourth)
	}
	if errs := mustRun(t, "errors", "--db", db); !strings.Contains(errs, "#2") {
		t.Errorf("errors does not list the game saved invalid:\n%s", errs)
	}
	hist := mustRun(t, "history", "--db", db, "2")
	if !regexp.MustCompile(`(?m)^  +1  -  .*valid +imported from .*draughts.pdn:\d+$`).MatchString(hist) ||
		!regexp.MustCompile(`(?m)^\*    4  \d{4}-\d\d-\d\d \d\d:\d\d:\d\d .* invalid `).MatchString(hist) || strings.Count(hist, "\n") != 5 {
		t.Errorf("history:\n%s", hist)
	}
	for rev, want := range map[string]string{"1": first, "2": second, "4": fourth} {
		if got := mustRun(t, "export", "--db", db, "2", "--revision", rev); got != want {
			t.Errorf("export --revision %s:\n%s\nwant\n%s", rev, got, want)
		}
	}
	if _, errOut, st := plateau(t, "export", "--db", db, "2", "--revision", "9"); st != exitUsage || !strings.Contains(errOut, "no revision 9") {
		t.Errorf("export --revision 9: %d %s", st, errOut)
	}
}

// TestEditConflict: a game saved by another writer while plateau edit
// waits for its editor is not overwritten: the edit saves nothing, says
// so and keeps the text edited in a file it names.
func TestEditConflict(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "db")
	mustRun(t, "import", "--db", db, genFile(t, dir, "draughts", 3))
	ed := newFakeEditor(t)
	first := mustRun(t, "export", "--db", db, "1")
	mine := strings.Replace(first, "[Event ", "[Round \"mine\"]\n[Event ", 1)
	ed.plan(mine)
	os.WriteFile(filepath.Join(ed.dir, "hold"), nil, 0o644)
	type result struct {
		out, errOut string
		st          int
	}
	done := make(chan result)
	go func() {
		out, errOut, st := plateau(t, "edit", "--db", db, "1")
		done <- result{out, errOut, st}
	}()
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if _, err := os.Stat(filepath.Join(ed.dir, "editing")); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the editor did not start")
		}
	}
	ctx := context.Background()
	other, err := index.Open(ctx, db, index.Options{})
	if err != nil {
		t.Fatal(err)
	}
	theirs := strings.Replace(first, "[Event ", "[Round \"theirs\"]\n[Event ", 1)
	if _, err := other.SaveRecord(ctx, 1, []byte(theirs), 1); err != nil {
		t.Fatal(err)
	}
	other.Close()
	os.WriteFile(filepath.Join(ed.dir, "go"), nil, 0o644)
	r := <-done
	m := regexp.MustCompile(`your text is in (\S+)`).FindStringSubmatch(r.errOut)
	if r.st != exitInvalid || !strings.Contains(r.errOut, "saved by someone else meanwhile (revision 2; you edited revision 1)") || m == nil {
		t.Fatalf("conflict: status %d\n%s%s", r.st, r.out, r.errOut)
	}
	kept, err := os.ReadFile(m[1])
	os.Remove(m[1])
	if err != nil || string(kept) != mine {
		t.Errorf("the text edited is not kept: %v\n%s", err, kept)
	}
	if got := mustRun(t, "export", "--db", db, "1"); !strings.Contains(got, `[Round "theirs"]`) {
		t.Errorf("the other save was overwritten:\n%s", got)
	}
}

// TestAddCommand: plateau add stores the records of a file or of standard
// input as new games, names those already stored and keeps an invalid
// one with its error (exit status 1).
func TestAddCommand(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "db")
	f := genFile(t, dir, "draughts", 4)
	mustRun(t, "import", "--db", db, f)
	data, _ := os.ReadFile(f)
	recs := strings.SplitAfter(string(data), "\n\n[Game")
	fresh := strings.Replace(string(data[:len(recs[0])-len("[Game")]), "[Event ", "[Round \"added\"]\n[Event ", 1)
	file := filepath.Join(dir, "new.pdn")
	os.WriteFile(file, []byte(fresh+"\n"+string(data)), 0o644) // a new game, then the four stored
	out := mustRun(t, "add", "--db", db, file)
	if !strings.Contains(out, "#5 added\n") || strings.Count(out, "already stored as #") != 4 ||
		!strings.Contains(out, "1 games added (0 invalid), 4 already stored") {
		t.Errorf("add FILE:\n%s", out)
	}
	broken := strings.Replace(fresh, "\n1. ", "\n1. 46-51 ", 1)
	broken = strings.Replace(broken, `"added"`, `"broken"`, 1)
	out, errOut, st := withStdin(t, broken, "add", "--db", db, "-")
	if st != exitInvalid || !regexp.MustCompile(`#6 added, invalid: line \d+, column \d+: `).MatchString(out) {
		t.Errorf("add - of a broken record: status %d\n%s%s", st, out, errOut)
	}
	if h := mustRun(t, "history", "--db", db, "5"); !regexp.MustCompile(`(?m)^\*    1  \d{4}-.* valid +added$`).MatchString(h) {
		t.Errorf("history of an added game:\n%s", h)
	}
	if errs := mustRun(t, "errors", "--db", db); !strings.Contains(errs, "add:") {
		t.Errorf("errors does not name the add:\n%s", errs)
	}
	if got := mustRun(t, "search", "--db", db, "--format", "ids", "--tag", "Round=added"); strings.TrimSpace(got) != "5" {
		t.Errorf("search of the added game: %q", got)
	}
}
