package index_test

import (
	"context"
	"fmt"
	"net/url"
	"path/filepath"
	"strings"
	"testing"

	"github.com/plateau/plateau/index"
	"github.com/plateau/plateau/record"
	"github.com/plateau/plateau/replay"
	"github.com/plateau/plateau/rules"
)

// samePlayerLines checks that the players' lines db holds are those its
// stored games give (no row of a game deleted or replaced left, none
// missing).
func samePlayerLines(t *testing.T, db *index.DB) {
	t.Helper()
	diff, _, err := index.PlayerLinesDiff(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	for i, d := range diff {
		if i == 10 {
			t.Errorf("… %d rows differ", len(diff))
			break
		}
		t.Errorf("players' lines: %s", d)
	}
}

// mostPlayed is the name that side plays most often in games.
func mostPlayed(games map[int64]*replay.Game, side string) string {
	count := map[string]int{}
	for _, g := range games {
		count[strings.TrimSpace(g.Record.Tag(side))]++
	}
	best := ""
	for k, n := range count {
		if k != "" && (n > count[best] || n == count[best] && k < best) {
			best = k
		}
	}
	return best
}

// playerCases are a player as each side, and either, alone and with each
// other criterion of games; few: alone, with a period and with an
// opponent.
func playerCases(rg rules.Game, games map[int64]*replay.Game, few bool) []treeCase {
	sides := rg.Sides()
	player := mostPlayed(games, sides[0])
	// opponents are a player's opponent as each side (either: side 0).
	var opponents [2]string
	for _, g := range games {
		for s := range 2 {
			if strings.TrimSpace(g.Record.Tag(sides[s])) == player {
				opponents[s] = strings.TrimSpace(g.Record.Tag(sides[1-s]))
			}
		}
	}
	others := []url.Values{{}, {"from": {"1990"}, "to": {"2009"}}, {"opponent": {""}},
		{"from": {"1990.03.15"}}, {"result": {"1-0"}}, {"min-elo": {"1500"}, "max-elo": {"2300"}},
		{"event": {"1"}}, {"site": {"a"}}, {"min-plies": {"30"}}, {"termination": {"resignation"}}}
	if few {
		others = others[:3]
	}
	var out []treeCase
	for i, side := range []string{sides[0], "1", ""} {
		for _, o := range others {
			v := url.Values{"player": {player}}
			if side != "" {
				v["side"] = []string{side}
			}
			name := fmt.Sprintf("player %q side %q", player, side)
			for k, vs := range o {
				if k == "opponent" {
					vs = []string{opponents[i%2]}
				}
				v[k] = vs
				name += " " + k + "=" + vs[0]
			}
			out = append(out, treeCase{name: name, v: v})
		}
	}
	return out
}

// TestPlayerTree: the tree of a player's games, read from the players'
// lines, is the count of the games the query selects, with every other
// criterion, as it is from the occurrences; after deletions and edits
// too. In dames, the player has dames-brigand games as well, whose
// positions have the same keys: they are not of the tree.
func TestPlayerTree(t *testing.T) {
	ctx := context.Background()
	for _, game := range []string{"ogi", "dames"} {
		t.Run(game, func(t *testing.T) {
			rg, _ := rules.Lookup(game)
			dir := t.TempDir()
			db := openDB(t, filepath.Join(dir, "db"))
			files := []string{writeFile(t, dir, "gen.pdn", genText(t, game, 300, 5))}
			samples, _ := filepath.Glob(filepath.Join("..", "samples", game, "*.pdn"))
			files = append(files, samples...)
			if game == "dames" {
				files = append(files, writeFile(t, dir, "brigand.pdn", genText(t, "dames-brigand", 200, 5)))
			}
			if _, err := importFiles(ctx, db, files, index.ImportOptions{TxGames: 41}); err != nil {
				t.Fatal(err)
			}
			games := storedGames(t, db, game)
			start, _ := rg.NewPosition("")
			if game == "dames" {
				brigand := storedGames(t, db, "dames-brigand")
				if p := mostPlayed(games, rg.Sides()[0]); !hasPlayer(brigand, rg.Sides()[0], p) {
					t.Fatalf("%s has no dames-brigand game as %s: the test would not cover another ruleset's games", p, rg.Sides()[0])
				}
			}
			check := func(what string, deleted bool) {
				for _, tc := range playerCases(rg, games, what != "") {
					t.Run(tc.name+what, func(t *testing.T) {
						checkFilteredTree(t, db, rg, games, tc, start, deleted)
					})
				}
			}
			check("", false)
			samePlayerLines(t, db)
			// The same from the occurrences alone (fewer cases).
			index.SetTreeLineGames(db, -1)
			check(" (occurrences)", false)
			index.SetTreeLineGames(db, 0)

			// Deleted games, and games edited: a result changed, a
			// player's name on one side changed.
			var gone, edited []int64
			for id := range games {
				switch id % 11 {
				case 0:
					gone = append(gone, id)
				case 1, 2:
					edited = append(edited, id)
				}
			}
			if n, err := db.Delete(ctx, gone, nil); err != nil || n != len(gone) {
				t.Fatalf("deleted %d of %d: %v", n, len(gone), err)
			}
			for i, id := range edited {
				tags := []record.Tag{{Name: "Result", Value: "0-1"}}
				if i%2 == 0 {
					tags = []record.Tag{{Name: rg.Sides()[i%4/2], Value: "Edited Player"}}
				}
				if _, err := db.SetTags(ctx, id, tags); err != nil {
					t.Fatal(err)
				}
			}
			samePlayerLines(t, db)
			games = storedGames(t, db, game)
			check(" after edits", true)
		})
	}
}

// hasPlayer reports whether name plays side in one of games.
func hasPlayer(games map[int64]*replay.Game, side, name string) bool {
	for _, g := range games {
		if strings.TrimSpace(g.Record.Tag(side)) == name {
			return true
		}
	}
	return false
}

// TestPlayerTreeReadsLines: a player's first tree reads the players'
// lines (spoilt, they fail it), and a read-only handle on layout 12 reads
// the games' rows instead, to the same tree; a writable open upgrades
// the database to layout 13, filling the lines as the import wrote them.
func TestPlayerTreeReadsLines(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	dbDir := filepath.Join(dir, "db")
	db := openDB(t, dbDir)
	files := []string{writeFile(t, dir, "gen.pdn", genText(t, "ogi", 300, 9)), "../samples/ogi"}
	if _, err := importFiles(ctx, db, files, index.ImportOptions{TxGames: 50}); err != nil {
		t.Fatal(err)
	}
	rg, _ := rules.Lookup("ogi")
	start, _ := rg.NewPosition("")
	var q index.Query
	q.Players[1] = mostPlayed(storedGames(t, db, "ogi"), rg.Sides()[1])
	want, err := db.FilteredTree(ctx, "ogi", start, q)
	if err != nil || len(want) == 0 {
		t.Fatalf("tree %v %v", want, err)
	}
	imported, err := index.PlayerLineRows(ctx, db)
	if err != nil || len(imported) < 500 {
		t.Fatalf("%d rows imported: %v", len(imported), err)
	}
	if err := index.SpoilPlayerLines(ctx, db); err != nil {
		t.Fatal(err)
	}
	// Other selections (their lines not kept): the player's games alone
	// and in a period with a result (read from the lines alone), with
	// another criterion (selected, then read from the lines).
	var alone index.Query
	alone.Players[0] = q.Players[1]
	if got, err := db.FilteredTree(ctx, "ogi", start, alone); err == nil {
		t.Fatalf("spoilt lines read: %v", got)
	}
	alone.DateFrom, alone.Result = "1990", "1-0" // the lines alone too
	if got, err := db.FilteredTree(ctx, "ogi", start, alone); err == nil {
		t.Fatalf("spoilt lines read: %v", got)
	}
	q.MinPlies = 1
	if got, err := db.FilteredTree(ctx, "ogi", start, q); err == nil {
		t.Fatalf("spoilt lines read: %v", got)
	}
	q.MinPlies = 0
	if err := index.DowngradeToLayout12(ctx, db); err != nil {
		t.Fatal(err)
	}
	db.Close()

	ro, err := index.Open(ctx, dbDir, index.Options{ReadOnly: true})
	if err != nil {
		t.Fatalf("read-only open of layout 12: %v", err)
	}
	got, err := ro.FilteredTree(ctx, "ogi", start, q)
	ro.Close()
	if err != nil || fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("layout 12, read-only: %v\n%+v\nwant\n%+v", err, got, want)
	}

	var notices []string
	db, err = index.Open(ctx, dbDir, index.Options{Notice: func(s string) { notices = append(notices, s) }})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if len(notices) != 4 || !strings.Contains(notices[0], "layout 12 to 13") ||
		!strings.Contains(notices[1], "layout 13 to 14") ||
		!strings.Contains(notices[2], "layout 14 to 15") ||
		!strings.Contains(notices[3], "layout 15 to 16") {
		t.Errorf("notices %q", notices)
	}
	upgraded, err := index.PlayerLineRows(ctx, db)
	if err != nil || fmt.Sprint(upgraded) != fmt.Sprint(imported) {
		t.Errorf("%d rows after the upgrade, %d imported: %v", len(upgraded), len(imported), err)
	}
	got, err = db.FilteredTree(ctx, "ogi", start, q)
	if err != nil || fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("upgraded: %v\n%+v\nwant\n%+v", err, got, want)
	}
}
