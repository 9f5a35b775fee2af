package web

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/plateau/plateau/record"
	"github.com/plateau/plateau/replay"
)

// FuzzParams: the API's parameters (list criteria, game numbers, positions,
// moves, plies, export selections) never make the handler panic or answer
// 500; bad ones are 4xx answers.
func FuzzParams(f *testing.F) {
	for _, s := range [][2]string{
		{"1", "q=Tanaka&game=ogi&valid=both&offset=0&limit=10"},
		{"1", "player=Fujii&event=x&site=y&from=2026&to=2027&result=*&sort=date&desc=1"},
		{"2", "limit=-1&offset=99999999999999999999"},
		{"-1", "position=1.%20Rg2-f2&game=ogi"},
		{"x", "pattern=empty@%C8%BA%C8%BA%C8%BA&game=ogi"},
		{"1", "game=ogi&fen=lnsiksnl/1r4b1/pppppppp/8/8/PPPPPPPP/1B4R1/LNSIKSNL%20b%20-%201&move=Rg2-f2&ply=1"},
		{"1", "game=draughts&fen=xx&ply=-3"},
		{"1", "download=1&valid=%00"},
		{"99", "q=%22unclosed&game=ȺȺȺ"},
	} {
		for path := 0; path < 8; path++ {
			f.Add(path, s[0], s[1])
		}
	}
	c := NewCollection(replay.Options{DefaultGame: "draughts"})
	for i, text := range []string{ogiGame, "[Game \"dames\"]\n\n1. 32-28 19-23 *\n", "[Game \"ogi\"]\n\n1. Xx9-z0 *\n"} {
		g, err := record.NewReader(strings.NewReader(text), "fuzz.pdn").Next()
		c.Add("fuzz.pdn", i+1, g, err)
	}
	h := Handler(c.Source(), fstest.MapFS{"index.html": {Data: []byte("<html></html>")}})
	paths := []string{"/api/games", "/api/games/%s", "/api/position", "/api/tree", "/api/games/%s/record", "/api/export", "/api/status", "/api/rulesets"}
	f.Fuzz(func(t *testing.T, path int, n, query string) {
		p := strings.Replace(paths[uint(path)%uint(len(paths))], "%s", url.PathEscape(n), 1)
		u, err := url.Parse(p + "?" + query)
		if err != nil || u.Path != strings.Replace(paths[uint(path)%uint(len(paths))], "%s", n, 1) {
			return // not a request a client can send to that route
		}
		// The URL as the server parses it (a raw space in the query,
		// which httptest.NewRequest refuses, reaches it from a client).
		r := httptest.NewRequest(http.MethodGet, "http://127.0.0.1/", nil)
		r.URL, r.RequestURI = u, u.RequestURI()
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		if w.Code >= 500 && w.Code != http.StatusNotImplemented {
			t.Fatalf("GET %s: %d %s", u.RequestURI(), w.Code, w.Body.String())
		}
	})
}
