package main

import (
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestSearchSortOpening: search --sort opening lists the games by the name
// of their opening, page after page (--offset), in both directions, the
// games without a name last; --opening matches in any case; --sort is
// refused with a position, an export or an unknown column.
func TestSearchSortOpening(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "db")
	games := filepath.Join(dir, "checkers.pdn")
	mustRun(t, "generate", "--game", "checkers", "--games", "60", "--out", games, "-q")
	mustRun(t, "import", "--db", db, "../../samples/checkers", games)
	mustRun(t, "openings", "import", "--db", db, "../../samples/openings-checkers.tsv")
	// The opening column of each page of five, read until a page is short.
	pages := func(args ...string) []string {
		var names []string
		for off := 0; ; off += 5 {
			out := mustRun(t, append([]string{"search", "--db", db, "--limit", "5", "--offset", strconv.Itoa(off)}, args...)...)
			lines := strings.Split(strings.TrimSpace(out), "\n")
			rows := lines[1 : len(lines)-1]
			for _, r := range rows {
				names = append(names, openingCell(lines[0], r))
			}
			if len(rows) < 5 {
				return names
			}
		}
	}
	asc := pages("--sort", "opening")
	desc := pages("--sort", "opening", "--desc")
	all := strings.Fields(mustRun(t, "search", "--db", db, "--limit", "-1", "--format", "ids"))
	if len(asc) != len(all) || len(desc) != len(all) || len(all) < 12 {
		t.Fatalf("%d and %d games listed by opening, %d in all", len(asc), len(desc), len(all))
	}
	for name, got := range map[string][]string{"ascending": asc, "descending": desc} {
		named := slices.IndexFunc(got, func(s string) bool { return s == "" })
		if named <= 5 || slices.ContainsFunc(got[named:], func(s string) bool { return s != "" }) {
			t.Errorf("%s: the unnamed games are not last: %q", name, got)
			continue
		}
		sorted := slices.IsSortedFunc(got[:named], func(a, b string) int { return strings.Compare(strings.ToLower(a), strings.ToLower(b)) })
		if name == "descending" {
			r := slices.Clone(got[:named])
			slices.Reverse(r)
			sorted = slices.IsSortedFunc(r, func(a, b string) int { return strings.Compare(strings.ToLower(a), strings.ToLower(b)) })
		}
		if !sorted {
			t.Errorf("%s: not in name order: %q", name, got[:named])
		}
	}
	upper := mustRun(t, "search", "--db", db, "--opening", "DENNY", "--sort", "opening", "--desc", "--count")
	lower := mustRun(t, "search", "--db", db, "--opening", "denny", "--count")
	if n := strings.Count(upper, "  Denny"); n < 3 || !strings.HasSuffix(upper, fmt.Sprintf("\n%d matches\n", n)) || !strings.HasSuffix(lower, fmt.Sprintf("\n%d matches\n", n)) {
		t.Errorf("--opening DENNY --sort opening --desc --count:\n%s--opening denny:\n%s", upper, lower)
	}
	for _, args := range [][]string{
		{"--sort", "opening", "--game", "checkers", "--moves", "10-14"},
		{"--sort", "opening", "--format", "pdn"},
		{"--sort", "elo"},
	} {
		if _, errOut, status := plateau(t, append([]string{"search", "--db", db}, args...)...); status != exitUsage || errOut == "" {
			t.Errorf("search %q: status %d, %q", args, status, errOut)
		}
	}
}

// openingCell is the opening column of a row of search's table, cut at
// the column of its heading (head).
func openingCell(head, row string) string {
	at := strings.Index(head, "opening")
	r := []rune(row) // tabwriter aligns runes
	if at < 0 || len(r) <= at {
		return ""
	}
	return strings.TrimSpace(string(r[at:]))
}
