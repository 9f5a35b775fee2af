package main

import (
	"context"
	"encoding/json"
	"fmt"
	"github.com/plateau/plateau/index"
	"github.com/plateau/plateau/index/browse"
	"github.com/plateau/plateau/replay"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/plateau/plateau/replay/web"
)

// serveSamples starts the serve handler on every sample collection that
// exists (and the broken records).
func serveSamples(t *testing.T) (*httptest.Server, []string) {
	t.Helper()
	var dirs []string
	for _, d := range []string{"ogi", "dames", "dames-brigand", "loup-moutons", "draughts", "jetan", "dejarik", "sauts", "broken"} {
		p := filepath.Join(samples, d)
		if _, err := os.Stat(p); err == nil {
			dirs = append(dirs, p)
		}
	}
	coll, err := loadCollection(dirs)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(serveHandler(coll.Source()))
	t.Cleanup(srv.Close)
	return srv, dirs
}

func getJSON(t *testing.T, url string, v any) int {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		t.Fatalf("%s: Content-Type %q", url, ct)
	}
	if err := json.NewDecoder(resp.Body).Decode(v); err != nil {
		t.Fatalf("%s: %v", url, err)
	}
	return resp.StatusCode
}

func TestServeAPI(t *testing.T) {
	srv, dirs := serveSamples(t)
	var list struct{ Games []web.Summary }
	if st := getJSON(t, srv.URL+"/api/games", &list); st != http.StatusOK {
		t.Fatalf("status %d", st)
	}
	if len(list.Games) < len(dirs) {
		t.Fatalf("%d games from %d folders", len(list.Games), len(dirs))
	}
	byGame := map[string]int{}
	valid, invalid := 0, 0
	for i, s := range list.Games {
		if s.N != i+1 {
			t.Fatalf("game %d numbered %d", i+1, s.N)
		}
		broken := strings.Contains(filepath.ToSlash(s.File), "/broken/")
		if s.Valid == broken {
			t.Errorf("%s game %d: valid %v (error %q)", s.File, s.Index, s.Valid, s.Error)
		}
		if s.Valid {
			valid++
		} else {
			invalid++
			if s.Error == "" {
				t.Errorf("%s: invalid without an error", s.File)
			}
		}
		byGame[s.Game]++
	}
	if valid == 0 || invalid == 0 {
		t.Fatalf("%d valid, %d invalid", valid, invalid)
	}
	for _, id := range []string{"ogi", "dames", "draughts", "jetan", "dejarik"} {
		if byGame[id] == 0 {
			t.Errorf("no %s game in the samples", id)
		}
	}
	for _, s := range list.Games {
		var d web.Detail
		if st := getJSON(t, srv.URL+"/api/games/"+strconv.Itoa(s.N), &d); st != http.StatusOK {
			t.Fatalf("game %d: status %d", s.N, st)
		}
		if d.Summary != s {
			t.Fatalf("game %d: summary %+v, list says %+v", s.N, d.Summary, s)
		}
		if s.Valid {
			checkDetail(t, &d)
		}
	}
}

// checkDetail checks a valid game's positions: the tree is consistent, the
// main line has as many moves as the game has plies, and every piece stands
// on a square of the board geometry.
func checkDetail(t *testing.T, d *web.Detail) {
	t.Helper()
	where := fmt.Sprintf("%s game %d", d.File, d.Index)
	if len(d.Nodes) == 0 || d.Nodes[0].Parent != -1 || d.Nodes[0].Move != "" {
		t.Fatalf("no start node: %+v", d.Nodes)
	}
	cells := map[string]bool{}
	for _, c := range d.Geometry.Cells {
		if c.Name != "" {
			cells[c.Name] = true
		}
	}
	if len(cells) == 0 {
		t.Fatalf("%s: no geometry", d.Game)
	}
	mainMoves := 0
	for id := d.Nodes[0].Next; id >= 0; id = d.Nodes[id].Next {
		if d.Nodes[id].Depth != 0 {
			t.Fatalf("%s node %d in the main line has depth %d", where, id, d.Nodes[id].Depth)
		}
		mainMoves++
	}
	if mainMoves < d.Plies {
		t.Errorf("main line has %d moves, game %d plies", mainMoves, d.Plies)
	}
	for id, n := range d.Nodes {
		if id > 0 {
			if n.Parent < 0 || n.Parent >= id || n.Move == "" || n.Number == "" {
				t.Fatalf("%s node %d: %+v", where, id, n)
			}
		}
		for _, v := range n.Vars {
			if d.Nodes[v].Parent != n.Parent || d.Nodes[v].Depth != n.Depth+1 {
				t.Fatalf("variation %d of node %d: parent %d depth %d", v, id, d.Nodes[v].Parent, d.Nodes[v].Depth)
			}
		}
		if n.FEN == "" {
			t.Fatalf("%s node %d: no position notation", where, id)
		}
		for _, p := range n.Pieces {
			if p.Square != "" && !cells[p.Square] {
				t.Fatalf("%s node %d: piece on %q, not a square of the %s board", where, id, p.Square, d.Game)
			}
			if p.Square == "" && !d.Geometry.Hands {
				t.Fatalf("%s node %d: piece in hand but no hands drawn", where, id)
			}
		}
		if (n.From != "" && !cells[n.From]) || (n.To != "" && !cells[n.To]) {
			t.Fatalf("%s node %d: move %s from %q to %q off the board", where, id, n.Move, n.From, n.To)
		}
	}
}

func TestServeErrors(t *testing.T) {
	srv, _ := serveSamples(t)
	var e map[string]string
	if st := getJSON(t, srv.URL+"/api/games/0", &e); st != http.StatusNotFound || e["error"] == "" {
		t.Errorf("game 0: status %d %v", st, e)
	}
	if st := getJSON(t, srv.URL+"/api/games/x", &e); st != http.StatusBadRequest {
		t.Errorf("game x: status %d", st)
	}
}

func TestServePage(t *testing.T) {
	srv, _ := serveSamples(t)
	for path, want := range map[string]string{
		"/":                 `<script src="static/app.js">`,
		"/static/app.js":    "function drawBoard",
		"/static/style.css": "#board",
	} {
		resp, err := http.Get(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), want) {
			t.Errorf("%s: status %d, %d bytes, want %q", path, resp.StatusCode, len(body), want)
		}
	}
	resp, err := http.Get(srv.URL + "/nothing")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotFound {
		t.Errorf("/nothing: status %d", resp.StatusCode)
	}
}

// TestServeShutdown checks that the server stops when its context is done.
func TestServeShutdown(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- serveUntil(ctx, ln, http.NotFoundHandler()) }()
	resp, err := http.Get("http://" + ln.Addr().String() + "/")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("server did not stop")
	}
}

// TestServeScreenshotServer keeps a server up for a headless browser to look
// at, when PLATEAU_SERVE_ADDR is set (a manual check, not part of CI).
func TestServeScreenshotServer(t *testing.T) {
	addr := os.Getenv("PLATEAU_SERVE_ADDR")
	if addr == "" {
		t.Skip("set PLATEAU_SERVE_ADDR to serve the samples for a manual look")
	}
	_, dirs := serveSamples(t)
	coll, err := loadCollection(dirs)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	if err := serveUntil(ctx, ln, serveHandler(coll.Source())); err != nil {
		t.Fatal(err)
	}
}

// TestServeDatabase serves an imported database: pages of the list, the
// filters, a game's positions, and the errors of the API.
func TestServeDatabase(t *testing.T) {
	dir := t.TempDir()
	dbDir := filepath.Join(dir, "db")
	mustRun(t, "import", "--db", dbDir, genFile(t, dir, "draughts", 120), genFile(t, dir, "jetan", 30),
		filepath.Join("..", "..", "samples", "broken"))
	if _, errOut, status := plateau(t, "serve", "--db", dbDir, filepath.Join("..", "..", "samples", "ogi")); status != exitUsage || !strings.Contains(errOut, "not both") {
		t.Errorf("serve with files and --db: status %d, %q", status, errOut)
	}
	db, err := index.Open(context.Background(), dbDir, index.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	srv := httptest.NewServer(serveHandler(browse.New(db, replay.Options{})))
	defer srv.Close()

	var page web.ListPage
	if st := getJSON(t, srv.URL+"/api/games?game=draughts&valid=valid&offset=100&limit=50", &page); st != http.StatusOK {
		t.Fatalf("status %d", st)
	}
	if page.Total != 120 || len(page.Games) != 20 || page.Offset != 100 || !slices.Contains(page.Rulesets, "jetan") {
		t.Fatalf("draughts from 100: %d of %d from %d, rulesets %v", len(page.Games), page.Total, page.Offset, page.Rulesets)
	}
	for _, s := range page.Games {
		if s.Game != "draughts" || !s.Valid {
			t.Fatalf("listed %+v", s)
		}
	}
	var d web.Detail
	if st := getJSON(t, srv.URL+"/api/games/"+strconv.Itoa(page.Games[0].N), &d); st != http.StatusOK {
		t.Fatalf("game %d: status %d", page.Games[0].N, st)
	}
	if d.Players != page.Games[0].Players || d.Plies != page.Games[0].Plies {
		t.Fatalf("game %d: detail %+v, list %+v", d.N, d.Summary, page.Games[0])
	}
	checkDetail(t, &d)

	// Words search the text index: a player of the page finds his games.
	name := strings.Fields(page.Games[0].Players[0])[0]
	var byName web.ListPage
	getJSON(t, srv.URL+"/api/games?q="+url.QueryEscape(name), &byName)
	if byName.Total == 0 || byName.Total >= 150 {
		t.Errorf("q=%s: %d games", name, byName.Total)
	}
	var invalid web.ListPage
	getJSON(t, srv.URL+"/api/games?valid=invalid&limit=5000", &invalid)
	if invalid.Total == 0 || invalid.Total != len(invalid.Games) {
		t.Errorf("invalid games: %d listed of %d", len(invalid.Games), invalid.Total)
	}
	for _, s := range invalid.Games {
		var d web.Detail
		getJSON(t, srv.URL+"/api/games/"+strconv.Itoa(s.N), &d)
		if d.Valid || d.Error == "" {
			t.Errorf("invalid game %d: %+v", s.N, d.Summary)
		}
	}
	var e map[string]string
	for _, q := range []string{"offset=-1", "limit=x", "valid=maybe"} {
		if st := getJSON(t, srv.URL+"/api/games?"+q, &e); st != http.StatusBadRequest || e["error"] == "" {
			t.Errorf("?%s: status %d, %v", q, st, e)
		}
	}
	if st := getJSON(t, srv.URL+"/api/games/999999", &e); st != http.StatusNotFound {
		t.Errorf("missing game: status %d", st)
	}
}
