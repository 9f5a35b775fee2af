package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/plateau/plateau/index"
)

// TestMain runs plateau itself when PLATEAU_MAIN_ARGS holds its arguments
// (one per line), for the tests that signal a real process.
// A plateau process under test that starts itself again (bench starts
// `plateau bench-probe`) starts the test binary: it runs plateau too.
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == "bench-probe" {
		os.Exit(run(append([]string{"plateau"}, os.Args[1:]...), os.Stdout, os.Stderr))
	}
	if a := os.Getenv("PLATEAU_MAIN_ARGS"); a != "" {
		os.Exit(run(append([]string{"plateau"}, strings.Split(a, "\n")...), os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

// TestImportInterrupt sends SIGINT to an import in a child process: it stops
// cleanly, says how many games were committed (exactly those the database
// holds) and how to resume, and running the same import again completes it.
func TestImportInterrupt(t *testing.T) {
	const n = 2500
	dir := t.TempDir()
	db := filepath.Join(dir, "db")
	f := genFile(t, dir, "draughts", n)
	cmd := exec.Command(os.Args[0], "-test.run", "^$")
	cmd.Env = append(os.Environ(), "PLATEAU_MAIN_ARGS="+strings.Join([]string{"import", "--db", db, "--tx", "100", "--workers", "1", f}, "\n"))
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	stored := 0
	for deadline := time.Now().Add(60 * time.Second); time.Now().Before(deadline) && stored < 200; {
		time.Sleep(20 * time.Millisecond)
		if d, err := index.Open(ctx, db, index.Options{ReadOnly: true}); err == nil {
			d.SQL().QueryRowContext(ctx, `SELECT COUNT(*) FROM games`).Scan(&stored)
			d.Close()
		}
	}
	cmd.Process.Signal(syscall.SIGINT)
	err := cmd.Wait()
	ee, ok := err.(*exec.ExitError)
	if !ok || ee.ExitCode() != exitUsage {
		t.Fatalf("interrupted import: %v\n%s%s", err, out.String(), errOut.String())
	}
	m := regexp.MustCompile(`interrupted: (\d+) games committed.*run the same import again to resume`).FindStringSubmatch(errOut.String())
	if m == nil {
		t.Fatalf("the interrupt message does not say what was committed and how to resume:\n%s", errOut.String())
	}
	committed, _ := strconv.Atoi(m[1])
	d, err := index.Open(ctx, db, index.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	var inDB int
	d.SQL().QueryRowContext(ctx, `SELECT COUNT(*) FROM games`).Scan(&inDB)
	d.Close()
	if committed != inDB || committed == 0 || committed >= n {
		t.Fatalf("the message says %d games committed, the database holds %d (of %d)", committed, inDB, n)
	}
	t.Logf("interrupted after %d games committed", committed)
	res := mustRun(t, "import", "--db", db, f)
	if !strings.Contains(res, strconv.Itoa(n-committed)+" stored") || !strings.Contains(res, strconv.Itoa(committed)+" duplicates") {
		t.Errorf("resumed import:\n%s", res)
	}
}
