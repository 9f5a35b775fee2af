package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestOpeningCodes: a name may begin with an ECO-style code; search
// --opening matches the code (or its beginning) and the name after it;
// show, tree and the list show the coded name; export writes the name as
// the Opening tag and the code as the ECO tag; a record's own Opening tag
// is kept, without the code.
func TestOpeningCodes(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "db")
	mustRun(t, "import", "--db", db, "../../samples/checkers")
	names := filepath.Join(dir, "codes.tsv")
	if err := os.WriteFile(names, []byte("checkers\tK01 Denny\t10-14\ncheckers\tK02 Denny, test\t10-14 23-19\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	mustRun(t, "openings", "import", "--db", db, names)
	count := func(prefix string) string {
		out := mustRun(t, "search", "--db", db, "--opening", prefix, "--count")
		lines := strings.Split(strings.TrimSpace(out), "\n")
		return lines[len(lines)-1]
	}
	for prefix, want := range map[string]string{"K0": "3 matches", "k02": "2 matches", "K01": "1 matches",
		"denny": "3 matches", "Denny, test": "2 matches", "K02 Denny": "2 matches", "K": "3 matches", "K03": "0 matches"} {
		if got := count(prefix); got != want {
			t.Errorf("search --opening %q: %s, want %s", prefix, got, want)
		}
	}
	hits := strings.Split(mustRun(t, "search", "--db", db, "--opening", "K02"), "\n")
	if !strings.HasSuffix(hits[1], "  K02 Denny, test") {
		t.Errorf("the list's opening column: %q", hits[1])
	}
	id := strings.Fields(hits[1])[0]
	if out := mustRun(t, "export", "--db", db, id); !strings.Contains(out, "\n[Opening \"Denny, test\"]\n[ECO \"K02\"]\n") {
		t.Errorf("export %s:\n%s", id, out)
	}
	if out := mustRun(t, "dbexport", "--db", db, "--opening", "K02"); strings.Count(out, "[ECO \"K02\"]") != 2 || strings.Count(out, "[Opening \"Denny, test\"]") != 2 {
		t.Errorf("dbexport --opening K02:\n%s", out)
	}
	if out := mustRun(t, "show", "--db", db, id); !strings.Contains(out, "\nopening: K02 Denny, test\n") {
		t.Errorf("show %s:\n%s", id, out)
	}
	if tree := mustRun(t, "tree", "--db", db, "--game", "checkers", "10-14"); !strings.HasPrefix(tree, "opening: K01 Denny\n") ||
		!regexp.MustCompile(`(?m)^23-19 .*  K02 Denny, test$`).MatchString(tree) {
		t.Errorf("tree 10-14:\n%s", tree)
	}
	// A record's own Opening tag is kept: no ECO is added to it.
	own := filepath.Join(dir, "own.pdn")
	if err := os.WriteFile(own, []byte("[Game \"checkers\"]\n[White \"Own\"]\n[Black \"Tags\"]\n[Opening \"My own name\"]\n[Result \"*\"]\n\n1. 10-14 23-19 *\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	added := strings.Fields(mustRun(t, "add", "--db", db, own))
	if len(added) == 0 {
		t.Fatal("add printed nothing")
	}
	out := mustRun(t, "dbexport", "--db", db, "--player", "Own")
	if !strings.Contains(out, "[Opening \"My own name\"]") || strings.Contains(out, "ECO") || strings.Contains(out, "Denny") {
		t.Errorf("a record's own Opening tag:\n%s", out)
	}
	if got := count("K02"); got != "3 matches" {
		t.Errorf("search --opening K02 after the add: %s, want 3 (the game reaches the name)", got)
	}
}
