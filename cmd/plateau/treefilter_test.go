package main

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/plateau/plateau/index"
)

// treeGames are four Ōgi games whose trees under each filter are known:
// Ann Alpha plays Pe3-e4 as Sente (2001, 2010) and meets Pa3-a4 as Gote
// (2003); Cid Gamma plays Pe3-e4 as Sente in 2012.
const treeGames = `[Game "ogi"]
[Event "Spring Open"]
[Date "2001.05.01"]
[Sente "Ann Alpha"]
[Gote "Bob Beta"]
[SenteElo "2100"]
[GoteElo "2050"]
[Result "1-0"]

1. Pe3-e4 Pc6-c5 1-0

[Game "ogi"]
[Event "Spring Open"]
[Date "2003.01.01"]
[Sente "Bob Beta"]
[Gote "Ann Alpha"]
[SenteElo "1900"]
[GoteElo "2000"]
[Result "0-1"]

1. Pa3-a4 Pc6-c5 0-1

[Game "ogi"]
[Event "Autumn Cup"]
[Date "2010.06.01"]
[Sente "Ann Alpha"]
[Gote "Cid Gamma"]
[SenteElo "1800"]
[GoteElo "1700"]
[Result "0-1"]

1. Pe3-e4 Pf6-f5 0-1

[Game "ogi"]
[Event "Autumn Cup"]
[Date "2012.01.01"]
[Sente "Cid Gamma"]
[Gote "Bob Beta"]
[SenteElo "2200"]
[GoteElo "2300"]
[Result "1-0"]

1. Pe3-e4 Pc6-c5 1-0
`

// TestTreeFilters runs plateau tree with each filter on games whose trees
// are known: each row is a move, its games and its first and last dates.
func TestTreeFilters(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "db")
	f := filepath.Join(dir, "g.pdn")
	if err := os.WriteFile(f, []byte(treeGames), 0o644); err != nil {
		t.Fatal(err)
	}
	if out := mustRun(t, "import", "--db", db, f); !strings.Contains(out, "4 stored (4 valid, 0 invalid)") {
		t.Fatalf("import: %s", out)
	}
	row := regexp.MustCompile(`(?m)^(\S+)\s+(\d+)\s+\S+ \(\d+%\)\s+\S+ \(\d+%\)\s+(\S+) \(\S+\)\s+(\S+)\s+(\S+)`)
	for _, tc := range []struct {
		args []string
		want string // move games wins/draws/wins first last, row after row
	}{
		{nil, "Pa3-a4 1 0/0/1 2003.01.01 2003.01.01; Pe3-e4 3 2/0/1 2001.05.01 2012.01.01"},
		{[]string{"--player", "ann alpha", "--side", "sente"}, "Pe3-e4 2 1/0/1 2001.05.01 2010.06.01"},
		{[]string{"--player", "Ann", "--side", "gote"}, "Pa3-a4 1 0/0/1 2003.01.01 2003.01.01"},
		{[]string{"--player", "Ann", "--side", "gote", "Pa3-a4"}, "Pc6-c5 1 0/0/1 2003.01.01 2003.01.01"},
		{[]string{"--player", "Ann Alpha", "--side", "0", "Pe3-e4"}, "Pc6-c5 1 1/0/0 2001.05.01 2001.05.01; Pf6-f5 1 0/0/1 2010.06.01 2010.06.01"},
		{[]string{"--player", "Ann", "--opponent", "Bob"}, "Pa3-a4 1 0/0/1 2003.01.01 2003.01.01; Pe3-e4 1 1/0/0 2001.05.01 2001.05.01"},
		{[]string{"--from", "2005"}, "Pe3-e4 2 1/0/1 2010.06.01 2012.01.01"},
		{[]string{"--from", "2001.06", "--to", "2010"}, "Pa3-a4 1 0/0/1 2003.01.01 2003.01.01; Pe3-e4 1 0/0/1 2010.06.01 2010.06.01"},
		{[]string{"--event", "spring"}, "Pa3-a4 1 0/0/1 2003.01.01 2003.01.01; Pe3-e4 1 1/0/0 2001.05.01 2001.05.01"},
		{[]string{"--min-elo", "2000"}, "Pe3-e4 2 2/0/0 2001.05.01 2012.01.01"},
		{[]string{"--min-elo", "1700", "--max-elo", "2000"}, "Pa3-a4 1 0/0/1 2003.01.01 2003.01.01; Pe3-e4 1 0/0/1 2010.06.01 2010.06.01"},
		{[]string{"--result", "1-0"}, "Pe3-e4 2 2/0/0 2001.05.01 2012.01.01"},
		{[]string{"--player", "Nobody Atall"}, ""},
	} {
		out := mustRun(t, append([]string{"tree", "--db", db}, tc.args...)...)
		var got []string
		for _, m := range row.FindAllStringSubmatch(out, -1) {
			got = append(got, strings.Join(m[1:], " "))
		}
		slices.Sort(got) // moves of equal games in one order
		if g := strings.Join(got, "; "); g != tc.want {
			t.Errorf("tree %s: %q, want %q\n%s", strings.Join(tc.args, " "), g, tc.want, out)
		}
	}
	// Bad criteria are usage errors naming the flag.
	for _, tc := range []struct {
		args []string
		msg  string
	}{
		{[]string{"--min-elo", "2000", "--max-elo", "1000"}, "--min-elo"},
		{[]string{"--side", "gote"}, "--side"},
		{[]string{"--invalid"}, "--invalid"},
		{[]string{"--game", "draughts", "--min-elo", "1"}, ""}, // another ruleset: its tree, empty
	} {
		out, errOut, status := plateau(t, append([]string{"tree", "--db", db}, tc.args...)...)
		if tc.msg == "" {
			if status != exitOK || !strings.Contains(out, "0 moves, 0 games") {
				t.Errorf("tree %s: status %d, %s%s", strings.Join(tc.args, " "), status, out, errOut)
			}
			continue
		}
		if status != exitUsage || !strings.Contains(errOut, tc.msg) {
			t.Errorf("tree %s: status %d, %q; want a usage error naming %s", strings.Join(tc.args, " "), status, errOut, tc.msg)
		}
	}
}

// TestTreeWDL: a move's wins, draws and wins of the other side, with
// shares; "-" when no game is scored or the wins are not known.
func TestTreeWDL(t *testing.T) {
	for _, tc := range []struct {
		m    index.TreeMove
		want string
	}{
		{index.TreeMove{Games: 4, Scored: 4, Wins: [2]int{2, 1}}, "2/1/1 (50/25/25%)"},
		{index.TreeMove{Games: 3, Scored: 3}, "0/3/0 (0/100/0%)"},
		{index.TreeMove{Games: 5, Scored: 3, Wins: [2]int{0, 3}}, "0/0/3 (0/0/100%)"},
		{index.TreeMove{Games: 2}, "-"},
		{index.TreeMove{Games: 2, Scored: 2, WinsUnknown: true}, "-"},
	} {
		if got := treeWDL(tc.m); got != tc.want {
			t.Errorf("%+v: %q, want %q", tc.m, got, tc.want)
		}
	}
}
