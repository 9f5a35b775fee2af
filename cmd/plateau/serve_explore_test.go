package main

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/plateau/plateau/index"
	"github.com/plateau/plateau/index/browse"
	"github.com/plateau/plateau/record"
	"github.com/plateau/plateau/replay"
	"github.com/plateau/plateau/replay/web"
)

// TestServeExplorer checks the explorer's API on an imported database
// against the library's answers: the list's validity, sorting and filters,
// the opening tree (as `plateau tree`), the games with a position (as
// `plateau search --position`), a position and a move played from it, a
// game's record and the export of a selection.
func TestServeExplorer(t *testing.T) {
	dir := t.TempDir()
	dbDir := filepath.Join(dir, "db")
	mustRun(t, "import", "--db", dbDir, genFile(t, dir, "ogi", 150), filepath.Join(samples, "broken"))
	ctx := context.Background()
	db, err := index.Open(ctx, dbDir, index.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	srv := httptest.NewServer(serveHandler(browse.New(db, replay.Options{})))
	defer srv.Close()
	get := func(path string, v any) int {
		t.Helper()
		return getJSON(t, srv.URL+path, v)
	}

	// Validity: valid, invalid, both.
	totals := map[string]int{}
	for _, v := range []string{"valid", "invalid", "both"} {
		var p web.ListPage
		if st := get("/api/games?limit=5000&valid="+v, &p); st != http.StatusOK {
			t.Fatalf("valid=%s: status %d", v, st)
		}
		totals[v] = p.Total
		for _, g := range p.Games {
			if (v == "valid" && !g.Valid) || (v == "invalid" && g.Valid) {
				t.Fatalf("valid=%s lists %+v", v, g)
			}
		}
	}
	if totals["valid"] != 150 || totals["invalid"] == 0 || totals["both"] != totals["valid"]+totals["invalid"] {
		t.Fatalf("totals %v", totals)
	}

	// Sorting by plies, both ways, and the Elo and round columns.
	for _, desc := range []string{"", "1"} {
		var p web.ListPage
		get("/api/games?valid=valid&sort=plies&limit=50&desc="+desc, &p)
		for i := 1; i < len(p.Games); i++ {
			a, b := p.Games[i-1].Plies, p.Games[i].Plies
			if (desc == "" && a > b) || (desc == "1" && a < b) {
				t.Fatalf("sort=plies desc=%q: %d before %d", desc, a, b)
			}
		}
		if p.Games[0].Elo[0] == "" || p.Games[0].Round == "" {
			t.Errorf("no Elo or round: %+v", p.Games[0])
		}
	}
	var e map[string]string
	if st := get("/api/games?sort=nothing", &e); st != http.StatusBadRequest {
		t.Errorf("sort=nothing: status %d", st)
	}

	// A filter: the games of a player.
	var first web.ListPage
	get("/api/games?valid=valid&limit=1", &first)
	player := first.Games[0].Players[0]
	var byPlayer web.ListPage
	get("/api/games?valid=valid&limit=5000&player="+url.QueryEscape(player), &byPlayer)
	if byPlayer.Total == 0 || byPlayer.Total == 150 {
		t.Fatalf("player %s: %d games", player, byPlayer.Total)
	}
	for _, g := range byPlayer.Games {
		if g.Players[0] != player && g.Players[1] != player {
			t.Fatalf("player %s: listed %+v", player, g.Players)
		}
	}

	// The tree of the position after the first game's first two moves.
	var d web.Detail
	get("/api/games/"+strconv.Itoa(first.Games[0].N), &d)
	node := d.Nodes[d.Nodes[d.Nodes[0].Next].Next]
	var tree []web.TreeMove
	if st := get("/api/tree?game=ogi&fen="+url.QueryEscape(node.FEN), &tree); st != http.StatusOK {
		t.Fatalf("tree: status %d", st)
	}
	pos, err := index.Position("ogi", node.FEN)
	if err != nil {
		t.Fatal(err)
	}
	want, err := db.Tree(ctx, "ogi", pos)
	if err != nil {
		t.Fatal(err)
	}
	if len(tree) == 0 || len(tree) != len(want) {
		t.Fatalf("tree: %d moves, the library %d", len(tree), len(want))
	}
	for i, m := range want {
		if tree[i].Move != m.Move || tree[i].Games != m.Games || tree[i].Score != m.Score || tree[i].First != m.First || tree[i].Last != m.Last || len(tree[i].Top) != len(m.Top) {
			t.Fatalf("tree move %d: %+v, the library %+v", i, tree[i], m)
		}
	}

	// The games with that position: every one, at ply 2, as a search finds them.
	var at web.ListPage
	get("/api/games?game=ogi&limit=5000&position="+url.QueryEscape(node.FEN), &at)
	res, err := db.Search(ctx, index.Query{Game: "ogi", Position: pos, Limit: -1, Count: true})
	if err != nil {
		t.Fatal(err)
	}
	if at.Total != res.Total || len(at.Games) != len(res.Hits) {
		t.Fatalf("position: %d listed of %d, search %d of %d", len(at.Games), at.Total, len(res.Hits), res.Total)
	}
	for i, g := range at.Games {
		if g.N != int(res.Hits[i].ID) || g.MatchPly == nil || *g.MatchPly != res.Hits[i].Ply || g.Variation != res.Hits[i].Variation {
			t.Fatalf("position hit %d: %+v, search %+v", i, g, res.Hits[i])
		}
	}
	// A pattern list is not counted but paged.
	var pat web.ListPage
	if st := get("/api/games?game=ogi&limit=3&pattern="+url.QueryEscape("Sente:K@e1"), &pat); st != http.StatusOK || pat.Total != -1 || !pat.More || len(pat.Games) != 3 {
		t.Fatalf("pattern: status %d, %d games of %d, more %v", st, len(pat.Games), pat.Total, pat.More)
	}
	if st := get("/api/games?game=ogi&pattern=K%3E%3Ex", &e); st != http.StatusBadRequest {
		t.Errorf("bad pattern: status %d", st)
	}

	// A position and a move from it.
	var view web.PositionView
	if st := get("/api/position?game=ogi&fen=", &view); st != http.StatusOK || view.Node.Ply != 0 || len(view.Legal) == 0 {
		t.Fatalf("start: status %d, %+v", st, view.Node)
	}
	mv := view.Legal[0]
	var after web.PositionView
	get("/api/position?game=ogi&ply=0&fen="+url.QueryEscape(view.Node.FEN)+"&move="+url.QueryEscape(mv.Move), &after)
	if after.Node.Move != mv.Move || after.Node.Number != "1." || after.Node.Ply != 1 || after.Node.ToMove != 1 || after.Node.From != mv.From || after.Node.To != mv.To {
		t.Fatalf("after %s: %+v", mv.Move, after.Node)
	}
	if st := get("/api/position?game=ogi&fen=&move=Zz9", &e); st != http.StatusBadRequest || e["error"] == "" {
		t.Errorf("bad move: status %d, %v", st, e)
	}

	// A game's record, and the export of a selection.
	text := getText(t, srv.URL+"/api/games/"+strconv.Itoa(first.Games[0].N)+"/record")
	stored, _ := db.Text(ctx, int64(first.Games[0].N))
	if text != string(stored) {
		t.Fatalf("record: %q", text)
	}
	exported := getText(t, srv.URL+"/api/export?valid=valid&player="+url.QueryEscape(player))
	rd := record.NewReader(strings.NewReader(exported), "export")
	recs := 0
	for {
		g, err := rd.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil || g.Tag("Sente") != player && g.Tag("Gote") != player {
			t.Fatalf("export record %d: %v, %v", recs+1, err, g)
		}
		recs++
	}
	if recs != byPlayer.Total {
		t.Fatalf("export: %d records, the list %d", recs, byPlayer.Total)
	}
	var rs []web.Ruleset
	get("/api/rulesets", &rs)
	if len(rs) < 5 || rs[0].Start == "" {
		t.Fatalf("rulesets: %+v", rs)
	}
}

func getText(t *testing.T, u string) string {
	t.Helper()
	resp, err := http.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("%s: status %d, %v", u, resp.StatusCode, err)
	}
	return string(b)
}

// TestServeFiles: `serve FILE…` imports into a temporary database while
// it serves, reports its progress, and removes the database at the end.
func TestServeFiles(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	paths := []string{filepath.Join(samples, "ogi"), filepath.Join(samples, "broken")}
	src, cleanup, err := serveFiles(context.Background(), paths, replay.Options{DefaultGame: defaultGame}, record.DefaultMaxRecord, io.Discard, nil)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(serveHandler(src))
	st := waitLoaded(t, srv.URL)
	if st.Error != "" || st.Stored == 0 || st.Invalid == 0 || st.Files < 2 {
		t.Fatalf("status %+v", st)
	}
	coll, err := loadCollection(paths)
	if err != nil {
		t.Fatal(err)
	}
	var valid, all web.ListPage
	getJSON(t, srv.URL+"/api/games?valid=valid&limit=5000", &valid)
	getJSON(t, srv.URL+"/api/games?valid=both&limit=5000", &all)
	n := 0
	for _, s := range coll.Summaries() {
		if s.Valid {
			n++
		}
	}
	if valid.Total != n || all.Total != st.Stored || all.Total != coll.Len()-st.Duplicates {
		t.Fatalf("valid %d (files %d), all %d (stored %d, files %d)", valid.Total, n, all.Total, st.Stored, coll.Len())
	}
	for _, g := range valid.Games {
		if !g.Valid {
			t.Fatalf("invalid game in the valid list: %+v", g)
		}
	}
	srv.Close()
	entries, _ := os.ReadDir(tmp)
	if len(entries) != 1 {
		t.Fatalf("temporary database: %v", entries)
	}
	cleanup()
	if entries, _ := os.ReadDir(tmp); len(entries) != 0 {
		t.Fatalf("left behind: %v", entries)
	}
}

// TestServeFilesRecordLimit: `serve --max-record` bounds the records of the
// files it loads: one over the limit is listed as invalid, naming the limit,
// and the games after it still load.
func TestServeFilesRecordLimit(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	small := "[Game \"ogi\"]\n[Event \"small\"]\n1. P-e4 *\n\n"
	big := "[Game \"ogi\"]\n[Event \"big\"]\n1. P-e4 {" + strings.Repeat("a long comment ", 1000) + "} *\n\n"
	file := filepath.Join(tmp, "mixed.pdn")
	if err := os.WriteFile(file, []byte(small+big+strings.Replace(small, "small", "after", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	src, cleanup, err := serveFiles(context.Background(), []string{file}, replay.Options{DefaultGame: defaultGame}, 4096, io.Discard, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cleanup()
	srv := httptest.NewServer(serveHandler(src))
	defer srv.Close()
	waitLoaded(t, srv.URL)
	var valid, invalid web.ListPage
	getJSON(t, srv.URL+"/api/games?valid=valid", &valid)
	getJSON(t, srv.URL+"/api/games?valid=invalid", &invalid)
	if valid.Total != 2 || invalid.Total != 1 || len(invalid.Games) != 1 || !strings.Contains(invalid.Games[0].Error, "record larger than 4 KiB") {
		t.Fatalf("valid %+v\ninvalid %+v", valid, invalid)
	}
}

// waitLoaded waits until the served files are loaded and returns the
// load's status.
func waitLoaded(t *testing.T, url string) web.LoadStatus {
	t.Helper()
	var st web.LoadStatus
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		getJSON(t, url+"/api/status", &st)
		if !st.Loading {
			return st
		}
		if time.Now().After(deadline) {
			t.Fatal("still loading")
		}
	}
}
