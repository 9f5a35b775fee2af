package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/plateau/plateau/internal/longtest"
)

// TestImportDiskFull imports into a full tmpfs (as root; skipped
// otherwise): the error names the cause and the file (it said
// "interrupted") and says how many games were kept; on a read-only remount
// the queries work and the writing commands refuse, saying why.
func TestImportDiskFull(t *testing.T) {
	longtest.Skip(t)
	if os.Geteuid() != 0 {
		t.Skip("mounting a tmpfs needs root: the full and read-only disks are not checked in this run")
	}
	dir := t.TempDir()
	file := genFile(t, dir, "draughts", 1000)
	mnt := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", mnt).CombinedOutput(); err != nil {
		t.Skipf("cannot mount a tmpfs (%v: %s): not checked in this run", err, out)
	}
	defer exec.Command("umount", mnt).Run()
	db := filepath.Join(mnt, "db")
	_, errOut, status := plateau(t, "import", "--db", db, file)
	if status != exitUsage {
		t.Fatalf("import on a full disk: status %d, %s", status, errOut)
	}
	for _, want := range []string{"no space left on device", filepath.Join(db, "plateau.sqlite"), "0 were committed"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("import on a full disk: %q does not say %q", errOut, want)
		}
	}
	if strings.Contains(errOut, "interrupted") {
		t.Errorf("import on a full disk: %q", errOut)
	}

	if out, err := exec.Command("mount", "-o", "remount,size=64m", mnt).CombinedOutput(); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	mustRun(t, "import", "--db", db, file)
	if out, err := exec.Command("mount", "-o", "remount,ro", mnt).CombinedOutput(); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	for _, args := range [][]string{{"info"}, {"search", "--text", "game:draughts", "--count"}, {"tree", "--game", "draughts"}} {
		out := mustRun(t, append(args, "--db", db)...)
		if !strings.Contains(out, "1000") {
			t.Errorf("%v on a read-only mount: %s", args, out)
		}
	}
	for _, args := range [][]string{{"import", file}, {"reindex"}} {
		_, errOut, status := plateau(t, append(args, "--db", db)...)
		if status != exitUsage || !strings.Contains(errOut, "read-only") || !strings.Contains(errOut, "queries") {
			t.Errorf("%v on a read-only mount: status %d, %s", args, status, errOut)
		}
	}
}
