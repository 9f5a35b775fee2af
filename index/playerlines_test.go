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
// other criterion of games, and with several of those the players' lines
// answer; few: alone, with a period, with an opponent, and two of the
// combinations.
func playerCases(rg rules.Game, games map[int64]*replay.Game, few bool) []treeCase {
	sides := rg.Sides()
	player := mostPlayed(games, sides[0])
	// ref are a game of the player as each side (the one of the least
	// id: either side, side 0's), whose opponent, event, ratings and
	// result the combined criteria take, so that they select a game.
	var ref [2]*replay.Game
	var refID [2]int64
	for id, g := range games {
		for s := range 2 {
			if strings.TrimSpace(g.Record.Tag(sides[s])) == player && (ref[s] == nil || id < refID[s]) {
				ref[s], refID[s] = g, id
			}
		}
	}
	var out []treeCase
	for i, side := range []string{sides[0], "1", ""} {
		g := ref[i%2]
		tag := func(name string) string { return strings.TrimSpace(g.Record.Tag(name)) }
		lo, hi := tag(sides[0]+"Elo"), tag(sides[1]+"Elo")
		if len(lo) > len(hi) || len(lo) == len(hi) && lo > hi {
			lo, hi = hi, lo
		}
		opp, event, result := tag(sides[1-i%2]), tag("Event"), tag("Result")
		others := []url.Values{{}, {"from": {"1990"}, "to": {"2009"}}, {"opponent": {opp}},
			{"opponent": {opp}, "event": {event}, "min-elo": {lo}},
			{"event": {event}, "min-elo": {lo}, "max-elo": {hi}, "to": {"2030"}, "result": {result}},
			{"from": {"1990.03.15"}}, {"result": {"1-0"}}, {"min-elo": {"1500"}, "max-elo": {"2300"}},
			{"event": {"1"}}, {"event": {event}}, {"min-elo": {lo}}, {"max-elo": {hi}},
			{"event": {event}, "result": {result}, "from": {"1970"}},
			{"opponent": {opp}, "max-elo": {hi}, "result": {result}},
			{"site": {"a"}}, {"min-plies": {"30"}}, {"termination": {"resignation"}}}
		if few {
			others = others[:5]
		}
		for _, o := range others {
			v := url.Values{"player": {player}}
			if side != "" {
				v["side"] = []string{side}
			}
			name := fmt.Sprintf("player %q side %q", player, side)
			for k, vs := range o {
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
				var tags []record.Tag
				switch i % 4 {
				case 0, 2:
					tags = []record.Tag{{Name: rg.Sides()[i%8/4], Value: "Edited Player"}}
				case 1:
					tags = []record.Tag{{Name: "Result", Value: "0-1"}, {Name: "Event", Value: "Edited 1"}}
				case 3:
					tags = []record.Tag{{Name: rg.Sides()[i%8/4] + "Elo", Value: "2000"}}
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
// lines (spoilt, they fail it), with every criterion they answer, and a
// read-only handle on layout 16 or 12 reads the games' rows instead, to
// the same tree; a writable open upgrades the database to layout 17,
// filling the lines as the import wrote them.
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
	for _, c := range []index.Query{
		{Players: alone.Players, Event: "1"},
		{Players: alone.Players, MinElo: 1500, MaxElo: 2500},
		{Players: [2]string{q.Players[1], "a"}},
		{Player: q.Players[1], Opponent: "a"},
		{Player: q.Players[1], Opponent: "a", Event: "o", MinElo: 1000, DateTo: "2020", Result: "1-0"},
	} {
		if got, err := db.FilteredTree(ctx, "ogi", start, c); err == nil {
			t.Fatalf("%+v: spoilt lines read: %v", c, got)
		}
	}
	q.MinPlies = 1
	if got, err := db.FilteredTree(ctx, "ogi", start, q); err == nil {
		t.Fatalf("spoilt lines read: %v", got)
	}
	q.MinPlies = 0

	// Layout 16: lines of an older form (spoilt here), no event_names.
	if err := index.DowngradeToLayout16(ctx, db); err != nil {
		t.Fatal(err)
	}
	db.Close()
	withEvent := q
	withEvent.Event, withEvent.MinElo = "1", 1000
	ro, err := index.Open(ctx, dbDir, index.Options{ReadOnly: true})
	if err != nil {
		t.Fatalf("read-only open of layout 16: %v", err)
	}
	wantEvent, err := ro.FilteredTree(ctx, "ogi", start, withEvent)
	if err != nil || len(wantEvent) == 0 {
		t.Fatalf("layout 16, read-only, with an event: %v %v", wantEvent, err)
	}
	got, err := ro.FilteredTree(ctx, "ogi", start, q)
	ro.Close()
	if err != nil || fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("layout 16, read-only: %v\n%+v\nwant\n%+v", err, got, want)
	}
	var notices []string
	db, err = index.Open(ctx, dbDir, index.Options{Notice: func(s string) { notices = append(notices, s) }})
	if err != nil {
		t.Fatal(err)
	}
	wantLayoutSteps(t, notices, 16)
	upgraded, err := index.PlayerLineRows(ctx, db)
	if err != nil || fmt.Sprint(upgraded) != fmt.Sprint(imported) {
		t.Errorf("%d rows after the upgrade from 16, %d imported: %v", len(upgraded), len(imported), err)
	}
	for c, w := range map[*index.Query][]index.TreeMove{&q: want, &withEvent: wantEvent} {
		if got, err := db.FilteredTree(ctx, "ogi", start, *c); err != nil || fmt.Sprint(got) != fmt.Sprint(w) {
			t.Errorf("upgraded from 16, %+v: %v\n%+v\nwant\n%+v", *c, err, got, w)
		}
	}

	if err := index.DowngradeToLayout12(ctx, db); err != nil {
		t.Fatal(err)
	}
	db.Close()

	ro, err = index.Open(ctx, dbDir, index.Options{ReadOnly: true})
	if err != nil {
		t.Fatalf("read-only open of layout 12: %v", err)
	}
	got, err = ro.FilteredTree(ctx, "ogi", start, q)
	ro.Close()
	if err != nil || fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("layout 12, read-only: %v\n%+v\nwant\n%+v", err, got, want)
	}

	notices = nil
	db, err = index.Open(ctx, dbDir, index.Options{Notice: func(s string) { notices = append(notices, s) }})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	wantLayoutSteps(t, notices, 12)
	upgraded, err = index.PlayerLineRows(ctx, db)
	if err != nil || fmt.Sprint(upgraded) != fmt.Sprint(imported) {
		t.Errorf("%d rows after the upgrade, %d imported: %v", len(upgraded), len(imported), err)
	}
	got, err = db.FilteredTree(ctx, "ogi", start, q)
	if err != nil || fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("upgraded: %v\n%+v\nwant\n%+v", err, got, want)
	}
}
