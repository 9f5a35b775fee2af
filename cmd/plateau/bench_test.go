package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestBenchProbeProcess runs plateau bench with its queries in a process of
// their own (the default): the report has the rows of the queries during
// and after the import, and says where they ran.
func TestBenchProbeProcess(t *testing.T) {
	db := filepath.Join(t.TempDir(), "db")
	out := mustRun(t, "bench", "--game", "ogi", "--games", "60", "--queries", "10", "--query-every", "1ms", "--nice", "0", "--db", db)
	for _, w := range []string{"| position lookup during import | ", "| opening tree after import | ", "in a process of its own", "The queries ran in a process of their own; the import at niceness 0"} {
		if !strings.Contains(out, w) {
			t.Errorf("the report does not say %q:\n%s", w, out)
		}
	}
	// The queries of that database as it is.
	out = mustRun(t, "bench", "--game", "ogi", "--queries-only", "--queries", "10", "--db", db)
	for _, w := range []string{"plateau bench: ogi, queries on a database of 60 games", "| position lookup | 10 |", "| pattern search (full scan) | 3 |", "Queries only, on the database in " + db} {
		if !strings.Contains(out, w) {
			t.Errorf("--queries-only: the report does not say %q:\n%s", w, out)
		}
	}
	if strings.Contains(out, "| import") || strings.Contains(out, "| generate") {
		t.Errorf("--queries-only generated or imported:\n%s", out)
	}
	// Compacted first: a stage of its own.
	out = mustRun(t, "bench", "--game", "ogi", "--queries-only", "--compact", "--queries", "10", "--db", db)
	if !strings.Contains(out, "| compact | 60 |") || !strings.Contains(out, "plateau compact: ") {
		t.Errorf("--queries-only --compact: no compact stage:\n%s", out)
	}
	if strings.Contains(out, "| save (new revision)") {
		t.Errorf("--queries-only without --saves: a save stage:\n%s", out)
	}
	// Saves into a database as it is, when asked for.
	out = mustRun(t, "bench", "--game", "ogi", "--queries-only", "--queries", "5", "--saves", "4", "--db", db)
	if !strings.Contains(out, "| save (new revision) | 4 |") {
		t.Errorf("--queries-only --saves 4: no save stage:\n%s", out)
	}
	if _, errOut, status := plateau(t, "bench", "--game", "ogi", "--queries-only"); status != exitUsage || !strings.Contains(errOut, "--db") {
		t.Errorf("--queries-only without --db: status %d, %q", status, errOut)
	}
	out = mustRun(t, "bench", "--game", "ogi", "--games", "60", "--queries", "10", "--query-every", "1ms", "--probe-process=false", "--saves", "5", "--db", filepath.Join(t.TempDir(), "db"))
	if !strings.Contains(out, "on a second read-only handle") || strings.Contains(out, "process of its own") {
		t.Errorf("--probe-process=false: the queries did not run in the bench's process:\n%s", out)
	}
	if !strings.Contains(out, "| save (new revision) | 5 |") {
		t.Errorf("--saves 5: no save stage:\n%s", out)
	}
}
