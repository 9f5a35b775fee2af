package index_test

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/plateau/plateau/index"
)

// TestUpgrade5: a layout-5 database (a tree_players row per player, no
// tree.np) is refused read-only with a message that says how to upgrade
// it, and upgraded by a writable open, with a notice: its tree rows and
// every player count are what they were in layout 6, and an import into
// it keeps them exact.
func TestUpgrade5(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	dbDir := filepath.Join(dir, "db")
	db := openDB(t, dbDir)
	f := writeFile(t, dir, "a.pdn", genText(t, "draughts", 600, 9))
	if _, err := importFiles(ctx, db, []string{f}, index.ImportOptions{TxGames: 100}); err != nil {
		t.Fatal(err)
	}
	players, err := index.TreePlayers(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	tree, err := index.TreeRows(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	months, err := index.MonthRows(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	var spilled int
	db.SQL().QueryRowContext(ctx, `SELECT COUNT(*) FROM tree WHERE np > 3`).Scan(&spilled)
	if spilled == 0 || len(players) < 1000 {
		t.Fatalf("%d moves of more than 3 players, %d player counts: the test means nothing", spilled, len(players))
	}
	if err := index.DowngradeToLayout5(ctx, db); err != nil {
		t.Fatal(err)
	}
	db.Close()

	_, err = index.Open(ctx, dbDir, index.Options{ReadOnly: true})
	if !errors.Is(err, index.ErrSchema) || !strings.Contains(err.Error(), "upgrade") {
		t.Fatalf("read-only open of layout 5: %v", err)
	}
	db = openUpgraded(t, dbDir, 5)
	gotPlayers, err := index.TreePlayers(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	gotTree, err := index.TreeRows(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(gotPlayers) != fmt.Sprint(players) {
		t.Errorf("player counts differ after the upgrade (%d against %d)", len(gotPlayers), len(players))
	}
	if fmt.Sprint(gotTree) != fmt.Sprint(tree) {
		t.Errorf("tree rows differ after the upgrade (%d against %d)", len(gotTree), len(tree))
	}
	if gotMonths, err := index.MonthRows(ctx, db); err != nil || fmt.Sprint(gotMonths) != fmt.Sprint(months) {
		t.Errorf("rows by month differ after the upgrade (%d against %d, %v)", len(gotMonths), len(months), err)
	}
	g := writeFile(t, dir, "b.pdn", genText(t, "draughts", 300, 10))
	if _, err := importFiles(ctx, db, []string{g}, index.ImportOptions{TxGames: 100}); err != nil {
		t.Fatal(err)
	}
	if _, err := index.CheckTreeTops(ctx, db); err != nil {
		t.Fatalf("after an import into the upgraded database: %v", err)
	}
	db.Close()
	ro, err := index.Open(ctx, dbDir, index.Options{ReadOnly: true})
	if err != nil {
		t.Fatalf("read-only open after the upgrade: %v", err)
	}
	ro.Close()
}

// upgrade8Huff is a dames game with a huff in its first plies (it keeps
// the turn: not a tree move), which one side won.
const upgrade8Huff = `[Game "dames"]
[White "Huff, Anna"]
[Black "Huff, Bert"]
[Result "0-1"]

1. 19-23 32-28 2. 14-19 2... H23 31-27 3. 17-21 0-1
`

// TestUpgrade8: a layout-8 database (tree rows without the games each
// side won) is read as it is by a read-only open, its tree's wins unknown,
// and upgraded by a writable open, with a notice: every tree row's wins are
// what the import counted (wins, draws of 2-0 and 1-1 draughts results,
// Dejarik points with 0-0 and 1-1 draws, a huff in the first plies).
func TestUpgrade8(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	dbDir := filepath.Join(dir, "db")
	db := openDB(t, dbDir)
	files := []string{writeFile(t, dir, "a.pdn", genText(t, "draughts", 300, 7)), writeFile(t, dir, "b.pdn", genText(t, "dames", 200, 8)),
		writeFile(t, dir, "huff.pdn", []byte(upgrade8Huff)), "../samples/draughts", "../samples/dejarik"}
	if _, err := importFiles(ctx, db, files, index.ImportOptions{TxGames: 100}); err != nil {
		t.Fatal(err)
	}
	tree, err := index.TreeRows(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	var w0, w1, draws int
	db.SQL().QueryRowContext(ctx, `SELECT SUM(w0), SUM(w1), SUM(scored - w0 - w1) FROM tree`).Scan(&w0, &w1, &draws)
	if w0 == 0 || w1 == 0 || draws == 0 {
		t.Fatalf("wins %d and %d, %d draws: the test means nothing", w0, w1, draws)
	}
	start := upgrade8Tree(t, db, "dejarik")
	if err := index.DowngradeToLayout8(ctx, db); err != nil {
		t.Fatal(err)
	}
	db.Close()

	ro, err := index.Open(ctx, dbDir, index.Options{ReadOnly: true})
	if err != nil {
		t.Fatalf("read-only open of layout 8: %v", err)
	}
	for _, m := range upgrade8Tree(t, ro, "dejarik") {
		if !m.WinsUnknown || m.Wins != [2]int{} {
			t.Errorf("layout 8 read-only: %s has wins %v (unknown: %v)", m.Move, m.Wins, m.WinsUnknown)
		}
	}
	ro.Close()

	db = openUpgraded(t, dbDir, 8)
	got, err := index.TreeRows(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(got) != fmt.Sprint(tree) {
		for k, v := range tree {
			if got[k] != v {
				t.Errorf("tree row %s: %s after the upgrade, the import wrote %s", k, got[k], v)
			}
		}
	}
	if after := upgrade8Tree(t, db, "dejarik"); fmt.Sprint(after) != fmt.Sprint(start) {
		t.Errorf("Dejarik's start after the upgrade\n%+v\nwant\n%+v", after, start)
	}
}

// upgrade8Tree is the tree of the start of ruleset game.
func upgrade8Tree(t *testing.T, db *index.DB, game string) []index.TreeMove {
	t.Helper()
	pos, err := index.Position(game, "")
	if err != nil {
		t.Fatal(err)
	}
	moves, err := db.Tree(context.Background(), game, pos)
	if err != nil || len(moves) == 0 {
		t.Fatalf("tree of %s's start: %d moves, %v", game, len(moves), err)
	}
	return moves
}

// TestUpgrade9: a layout-9 database (no tree by month) answers a period's
// tree from its games when opened read-only, and a writable open builds
// the months from the stored games, with a notice: every row what the
// import counted, and the period's tree the same either way.
func TestUpgrade9(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	dbDir := filepath.Join(dir, "db")
	db := openDB(t, dbDir)
	files := []string{writeFile(t, dir, "a.pdn", genText(t, "draughts", 300, 7)), writeFile(t, dir, "huff.pdn", []byte(upgrade8Huff)), "../samples/dames"}
	if _, err := importFiles(ctx, db, files, index.ImportOptions{TxGames: 100}); err != nil {
		t.Fatal(err)
	}
	months, err := index.MonthRows(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	if len(months) < 100 {
		t.Fatalf("%d rows by month: the test means nothing", len(months))
	}
	period := index.Query{DateFrom: "1990", DateTo: "2009.06"}
	start, _ := index.Position("draughts", "")
	want, err := db.FilteredTree(ctx, "draughts", start, period)
	if err != nil || len(want) == 0 {
		t.Fatalf("period tree: %v %v", want, err)
	}
	if err := index.DowngradeToLayout9(ctx, db); err != nil {
		t.Fatal(err)
	}
	db.Close()

	ro, err := index.Open(ctx, dbDir, index.Options{ReadOnly: true})
	if err != nil {
		t.Fatalf("read-only open of layout 9: %v", err)
	}
	got, err := ro.FilteredTree(ctx, "draughts", start, period)
	ro.Close()
	if err != nil {
		t.Fatal(err)
	}
	for i := range got {
		got[i].Top = nil // the months keep no players
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("layout 9, read-only: the period's tree\n%+v\nwant\n%+v", got, want)
	}

	db = openUpgraded(t, dbDir, 9)
	after, err := index.MonthRows(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(after) != fmt.Sprint(months) {
		for k, v := range months {
			if after[k] != v {
				t.Errorf("row %s: %s after the upgrade, the import wrote %s", k, after[k], v)
			}
		}
		t.Errorf("%d rows after the upgrade, %d before", len(after), len(months))
	}
	if got, err := db.FilteredTree(ctx, "draughts", start, period); err != nil || fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("after the upgrade: %+v, %v", got, err)
	}
}
