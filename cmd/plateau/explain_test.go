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
		{[]string{"--game", "chess"}, `no ruleset "chess"`},
		{[]string{"--event", "broken samples"}, "invalid games match: search lists valid games; add --invalid"},
	} {
		out, errOut, st := plateau(t, append([]string{"search", "--db", db}, tt.args...)...)
		if st != exitOK || !strings.Contains(errOut, tt.msg) {
			t.Errorf("search %v: status %d\n%s%s\nwant %q", tt.args, st, out, errOut, tt.msg)
		}
	}
	if _, errOut, _ := plateau(t, "search", "--db", db, "--player", "komayo"); errOut != "" {
		t.Errorf("a search with hits explains: %s", errOut)
	}
}
