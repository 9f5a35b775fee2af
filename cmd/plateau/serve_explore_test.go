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
	"github.com/plateau/plateau/internal/pdn3check"
	"github.com/plateau/plateau/record"
	"github.com/plateau/plateau/replay"
	"github.com/plateau/plateau/replay/web"
	"github.com/plateau/plateau/rules"
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
	x := &explorerTest{t: t, ctx: ctx, db: db, url: srv.URL}

	x.checkValidity()
	x.checkSorting()
	first, player, byPlayer := x.checkPlayerFilter()
	fen, pos := x.checkTree(first)
	x.checkPositionGames(fen, pos)
	x.checkPositionAndMove()
	x.checkRecordAndExport(first, player, byPlayer.Total)
	var rs []web.Ruleset
	x.get("/api/rulesets", &rs)
	if len(rs) < 5 || rs[0].Start == "" {
		t.Fatalf("rulesets: %+v", rs)
	}
}

// explorerTest is TestServeExplorer's server over its imported database
// (150 valid ogi games and the broken samples), with the database itself to
// compare with.
type explorerTest struct {
	t   *testing.T
	ctx context.Context
	db  *index.DB
	url string
}

// get decodes the JSON answer to path into v and returns the status.
func (x *explorerTest) get(path string, v any) int {
	x.t.Helper()
	return getJSON(x.t, x.url+path, v)
}

// checkValidity: valid, invalid, both.
func (x *explorerTest) checkValidity() {
	t := x.t
	totals := map[string]int{}
	for _, v := range []string{"valid", "invalid", "both"} {
		var p web.ListPage
		if st := x.get("/api/games?limit=5000&valid="+v, &p); st != http.StatusOK {
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
}

// checkSorting: by plies, both ways, and the Elo and round columns.
func (x *explorerTest) checkSorting() {
	t := x.t
	for _, desc := range []string{"", "1"} {
		var p web.ListPage
		x.get("/api/games?valid=valid&sort=plies&limit=50&desc="+desc, &p)
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
	if st := x.get("/api/games?sort=nothing", &e); st != http.StatusBadRequest {
		t.Errorf("sort=nothing: status %d", st)
	}
}

// checkPlayerFilter: the games of a player, the first player of the first
// valid game; it returns that first page, the player and their games.
func (x *explorerTest) checkPlayerFilter() (first web.ListPage, player string, byPlayer web.ListPage) {
	t := x.t
	x.get("/api/games?valid=valid&limit=1", &first)
	player = first.Games[0].Players[0]
	x.get("/api/games?valid=valid&limit=5000&player="+url.QueryEscape(player), &byPlayer)
	if byPlayer.Total == 0 || byPlayer.Total == 150 {
		t.Fatalf("player %s: %d games", player, byPlayer.Total)
	}
	for _, g := range byPlayer.Games {
		if g.Players[0] != player && g.Players[1] != player {
			t.Fatalf("player %s: listed %+v", player, g.Players)
		}
	}
	return first, player, byPlayer
}

// checkTree: the tree of the position after the first game's first two
// moves, as the library gives it; it returns that position.
func (x *explorerTest) checkTree(first web.ListPage) (fen string, pos rules.Position) {
	t := x.t
	var d web.Detail
	x.get("/api/games/"+strconv.Itoa(first.Games[0].N), &d)
	node := d.Nodes[d.Nodes[d.Nodes[0].Next].Next]
	var tree []web.TreeMove
	if st := x.get("/api/tree?game=ogi&fen="+url.QueryEscape(node.FEN), &tree); st != http.StatusOK {
		t.Fatalf("tree: status %d", st)
	}
	pos, err := index.Position("ogi", node.FEN)
	if err != nil {
		t.Fatal(err)
	}
	want, err := x.db.Tree(x.ctx, "ogi", pos)
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
		if tree[i].Wins == nil || *tree[i].Wins != m.Wins || m.WinsUnknown {
			t.Fatalf("tree move %d: wins %v, the library %v (unknown: %v)", i, tree[i].Wins, m.Wins, m.WinsUnknown)
		}
	}
	return node.FEN, pos
}

// checkPositionGames: the games with the position: every one, at ply 2, as
// a search finds them; a pattern list is not counted but paged.
func (x *explorerTest) checkPositionGames(fen string, pos rules.Position) {
	t := x.t
	var at web.ListPage
	x.get("/api/games?game=ogi&limit=5000&position="+url.QueryEscape(fen), &at)
	res, err := x.db.Search(x.ctx, index.Query{Game: "ogi", Position: pos, Limit: -1, Count: true})
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
	var pat web.ListPage
	if st := x.get("/api/games?game=ogi&limit=3&pattern="+url.QueryEscape("Sente:K@e1"), &pat); st != http.StatusOK || pat.Total != -1 || !pat.More || len(pat.Games) != 3 {
		t.Fatalf("pattern: status %d, %d games of %d, more %v", st, len(pat.Games), pat.Total, pat.More)
	}
	var e map[string]string
	if st := x.get("/api/games?game=ogi&pattern=K%3E%3Ex", &e); st != http.StatusBadRequest {
		t.Errorf("bad pattern: status %d", st)
	}
}

// checkPositionAndMove: the start position, a move from it, a bad move.
func (x *explorerTest) checkPositionAndMove() {
	t := x.t
	var view web.PositionView
	if st := x.get("/api/position?game=ogi&fen=", &view); st != http.StatusOK || view.Node.Ply != 0 || len(view.Legal) == 0 {
		t.Fatalf("start: status %d, %+v", st, view.Node)
	}
	mv := view.Legal[0]
	var after web.PositionView
	x.get("/api/position?game=ogi&ply=0&fen="+url.QueryEscape(view.Node.FEN)+"&move="+url.QueryEscape(mv.Move), &after)
	if after.Node.Move != mv.Move || after.Node.Number != "1." || after.Node.Ply != 1 || after.Node.ToMove != 1 || after.Node.From != mv.From || after.Node.To != mv.To {
		t.Fatalf("after %s: %+v", mv.Move, after.Node)
	}
	var e map[string]string
	if st := x.get("/api/position?game=ogi&fen=&move=Zz9", &e); st != http.StatusBadRequest || e["error"] == "" {
		t.Errorf("bad move: status %d, %v", st, e)
	}
}

// checkRecordAndExport: the first game's record as stored, and the export
// of the player's games, one record each.
func (x *explorerTest) checkRecordAndExport(first web.ListPage, player string, games int) {
	t := x.t
	text := getText(t, x.url+"/api/games/"+strconv.Itoa(first.Games[0].N)+"/record")
	stored, _ := x.db.Text(x.ctx, int64(first.Games[0].N))
	if text != string(stored) {
		t.Fatalf("record: %q", text)
	}
	if dl := getText(t, x.url+"/api/games/"+strconv.Itoa(first.Games[0].N)+"/record?download=1"); dl != string(record.PDN(stored)) || pdn3check.Check([]byte(dl)) != nil {
		t.Fatalf("download is not the record in PDN 3.0 (%v): %q", pdn3check.Check([]byte(dl)), dl)
	}
	exported := getText(t, x.url+"/api/export?valid=valid&player="+url.QueryEscape(player))
	if err := pdn3check.Check([]byte(exported)); err != nil {
		t.Fatalf("export is not PDN 3.0: %v", err)
	}
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
	if recs != games {
		t.Fatalf("export: %d records, the list %d", recs, games)
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
