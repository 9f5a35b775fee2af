package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// importSamples imports two sample folders (one of them broken records)
// into a new database and returns its directory.
func importSamples(t *testing.T) string {
	t.Helper()
	db := filepath.Join(t.TempDir(), "db")
	mustRun(t, "import", "--db", db, "-q", "../../samples/ogi", "../../samples/broken")
	return db
}

// firstID is the id of the first hit of a search.
func firstID(t *testing.T, out string) string {
	t.Helper()
	m := regexp.MustCompile(`(?m)^(\d+)\s`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("no hit in:\n%s", out)
	}
	return m[1]
}

// TestGameByID: show and export open a game of the database by its id, as
// a file; --db may come before the command.
func TestGameByID(t *testing.T) {
	db := importSamples(t)
	id := firstID(t, mustRun(t, "search", "--db", db, "--player", "komayo"))
	text := mustRun(t, "--db", db, "export", id)
	if !strings.Contains(text, `[Game "ogi"]`) || !strings.Contains(text, "Komay") {
		t.Fatalf("export %s:\n%s", id, text)
	}
	// The exported record shows as the database game does.
	f := filepath.Join(t.TempDir(), "g.pdn")
	os.WriteFile(f, []byte(text), 0o644)
	fromFile := mustRun(t, "show", f)
	for _, args := range [][]string{
		{"show", "--db", db, id},
		{"--db", db, "show", "#" + id},
		{"show", "#" + id, "--db", db},
	} {
		if got := mustRun(t, args...); got != fromFile {
			t.Errorf("%v:\n%s\nwant (the exported file):\n%s", args, got, fromFile)
		}
	}
	if out := mustRun(t, "show", "--db", db, "--ply", "2", id); !strings.Contains(out, "ply 2,") {
		t.Errorf("show --ply 2 %s:\n%s", id, out)
	}
	// Files and ids mix in one export, in argument order.
	both := mustRun(t, "export", "--db", db, id, f, id)
	if strings.Count(both, `[Game "ogi"]`) != 3 {
		t.Errorf("export ID FILE ID:\n%s", both)
	}

	// A broken game exports as written and says why, with its id.
	bid := firstID(t, mustRun(t, "errors", "--db", db, "--limit", "1"))
	out, errOut, status := plateau(t, "export", "--db", db, bid)
	if status != exitInvalid || !strings.Contains(errOut, "#"+bid+":") || !strings.Contains(out, "[Game") {
		t.Errorf("export broken %s: status %d\n%s%s", bid, status, out, errOut)
	}

	for _, tt := range []struct {
		args   []string
		status int
		msg    string
	}{
		{[]string{"show", "--db", db, "999999"}, exitUsage, "no game #999999 in the database"},
		{[]string{"export", "--db", filepath.Join(t.TempDir(), "none"), "1"}, exitUsage, "no database in"},
		{[]string{"show", "--db", db, "--game", "2", id}, exitUsage, id + " has 1 games, no game 2"},
	} {
		_, errOut, status := plateau(t, tt.args...)
		if status != tt.status || !strings.Contains(errOut, tt.msg) {
			t.Errorf("%v: status %d, stderr %q; want %d and %q", tt.args, status, errOut, tt.status, tt.msg)
		}
	}
}

// TestNumberedFile: a file named like a number is a file unless --db is
// given.
func TestNumberedFile(t *testing.T) {
	dir := t.TempDir()
	wd, _ := os.Getwd()
	data, err := os.ReadFile(filepath.Join(wd, "../../samples/ogi/club.pdn"))
	if err != nil {
		t.Skip("no samples/ogi/club.pdn:", err)
	}
	t.Chdir(dir)
	os.WriteFile("7", data, 0o644)
	if out := mustRun(t, "export", "7"); !strings.Contains(out, `[Game "ogi"]`) {
		t.Errorf("export 7 (a file):\n%s", out)
	}
	_, errOut, status := plateau(t, "export", "--db", filepath.Join(dir, "nodb"), "7")
	if status != exitUsage || !strings.Contains(errOut, "no database") {
		t.Errorf("export --db X 7: status %d, %s", status, errOut)
	}
}

func TestGlobalFlags(t *testing.T) {
	app := newApp()
	for _, tt := range []struct{ in, want string }{
		{"plateau --db X search --player k", "plateau --db X search --player k"},
		{"plateau --db X show f.pdn --game 3", "plateau --db X show --game 3 f.pdn"},
		{"plateau --db=X show 12 --ply 4", "plateau --db=X show --ply 4 12"},
		{"plateau --version", "plateau --version"},
		{"plateau --db X", "plateau --db X"},
	} {
		if got := strings.Join(flagsFirst(app, strings.Fields(tt.in)), " "); got != tt.want {
			t.Errorf("%s: got %s, want %s", tt.in, got, tt.want)
		}
	}
	out := mustRun(t, "--version")
	if !regexp.MustCompile(`^plateau version \S`).MatchString(out) {
		t.Errorf("--version: %q", out)
	}
	buildVersion = "v9.8.7"
	defer func() { buildVersion = "" }()
	if out := mustRun(t, "--version"); strings.TrimSpace(out) != "plateau version v9.8.7" {
		t.Errorf("--version with -ldflags: %q", out)
	}
	// The database of a global --db is the one the command uses.
	db := importSamples(t)
	a := mustRun(t, "--db", db, "info")
	b := mustRun(t, "info", "--db", db)
	if a != b || !strings.Contains(a, "ogi") {
		t.Errorf("--db before and after info differ:\n%s\n%s", a, b)
	}
}
