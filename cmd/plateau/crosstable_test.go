package main

import (
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestCrosstablePages: crosstable shows a page of players with the way to
// the next; printing every player of a large database without a filter is
// refused with the way out.
func TestCrosstablePages(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "db")
	mustRun(t, "import", "--db", db, genFile(t, dir, "draughts", 250))
	out := mustRun(t, "crosstable", "--db", db)
	m := regexp.MustCompile(`players 1–30 of (\d+) .*--offset 30 for the next page`).FindStringSubmatch(out)
	if m == nil || len(strings.Split(strings.TrimSpace(out), "\n")) != 32 {
		t.Fatalf("crosstable, first page:\n%s", out)
	}
	if n, _ := strconv.Atoi(m[1]); n <= crosstableAll {
		t.Fatalf("only %s players: the test needs more than 200", m[1])
	}
	page := mustRun(t, "crosstable", "--db", db, "--limit", "3", "--offset", "2")
	lines := strings.Split(strings.TrimSpace(page), "\n")
	if len(lines) != 5 || !regexp.MustCompile(`^\s*#\s+player\s+score\s+games\s+3\s+4\s+5$`).MatchString(lines[0]) ||
		!strings.HasPrefix(strings.TrimSpace(lines[1]), "3 ") || !strings.Contains(lines[4], "players 3–5 of "+m[1]) {
		t.Errorf("crosstable --limit 3 --offset 2:\n%s", page)
	}
	_, errOut, st := plateau(t, "crosstable", "--db", db, "--limit", "0")
	if st != exitUsage || !strings.Contains(errOut, m[1]+" players would make a table") || !strings.Contains(errOut, "name a filter") {
		t.Errorf("crosstable --limit 0 without a filter: %d %s", st, errOut)
	}
	// With a filter, every player of it.
	all := mustRun(t, "crosstable", "--db", db, "--limit", "0", "--game", "draughts", "--from", "2000")
	if strings.Contains(all, "players 1–") {
		t.Errorf("crosstable --limit 0 with a filter is paged:\n%s", all)
	}
}

// TestCrosstableScale: the draughts samples write wins 2-0 and draws
// 1/2-1/2; the table scores them on one scale (a win 1, a draw ½), not
// 9 points each from 3 wins of 2 and 6 draws of ½.
func TestCrosstableScale(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "db")
	mustRun(t, "import", "--db", db, filepath.Join("..", "..", "samples", "draughts"))
	out := mustRun(t, "crosstable", "--db", db, "--event", "Plateau samples")
	for _, p := range []string{"Baba Sy", "Sijbrands, T."} {
		if !regexp.MustCompile(`(?m)^\s*\d+ ` + regexp.QuoteMeta(p) + `\s+6\s+12\s`).MatchString(out) {
			t.Errorf("crosstable: %s should score 6 of 12 games:\n%s", p, out)
		}
	}
}
