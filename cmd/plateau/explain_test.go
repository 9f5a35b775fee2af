package main

import (
	"strings"
	"testing"
)

// TestSearchSaysWhyEmpty: an empty search names the criterion that
// explains it.
func TestSearchSaysWhyEmpty(t *testing.T) {
	db := importSamples(t)
	for _, tt := range []struct {
		args []string
		msg  string
	}{
		{[]string{"--player", "xyzzyq"}, `no player's name matches "xyzzyq"`},
		{[]string{"--player", "komayo", "--opponent", "qwxzz"}, `no player's name matches "qwxzz"`},
		{[]string{"--event", "broken samples"}, "invalid games match: search lists valid games; add --invalid"},
	} {
		out, errOut, st := plateau(t, append([]string{"search", "--db", db}, tt.args...)...)
		if st != exitOK || !strings.Contains(errOut, tt.msg) {
			t.Errorf("search %v: status %d\n%s%s\nwant %q", tt.args, st, out, errOut, tt.msg)
		}
	}
	// An unknown ruleset is not an empty search but a usage error (issue
	// 42: it exited 0, with "no ruleset" on standard error).
	if _, errOut, st := plateau(t, "search", "--db", db, "--game", "chess"); st != exitUsage || !strings.Contains(errOut, `--game "chess": unknown game`) {
		t.Errorf("search --game chess: status %d, %q", st, errOut)
	}
	if _, errOut, _ := plateau(t, "search", "--db", db, "--player", "komayo"); errOut != "" {
		t.Errorf("a search with hits explains: %s", errOut)
	}
}
