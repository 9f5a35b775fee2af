package index_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/plateau/plateau/index"
)

// TestPlayerPages checks the pages of player searches (read player by
// player from the indexes) against the games of the records: every page of
// every size is the same slice of the ordered list of the player's games.
func TestPlayerPages(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	text := genText(t, "jetan", 400, 5)
	file := writeFile(t, dir, "g.pdn", text)
	db := openDB(t, dir+"/db")
	if _, err := importFiles(ctx, db, []string{file}, index.ImportOptions{}); err != nil {
		t.Fatal(err)
	}
	recs := readAll(t, text)
	// The players with most games, and a surname shared by several players
	// (several ids matched, some games with two of them).
	count := map[string]int{}
	for _, r := range recs {
		count[r.Tag("Orange")]++
		count[r.Tag("Black")]++
	}
	var names []string
	for n := range count {
		names = append(names, n)
	}
	slices.SortFunc(names, func(a, b string) int { return count[b] - count[a] })
	queries := names[:4]
	queries = append(queries, "Schmidt", "Nguyễn")
	// A word of both players' names in one game, so that a game is found
	// through two players (it must be counted once).
	shared := ""
	for _, r := range recs {
		for _, w := range strings.Fields(strings.ReplaceAll(r.Tag("Orange"), ",", "")) {
			if len(w) < 4 || !strings.Contains(r.Tag("Black"), w) {
				continue
			}
			if ids, err := db.MatchPlayers(ctx, w); err == nil && len(ids) >= 2 && len(ids) <= 16 {
				shared = w
			}
		}
	}
	if shared == "" {
		t.Fatal("no game whose players share a name: the test would not cover one game found twice")
	}
	queries = append(queries, shared)
	queries = append(queries, "a")
	// The first word of the most active players' names: several players,
	// one of whom has many games, so that a page needs more than the
	// first games of every player.
	multi := false
	for _, n := range names[:8] {
		w := strings.Fields(strings.ReplaceAll(n, ",", " "))[0]
		if ids, err := db.MatchPlayers(ctx, w); err == nil && len(ids) >= 2 {
			queries = append(queries, w)
			multi = true
		}
	}
	if !multi {
		t.Fatal("no active player shares a name word: the test would not cover pages of several players")
	}
	for _, by := range []string{"player", "word", ""} {
		for _, arms := range []int{200, 1} {
			// With one arm, every query matching two players or more reads
			// the games table in id order instead (by player; by word,
			// unless one word is enough).
			restore := index.SetMaxPlayerArms(arms)
			restoreBy := index.SetPageBy(by)
			all := checkPlayerPages(t, db, index.Query{}, queries, count)
			// Conditions beside the player's, tested on the games the
			// indexes give: most are left out (one result of three or more).
			some := checkPlayerPages(t, db, index.Query{Result: recs[0].Tag("Result")}, queries, nil)
			if some < 20 || some > all*2/3 {
				t.Fatalf("%d games of %d have the result %q: the test would not cover games the conditions leave out", some, all, recs[0].Tag("Result"))
			}
			// Invalid games are read by player (the name index lists
			// valid games only).
			checkPlayerPages(t, db, index.Query{Invalid: true}, queries[:1], nil)
			restoreBy()
			restore()
		}
	}
	// While a bulk import runs, the player indexes are out (bulk.go): the
	// pages are read by word, or (invalid games) by a scan; the same pages.
	if err := index.DropDeferred(ctx, db); err != nil {
		t.Fatal(err)
	}
	if missing, err := index.MissingIndexes(ctx, db); err != nil || len(missing) != 4 {
		t.Fatalf("after the drop, missing %v (%v)", missing, err)
	}
	checkPlayerPages(t, db, index.Query{}, queries, count)
	checkPlayerPages(t, db, index.Query{Invalid: true}, queries[:1], nil)
}

// checkPlayerPages returns the number of hits of every query.
func checkPlayerPages(t *testing.T, db *index.DB, base index.Query, queries []string, count map[string]int) int {
	t.Helper()
	ctx := context.Background()
	hits := 0
	for _, q := range queries {
		query := base
		query.Player, query.Limit, query.Count = q, -1, true
		all, err := db.Search(ctx, query)
		if err != nil {
			t.Fatal(err)
		}
		hits += len(all.Hits)
		if len(all.Hits) != all.Total || (count != nil && len(all.Hits) < 3) {
			t.Fatalf("%q: %d hits, total %d", q, len(all.Hits), all.Total)
		}
		ids := make([]int64, len(all.Hits))
		for i, h := range all.Hits {
			ids[i] = h.ID
		}
		if !slices.IsSorted(ids) {
			t.Fatalf("%q: hits not in id order", q)
		}
		if exact, ok := count[q]; ok && exact > len(ids) {
			t.Fatalf("%q plays %d games, the search finds %d", q, exact, len(ids))
		}
		for _, limit := range []int{1, 2, 5, 50} {
			for offset := 0; offset <= len(ids); offset += max(1, limit-1) {
				query := base
				query.Player, query.Limit, query.Offset = q, limit, offset
				page, err := db.Search(ctx, query)
				if err != nil {
					t.Fatal(err)
				}
				want := ids[offset:min(len(ids), offset+limit)]
				var got []int64
				for _, h := range page.Hits {
					got = append(got, h.ID)
				}
				if !slices.Equal(got, want) {
					t.Fatalf("%q limit %d offset %d: %v, want %v", q, limit, offset, got, want)
				}
			}
		}
	}
	return hits
}
