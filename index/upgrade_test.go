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
	var notices []string
	db, err = index.Open(ctx, dbDir, index.Options{Notice: func(s string) { notices = append(notices, s) }})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if len(notices) != 3 || !strings.Contains(notices[0], "layout 5 to 6") || !strings.Contains(notices[1], "layout 6 to 7") ||
		!strings.Contains(notices[2], "layout 7 to 8") {
		t.Errorf("notices %q", notices)
	}
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
