package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestOpeningsCommand: openings import reads the sample names, reports a
// wrong move with its file, line and move and stores the rest (status 1);
// openings list prints them; search --opening finds the games by a prefix
// of the name, the deepest name of each game; openings delete removes them.
func TestOpeningsCommand(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "db")
	mustRun(t, "import", "--db", db, "../../samples/checkers")
	bad := filepath.Join(dir, "bad.tsv")
	if err := os.WriteFile(bad, []byte("# a wrong move on line 3\ncheckers\tDenny, test\t10-14 23-19\ncheckers\tWrong\t10-14 23-19 14-19\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errOut, status := plateau(t, "openings", "import", "--db", db, "../../samples/openings-checkers.tsv", bad)
	if status != exitInvalid || !strings.Contains(errOut, bad+`:3: move 3 "14-19"`) || !strings.HasPrefix(out, "18 names stored, 1 not;") {
		t.Fatalf("import: status %d\n%s%s", status, out, errOut)
	}
	list := mustRun(t, "openings", "list", "--db", db, "--game", "checkers")
	if !strings.Contains(list, "checkers\t1\tDenny\t10-14\n") || !strings.Contains(list, "checkers\t2\tDenny, test\t10-14 23-19\n") ||
		strings.Count(list, "\n") != 18 {
		t.Errorf("list:\n%s", list)
	}
	// --games: the games whose deepest name is each (Denny's 3 games: 1
	// of Denny alone, 2 of "Denny, test").
	games := mustRun(t, "openings", "list", "--db", db, "--game", "checkers", "--games")
	if !strings.Contains(games, "checkers\t1\tDenny\t10-14\t1\n") || !strings.Contains(games, "checkers\t2\tDenny, test\t10-14 23-19\t2\n") {
		t.Errorf("list --games:\n%s", games)
	}
	count := func(prefix string) string {
		out := mustRun(t, "search", "--db", db, "--opening", prefix, "--count")
		lines := strings.Split(strings.TrimSpace(out), "\n")
		return lines[len(lines)-1]
	}
	denny, deep := count("denny"), count("Denny, test")
	if denny != "3 matches" || deep != "2 matches" {
		t.Errorf("search --opening denny: %s, Denny, test: %s", denny, deep)
	}
	// Records name the position after their main line: Opening, Variation.
	recs := filepath.Join(dir, "names.pdn")
	if err := os.WriteFile(recs, []byte("[Game \"checkers\"]\n[Opening \"Denny\"]\n[Variation \"from a record\"]\n\n1. 10-14 24-20 *\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if out := mustRun(t, "openings", "import", "--db", db, recs); !strings.HasPrefix(out, "1 names stored, 0 not; 7 games named") {
		t.Errorf("import of records: %q", out)
	}
	if got := count("Denny, from"); got != "1 matches" {
		t.Errorf("search --opening 'Denny, from': %s", got)
	}
	if got := count("Sicilian"); got != "0 matches" {
		t.Errorf("search --opening Sicilian: %s", got)
	}
	// openings played: the event's names, most played first, then by
	// score (Denny's 3 games: 2 of "Denny, test", 1 of "Denny, from a
	// record").
	played := mustRun(t, "openings", "played", "--db", db, "--event", "Plateau samples")
	if !strings.HasPrefix(played, "ruleset     games   won drawn  lost  score  opening\n"+
		"checkers        2     1     1     0    75%  Double Corner\n") ||
		!strings.Contains(played, "\ncheckers        2     0     1     1    25%  Denny, test\n"+
			"checkers        1     0     0     1     0%  Denny, from a record\n") {
		t.Errorf("openings played --event:\n%s", played)
	}
	if out := mustRun(t, "openings", "played", "--db", db, "--event", "no such event"); out != "no named game\n" {
		t.Errorf("openings played of no game: %q", out)
	}
	// show, export and dbexport name a game's opening; tree names positions.
	hits := strings.Split(mustRun(t, "search", "--db", db, "--opening", "Denny, test"), "\n")
	id := strings.Fields(hits[1])[0]
	if !strings.HasSuffix(hits[0], "plies  opening") || !strings.HasSuffix(hits[1], "  Denny, test") {
		t.Errorf("search lists the opening:\n%s\n%s", hits[0], hits[1])
	}
	if out := mustRun(t, "show", "--db", db, id); !strings.Contains(out, "\nopening: Denny, test\n") {
		t.Errorf("show %s:\n%s", id, out)
	}
	if out := mustRun(t, "export", "--db", db, id); !strings.Contains(out, "\n[Opening \"Denny, test\"]\n") {
		t.Errorf("export %s:\n%s", id, out)
	}
	if out := mustRun(t, "dbexport", "--db", db, "--opening", "Denny"); strings.Count(out, "[Opening \"Denny") != 3 {
		t.Errorf("dbexport --opening Denny:\n%s", out)
	}
	tree := mustRun(t, "tree", "--db", db, "--game", "checkers", "10-14")
	if !strings.HasPrefix(tree, "opening: Denny\n") || !regexp.MustCompile(`(?m)^23-19 .*  Denny, test$`).MatchString(tree) {
		t.Errorf("tree 10-14:\n%s", tree)
	}
	if out := mustRun(t, "openings", "delete", "--db", db); out != "19 names deleted\n" {
		t.Errorf("delete: %q", out)
	}
	if got := count("Denny"); got != "0 matches" {
		t.Errorf("after delete: %s", got)
	}
}
