package browse_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/plateau/plateau/index"
	"github.com/plateau/plateau/index/browse"
	"github.com/plateau/plateau/internal/ingest"
	"github.com/plateau/plateau/replay"
	"github.com/plateau/plateau/replay/web"
)

// apiServer serves a database of the draughts, Ōgi and Dejarik samples on
// 127.0.0.1, with the sample opening names (samples/openings-descriptive.tsv).
func apiServer(t *testing.T) *httptest.Server {
	t.Helper()
	ctx := context.Background()
	db, err := index.Open(ctx, t.TempDir(), index.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	var paths []string
	for _, d := range []string{"draughts", "ogi", "dejarik"} {
		paths = append(paths, filepath.Join("..", "..", "samples", d))
	}
	if _, err := ingest.Files(ctx, db, paths, ingest.Options{}); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(filepath.Join("..", "..", "samples", "openings-descriptive.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	es, errs := index.ReadOpenings(f, f.Name())
	f.Close()
	if _, errs2, err := db.ImportOpenings(ctx, es); err != nil || len(errs)+len(errs2) > 0 {
		t.Fatal(errs, errs2, err)
	}
	assets := fstest.MapFS{"index.html": {Data: []byte("<!doctype html>")}}
	srv := httptest.NewUnstartedServer(web.Handler(browse.New(db, replay.Options{}), assets))
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv.Listener = l
	srv.Start()
	t.Cleanup(srv.Close)
	return srv
}

// get answers path with its status and decoded JSON.
func get(t *testing.T, srv *httptest.Server, path string) (int, any) {
	t.Helper()
	resp, err := http.Get(srv.URL + path)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("%s: not JSON: %v\n%s", path, err, b)
	}
	return resp.StatusCode, v
}

// example is a request of docs/api.md with its documented status and answer.
type example struct {
	path   string
	status int
	answer any
}

// examplePattern is an example of docs/api.md: a request block
// ("GET /api/v1/…", then optionally "→ 404"), then the answer's JSON block.
var examplePattern = regexp.MustCompile("(?s)```http\nGET (\\S+)\n(?:→ (\\d+)\n)?```\n+```json\n(.*?)\n```")

func apiExamples(t *testing.T) []example {
	t.Helper()
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "api.md"))
	if err != nil {
		t.Fatal(err)
	}
	var out []example
	for _, m := range examplePattern.FindAllStringSubmatch(string(doc), -1) {
		e := example{path: m[1], status: http.StatusOK}
		if m[2] != "" {
			fmt.Sscan(m[2], &e.status)
		}
		if err := json.Unmarshal([]byte(m[3]), &e.answer); err != nil {
			t.Fatalf("docs/api.md, the answer of %s is not JSON: %v", e.path, err)
		}
		out = append(out, e)
	}
	return out
}

// shapeDiff says where got does not have the shape of want: every key of
// a documented object is in the answer with a value of the same shape; a
// documented array's elements have the shape of the answer's first ones
// (the answer has at least as many); "…" in a documented array stands for
// more elements of the same shape.
func shapeDiff(at string, want, got any) string {
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			return fmt.Sprintf("%s: %T, documented an object", at, got)
		}
		for k, v := range w {
			gv, ok := g[k]
			if !ok {
				return fmt.Sprintf("%s.%s: missing", at, k)
			}
			if d := shapeDiff(at+"."+k, v, gv); d != "" {
				return d
			}
		}
	case []any:
		g, ok := got.([]any)
		if !ok {
			return fmt.Sprintf("%s: %T, documented an array", at, got)
		}
		n := 0
		for _, v := range w {
			if v == "…" {
				continue
			}
			if n >= len(g) {
				return fmt.Sprintf("%s: %d elements, documented at least %d", at, len(g), n+1)
			}
			if d := shapeDiff(fmt.Sprintf("%s[%d]", at, n), v, g[n]); d != "" {
				return d
			}
			n++
		}
	default:
		if fmt.Sprintf("%T", want) != fmt.Sprintf("%T", got) {
			return fmt.Sprintf("%s: %T %v, documented %T %v", at, got, got, want, want)
		}
	}
	return ""
}

// TestAPIExamples runs every example of docs/api.md against a server of
// the samples and checks the status and the answer's shape; the
// documented paths must be the versioned ones, and each must answer as
// its unversioned alias does.
func TestAPIExamples(t *testing.T) {
	srv := apiServer(t)
	exs := apiExamples(t)
	if len(exs) < 8 {
		t.Fatalf("docs/api.md has %d examples; the endpoints need more", len(exs))
	}
	for _, e := range exs {
		if !strings.HasPrefix(e.path, "/api/v1/") {
			t.Errorf("%s: documented paths are versioned (/api/v1/…)", e.path)
			continue
		}
		status, got := get(t, srv, e.path)
		if status != e.status {
			t.Errorf("GET %s: status %d, documented %d (%v)", e.path, status, e.status, got)
			continue
		}
		if d := shapeDiff("answer", e.answer, got); d != "" {
			t.Errorf("GET %s: %s", e.path, d)
		}
		old := "/api/" + strings.TrimPrefix(e.path, "/api/v1/")
		if st, v := get(t, srv, old); st != status || fmt.Sprint(v) != fmt.Sprint(got) {
			t.Errorf("GET %s answers %d %v, its alias %s %d", old, st, v, e.path, status)
		}
	}
}

// TestAPIPeople checks the answers' values where the examples check only
// their shape: a player's totals, the crosstable's scale, the statistics.
func TestAPIPeople(t *testing.T) {
	srv := apiServer(t)
	_, v := get(t, srv, "/api/v1/player?name=Sijbrands")
	p := v.(map[string]any)
	total := p["total"].(map[string]any)
	if p["name"] != "Sijbrands, T." || total["games"] != 12.0 {
		t.Errorf("player page %v", p)
	}
	// The named openings: the three games of the deeper name, one of the
	// shallower (the deepest name counts a game once), none unnamed.
	var named []string
	for _, n := range p["named"].([]any) {
		m := n.(map[string]any)
		named = append(named, fmt.Sprint(m["name"], " ", m["side"], " ", m["games"], " ", m["score"]))
	}
	if strings.Join(named, "|") != "Draughts: 31-27 17-22 (descriptive) 0 3 2|Draughts: 31-27 flank opening (descriptive) 0 1 0.5" {
		t.Errorf("player page's named openings %q", named)
	}
	_, v = get(t, srv, "/api/v1/crosstable?event=Plateau+samples&game=draughts")
	c := v.(map[string]any)
	lines := c["lines"].([]any)
	if c["players"] != 2.0 || len(lines) != 2 {
		t.Fatalf("crosstable %v", c)
	}
	var sum, points float64
	for _, l := range lines {
		sum += l.(map[string]any)["score"].(float64)
		points += l.(map[string]any)["points"].(float64)
	}
	// 12 games on one scale, from results written 2-0, 0-2 and 1/2-1/2.
	if sum != 12 || points != 18 {
		t.Errorf("crosstable scores sum to %v (points %v), want 12 (18: 2-0 wins, 1/2-1/2 draws): %v", sum, points, c)
	}
	// The event's named openings: the player's page's, seen from White.
	_, v = get(t, srv, "/api/v1/openings/played?event=Plateau+samples&game=draughts")
	named = nil
	for _, n := range v.([]any) {
		m := n.(map[string]any)
		named = append(named, fmt.Sprint(m["name"], " ", m["side"], " ", m["games"], " ", m["wins"], "/", m["draws"], "/", m["losses"]))
	}
	if strings.Join(named, "|") != "Draughts: 31-27 17-22 (descriptive) 0 3 1/2/0|Draughts: 31-27 flank opening (descriptive) 0 1 0/1/0" {
		t.Errorf("the event's named openings %q", named)
	}
	_, v = get(t, srv, "/api/v1/stats")
	s := v.(map[string]any)
	if s["games"].(float64) < 20 || len(s["rulesets"].([]any)) != 3 {
		t.Errorf("stats %v", s)
	}
	if st, _ := get(t, srv, "/api/v1/player?name=Nobody+Atall"); st != http.StatusNotFound {
		t.Errorf("an unknown player: status %d", st)
	}
}

// TestAPITreeFilters: the tree's parameters other than game and fen are
// search criteria: a filtered tree counts the games the same criteria
// list, and a criterion it cannot read is a 400 naming it.
func TestAPITreeFilters(t *testing.T) {
	srv := apiServer(t)
	sum := func(v any) (n int) {
		for _, m := range v.([]any) {
			n += int(m.(map[string]any)["games"].(float64))
		}
		return n
	}
	_, all := get(t, srv, "/api/v1/tree?game=ogi&fen=")
	for _, crit := range []string{
		"player=Veltin&side=gote", "player=Veltin&side=sente", "player=Veltin", "from=2026.07.22&to=2026.07.25",
		"to=2026.07.15", "event=moonlight", "result=1-0", "player=Okabe&opponent=Mori",
	} {
		status, v := get(t, srv, "/api/v1/tree?game=ogi&fen=&"+crit)
		if status != http.StatusOK {
			t.Errorf("%s: status %d %v", crit, status, v)
			continue
		}
		_, page := get(t, srv, "/api/v1/games?game=ogi&limit=100&"+crit)
		// Every listed game plays from the start but those with a FEN.
		games := 0
		for _, g := range page.(map[string]any)["games"].([]any) {
			if g.(map[string]any)["plies"].(float64) > 0 {
				games++
			}
		}
		if n := sum(v); n == 0 || n >= sum(all) || n > games {
			t.Errorf("%s: the tree counts %d games of %d, the list %d", crit, n, sum(all), games)
		}
	}
	for _, tc := range []struct{ query, name string }{
		{"min-elo=x", "min-elo"},
		{"min-elo=3000&max-elo=2000", "min-elo"},
		{"player=Veltin&side=blue", "side"},
		{"side=gote", "side"},
		{"position=xyz", "position"},
		{"pattern=K@e1", "pattern"},
		{"invalid=1", "invalid"},
		{"nosuch=1", "nosuch"},
		{"event=a&event=b", "event"},
		{"game=draughts", "game"},
	} {
		status, v := get(t, srv, "/api/v1/tree?game=ogi&fen=&"+tc.query)
		msg, _ := v.(map[string]any)["error"].(string)
		if status != http.StatusBadRequest || !strings.HasPrefix(msg, tc.name) {
			t.Errorf("%s: status %d, %q; want 400 naming %s", tc.query, status, msg, tc.name)
		}
	}
}

// TestAPIOpenings checks the values of the opening names where the
// examples check their shape: a tree move's name, a game's, a position's.
func TestAPIOpenings(t *testing.T) {
	srv := apiServer(t)
	_, v := get(t, srv, "/api/v1/tree?game=draughts&fen=")
	named := map[string]any{}
	for _, m := range v.([]any) {
		m := m.(map[string]any)
		named[m["move"].(string)] = m["opening"]
	}
	if named["31-27"] != "Draughts: 31-27 flank opening (descriptive)" || named["31-26"] != nil {
		t.Errorf("tree names %v", named)
	}
	_, v = get(t, srv, "/api/v1/games?game=dejarik&opening=dejarik:+LAST&limit=100")
	games := v.(map[string]any)["games"].([]any)
	if len(games) != 7 {
		t.Fatalf("%d games of Dejarik: last…", len(games))
	}
	g := games[0].(map[string]any)
	_, d := get(t, srv, fmt.Sprintf("/api/v1/games/%v", g["n"]))
	if o := d.(map[string]any)["opening"]; o != g["opening"] || !strings.HasPrefix(o.(string), "Dejarik: last piece inward") {
		t.Errorf("game %v: opening %v in the list, %v in the game", g["n"], g["opening"], o)
	}
	for _, c := range []struct{ fen, want string }{
		{"o4-i4", `[Dejarik: last piece inward]`},
		{"o4-i4+o9-i9+o1-i1", `[]`},
	} {
		_, v := get(t, srv, "/api/v1/openings?game=dejarik&fen="+c.fen)
		var names []string
		for _, o := range v.([]any) {
			names = append(names, o.(map[string]any)["name"].(string))
		}
		if fmt.Sprint(names) != c.want && !(c.want == "[]" && len(names) == 0) {
			t.Errorf("openings at %s: %v, want %s", c.fen, names, c.want)
		}
	}
	if st, _ := get(t, srv, "/api/v1/openings?fen=o4-i4"); st != http.StatusBadRequest {
		t.Errorf("fen without game: status %d", st)
	}
	// games=1: the games of each name, their deepest (7 of "Dejarik:
	// last…" above: 2 and 5); without it, no count.
	for _, c := range []struct{ query, want string }{
		{"game=dejarik&games=1", "[Dejarik: first piece inward 7 Dejarik: last piece inward 2 Dejarik: last piece inward, mirrored reply 5]"},
		{"game=dejarik&games=1&fen=o4-i4", "[Dejarik: last piece inward 2]"},
		{"game=dejarik", "[Dejarik: first piece inward <nil> Dejarik: last piece inward <nil> Dejarik: last piece inward, mirrored reply <nil>]"},
	} {
		_, v := get(t, srv, "/api/v1/openings?"+c.query)
		var got []any
		for _, o := range v.([]any) {
			got = append(got, o.(map[string]any)["name"], o.(map[string]any)["games"])
		}
		if fmt.Sprint(got) != c.want {
			t.Errorf("openings?%s: %v, want %s", c.query, got, c.want)
		}
	}
}
