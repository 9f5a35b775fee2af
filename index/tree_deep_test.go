package index_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/plateau/plateau/index"
	"github.com/plateau/plateau/replay"
	"github.com/plateau/plateau/rules"
)

// TestTreeDeepUpgrade: a layout-15 database's aggregate counts the moves
// of TreeDepth plies, and a read-only handle reads the trees of the
// positions of ply TreeDepth from their games' rows; the upgrade to layout
// 16 adds the moves of the plies up to TreeAggDepth to the tree's rows,
// players and months (the upgrade to 17, of the players' lines, runs
// between). A layout-17 database has tree_months' dates whole; the
// upgrade to 18 stores them without their month. After either the
// rows, months and players are those the import wrote, and the trees
// (whole and of a period) are the same in every layout.
func TestTreeDeepUpgrade(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	dbDir := filepath.Join(dir, "db")
	db := openDB(t, dbDir)
	texts := map[string][]byte{"ogi": genText(t, "ogi", 300, 5), "draughts": genText(t, "draughts", 200, 7)}
	files := []string{writeFile(t, dir, "a.pdn", texts["ogi"]), writeFile(t, dir, "b.pdn", texts["draughts"]),
		writeFile(t, dir, "huff.pdn", []byte(upgrade8Huff)), "../samples/dames"}
	if _, err := importFiles(ctx, db, files, index.ImportOptions{TxGames: 50}); err != nil {
		t.Fatal(err)
	}
	type tables struct{ rows, months, players string }
	read := func(db *index.DB) tables {
		rows, err := index.TreeRows(ctx, db)
		if err != nil {
			t.Fatal(err)
		}
		months, err := index.MonthRows(ctx, db)
		if err != nil {
			t.Fatal(err)
		}
		players, err := index.TreePlayers(ctx, db)
		if err != nil {
			t.Fatal(err)
		}
		if len(rows) < 100 || len(months) < 100 || len(players) < 100 {
			t.Fatalf("%d rows, %d by month, %d player counts: the test means nothing", len(rows), len(months), len(players))
		}
		return tables{fmt.Sprint(rows), fmt.Sprint(months), fmt.Sprint(players)}
	}
	want := read(db)
	type probe struct {
		game string
		pos  rules.Position
	}
	var probes []probe
	for game, text := range texts {
		recs := readAll(t, text)
		for i := 0; i < len(recs); i += 25 {
			g := replay.Replay(recs[i], replay.Options{})
			if g.Err != nil || len(g.Main) <= index.TreeAggDepth {
				continue
			}
			c := g.Cursor()
			for range index.TreeDepth {
				if err := c.Forward(); err != nil {
					t.Fatal(err)
				}
			}
			probes = append(probes, probe{game, c.Position().Clone()})
		}
	}
	if len(probes) < 10 {
		t.Fatalf("%d positions of ply %d: the test means nothing", len(probes), index.TreeDepth)
	}
	period := index.Query{DateFrom: "1990", DateTo: "2009.06"}
	trees := func(db *index.DB) string {
		var b strings.Builder
		for _, p := range probes {
			tr, err := db.Tree(ctx, p.game, p.pos)
			if err != nil || len(tr) == 0 {
				t.Fatalf("%s: tree %v %v", p.pos, tr, err)
			}
			ft, err := db.FilteredTree(ctx, p.game, p.pos, period)
			if err != nil {
				t.Fatal(err)
			}
			fmt.Fprintln(&b, tr, ft)
		}
		return b.String()
	}
	wantTrees := trees(db)

	for _, c := range []struct {
		layout    int
		downgrade func(context.Context, *index.DB) error
		notices   []string
	}{
		{15, index.DowngradeToLayout15, []string{"layout 15 to 16", "layout 16 to 17", "layout 17 to 18", "layout 18 to 19", "layout 19 to 20", "layout 20 to 21", "layout 21 to 22", "layout 22 to 23", "layout 23 to 24", "layout 24 to 25"}},
		{17, index.DowngradeToLayout17, []string{"layout 17 to 18", "layout 18 to 19", "layout 19 to 20", "layout 20 to 21", "layout 21 to 22", "layout 22 to 23", "layout 23 to 24", "layout 24 to 25"}},
	} {
		if err := c.downgrade(ctx, db); err != nil {
			t.Fatal(err)
		}
		if got := read(db); got.months == want.months || c.layout == 15 && got.rows == want.rows {
			t.Fatalf("layout %d: the downgrade changed nothing", c.layout)
		}
		db.Close()
		ro, err := index.Open(ctx, dbDir, index.Options{ReadOnly: true})
		if err != nil {
			t.Fatalf("read-only open of layout %d: %v", c.layout, err)
		}
		got := trees(ro)
		ro.Close()
		if got != wantTrees {
			t.Errorf("layout %d, read-only: the trees of ply %d\n%s\nwant\n%s", c.layout, index.TreeDepth, got, wantTrees)
		}

		var notices []string
		db, err = index.Open(ctx, dbDir, index.Options{Notice: func(s string) { notices = append(notices, s) }})
		if err != nil {
			t.Fatal(err)
		}
		if len(notices) != len(c.notices) || !strings.Contains(notices[0], c.notices[0]) || !strings.Contains(notices[len(notices)-1], c.notices[len(c.notices)-1]) {
			t.Errorf("layout %d: notices %q", c.layout, notices)
		}
		if got := read(db); got != want {
			t.Errorf("layout %d upgraded: the aggregate is not the one the import wrote", c.layout)
		}
		if got := trees(db); got != wantTrees {
			t.Errorf("layout %d upgraded: the trees of ply %d\n%s\nwant\n%s", c.layout, index.TreeDepth, got, wantTrees)
		}
	}
	db.Close()
}
