package main

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestCompact: plateau compact merges an import's position runs into one;
// position searches answer as before; a second compact has nothing to do.
func TestCompact(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "g.pdn")
	db := filepath.Join(dir, "db")
	mustRun(t, "generate", "--game", "ogi", "--games", "300", "--seed", "3", "--out", file, "-q")
	mustRun(t, "import", "--db", db, "-q", "--tx", "20", file)
	// An opening position of many games, and one of the first game's
	// past the tree's depth.
	search := func() string {
		return mustRun(t, "search", "--db", db, "--game", "ogi", "--moves", "Ph3-h4", "--count", "--limit", "5") +
			mustRun(t, "search", "--db", db, "--game", "ogi", "--moves", "Ph3-h4 Pg6-g5 Pd3-d4 Lh8-h7 Pe3-e4 Rb7-a7 Rg2-c2 Ra7-d7 Ph4-h5 Ph6xh5 Lh1xh5 Lh7xh5", "--count")
	}
	before := search()
	if !strings.Contains(before, "65 matches") || !strings.Contains(before, "1 match") {
		t.Fatalf("search before compact:\n%s", before)
	}
	if out := mustRun(t, "info", "--db", db); !regexp.MustCompile("position index: ([2-9]|[1-9][0-9]+) runs \\(a lookup reads a block of each: `plateau compact`").MatchString(out) {
		t.Fatalf("info before compact:\n%s", out)
	}
	out := mustRun(t, "compact", "--db", db)
	if !regexp.MustCompile(`^\d+ position runs merged into one of \d+ occurrences`).MatchString(out) || strings.HasPrefix(out, "1 ") {
		t.Fatalf("compact: %s", out)
	}
	if after := search(); after != before {
		t.Fatalf("search after compact:\n%s\nbefore:\n%s", after, before)
	}
	if out := mustRun(t, "compact", "--db", db); !strings.Contains(out, "one run already") {
		t.Fatalf("second compact: %s", out)
	}
	if out := mustRun(t, "info", "--db", db); !regexp.MustCompile(`position index: 1 run\n`).MatchString(out) {
		t.Fatalf("info after compact:\n%s", out)
	}
}
