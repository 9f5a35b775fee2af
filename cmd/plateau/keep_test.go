package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestDeleteTagErrors: delete asks for --yes and then removes the games from
// every query; tag changes what search finds; errors --summary counts by
// reason; a fixed file re-imported replaces its broken record.
func TestDeleteTagErrors(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "db")
	good := genFile(t, dir, "draughts", 30)
	data, _ := os.ReadFile(good)
	broken := strings.Replace(string(data), "\n1. ", "\n1. 46-51 ", 1) // the first game now reads an impossible move
	club := filepath.Join(dir, "club.pdn")
	os.WriteFile(club, []byte(broken), 0o644)
	mustRun(t, "import", "--db", db, club, "../../samples/broken")

	sum := mustRun(t, "--db", db, "errors", "--summary")
	if !regexp.MustCompile(`(?m)^\s+2\s+draughts\s+#\d+\s+cannot read move$`).MatchString(sum) ||
		!regexp.MustCompile(`(?m)^\s+2\s+ogi\s+#\d+\s+illegal move \(pawn drop\)$`).MatchString(sum) {
		t.Errorf("errors --summary:\n%s", sum)
	}
	// The fixed file replaces its broken record.
	os.WriteFile(club, data, 0o644)
	out := mustRun(t, "import", "--db", db, club)
	if !strings.Contains(out, "1 games replaced") {
		t.Errorf("re-import of the fixed file:\n%s", out)
	}
	if strings.Contains(mustRun(t, "errors", "--db", db), "club.pdn") {
		t.Error("errors still lists the fixed record")
	}

	// delete by criteria: a count first, nothing deleted without --yes.
	hits := mustRun(t, "search", "--db", db, "--game", "draughts", "--format", "ids", "--limit", "-1")
	n := len(strings.Fields(hits))
	if n != 30 {
		t.Fatalf("%d draughts games, want 30:\n%s", n, hits)
	}
	id := strings.Fields(hits)[0]
	out = mustRun(t, "delete", "--db", db, "--player", "", id)
	if !strings.Contains(out, "1 games would be deleted") || !strings.Contains(out, "--yes") {
		t.Errorf("delete without --yes:\n%s", out)
	}
	if got := len(strings.Fields(mustRun(t, "search", "--db", db, "--game", "draughts", "--format", "ids", "--limit", "-1"))); got != 30 {
		t.Fatalf("delete without --yes deleted: %d left", got)
	}
	out = mustRun(t, "--db", db, "delete", "--yes", "#"+id)
	if !strings.Contains(out, "1 games deleted") {
		t.Errorf("delete --yes:\n%s", out)
	}
	if _, errOut, st := plateau(t, "show", "--db", db, id); st != exitUsage || !strings.Contains(errOut, "no game #"+id) {
		t.Errorf("show of a deleted game: %d %s", st, errOut)
	}
	out = mustRun(t, "delete", "--db", db, "--invalid", "--yes")
	if !regexp.MustCompile(`^\d+ games deleted`).MatchString(out) {
		t.Errorf("delete --invalid --yes:\n%s", out)
	}
	if !strings.Contains(mustRun(t, "errors", "--db", db), "0 invalid games") {
		t.Error("invalid games left after delete --invalid")
	}

	// tag: names in any case, visible in search.
	id2 := strings.Fields(mustRun(t, "search", "--db", db, "--format", "ids", "--limit", "1"))[0]
	mustRun(t, "tag", "--db", db, id2, "event=Plateau Autumn Open", "ANNOTATOR=Zéphyrin")
	out = mustRun(t, "search", "--db", db, "--event", "autumn open")
	if !regexp.MustCompile(`(?m)^` + id2 + `\s`).MatchString(out) {
		t.Errorf("search --event after tag:\n%s", out)
	}
	out = mustRun(t, "search", "--db", db, "--text", "annotator:zephyrin", "--format", "ids")
	if strings.TrimSpace(out) != id2 {
		t.Errorf("text search after tag: %q, want %s", out, id2)
	}
	for _, tt := range []struct {
		args []string
		msg  string
	}{
		{[]string{"delete", "--db", db, "--yes"}, "name the games"},
		{[]string{"delete", "--db", db, "x12"}, `"x12" is not a game id`},
		{[]string{"delete", "--db", db, "--min-plies", "-1", "--yes"}, `--min-plies "-1": a whole number`},
		{[]string{"delete", "--db", db, "--side", "Gote"}, "--side \"Gote\": needs player"},
		{[]string{"delete", "--db", db, "--position", "32-28", "--moves", "32-28"}, "--moves: give position or moves, not both"},
		{[]string{"search", "--db", db, "--tag", "Round"}, `--tag "Round": want Name=Value`},
		{[]string{"search", "--db", db, "--game", "0", "--pattern", "K@1"}, `--game "0": unknown game`},
		{[]string{"tag", "--db", db, id2}, "at least one Name=Value"},
		{[]string{"tag", "--db", db, id2, "Event"}, "want Name=Value"},
		{[]string{"tag", "--db", db, "999999", "Event=x"}, "game #999999: not found"},
	} {
		_, errOut, st := plateau(t, tt.args...)
		if st != exitUsage || !strings.Contains(errOut, tt.msg) {
			t.Errorf("%v: status %d, %q; want %q", tt.args, st, errOut, tt.msg)
		}
	}
}
