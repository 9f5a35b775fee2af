package web_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"
	"testing/fstest"

	"github.com/plateau/plateau/replay"
	"github.com/plateau/plateau/replay/web"
)

// peopleSource is a Source with People answers made up for the test.
type peopleSource struct {
	web.Source
	q web.ListQuery
}

func (p *peopleSource) PlayerJSON(_ context.Context, name, from, to string) ([]byte, error) {
	if name != "Al" {
		return nil, web.ErrNoPlayer
	}
	if from != "" || to != "" {
		return []byte(`{"name":"Al","from":"` + from + `","to":"` + to + `"}`), nil
	}
	return []byte(`{"name":"Al"}`), nil
}

func (p *peopleSource) CrosstableJSON(_ context.Context, q web.ListQuery) ([]byte, error) {
	p.q = q
	if q.Criteria == "event=bad" {
		return nil, web.BadQuery(errors.New("event: bad"))
	}
	return []byte(`{"players":0}`), nil
}

func (p *peopleSource) PlayedJSON(_ context.Context, q web.ListQuery) ([]byte, error) {
	if q.Criteria != "event=x" {
		return nil, web.BadQuery(errors.New("event: bad"))
	}
	return []byte(`[]`), nil
}

func (p *peopleSource) StatsJSON(context.Context) ([]byte, error) { return []byte(`{"games":3}`), nil }

// TestPeopleRoutes: the player, crosstable and statistics endpoints, and
// their /api/v1 aliases, answer from a source that has them, with the
// status of its errors, and 501 from one that has not.
func TestPeopleRoutes(t *testing.T) {
	assets := fstest.MapFS{"index.html": {Data: []byte("<html></html>")}}
	ps := &peopleSource{Source: web.NewCollection(replay.Options{}).Source()}
	with := web.Handler(ps, assets)
	without := web.Handler(web.NewCollection(replay.Options{}).Source(), assets)
	for _, c := range []struct {
		h      http.Handler
		path   string
		status int
		body   string
	}{
		{with, "/api/player?name=Al", 200, `{"name":"Al"}`},
		{with, "/api/v1/player?name=Al", 200, `{"name":"Al"}`},
		{with, "/api/v1/player?name=Al&from=1990&to=+1995.06", 200, `{"name":"Al","from":"1990","to":"1995.06"}`},
		{with, "/api/v1/player?name=Bo", 404, ""},
		{with, "/api/v1/player", 400, ""},
		{with, "/api/v1/crosstable?event=x&offset=5&limit=10", 200, `{"players":0}`},
		{with, "/api/v1/stats", 200, `{"games":3}`},
		{with, "/api/v1/openings/played?event=x", 200, `[]`},
		{with, "/api/openings/played?event=x", 200, `[]`},
		{with, "/api/v1/openings/played?event=y", 400, ""},
		{without, "/api/v1/openings/played?event=x", 501, ""},
		{with, "/api/v1/nothing", 404, ""},
		{without, "/api/v1/stats", 501, ""},
		{without, "/api/v1/player?name=Al", 501, ""},
		{without, "/api/v1/rulesets", 200, ""},
	} {
		rec := httptest.NewRecorder()
		c.h.ServeHTTP(rec, httptest.NewRequest("GET", c.path, nil))
		if rec.Code != c.status || c.body != "" && rec.Body.String() != c.body {
			t.Errorf("GET %s: %d %s, want %d %s", c.path, rec.Code, rec.Body, c.status, c.body)
		}
		if rec.Code >= 400 && rec.Code != 404 || rec.Code == 404 && c.path != "/api/v1/nothing" {
			var e map[string]string
			if json.Unmarshal(rec.Body.Bytes(), &e) != nil || e["error"] == "" {
				t.Errorf("GET %s: error answer %q", c.path, rec.Body)
			}
		}
	}
	if ps.q.Criteria != "event=x" || ps.q.Offset != 5 || ps.q.Limit != 10 {
		t.Errorf("crosstable query %+v", ps.q)
	}
	rec := httptest.NewRecorder()
	with.ServeHTTP(rec, httptest.NewRequest("GET", "/api/v1/crosstable?event=bad", nil))
	if rec.Code != 400 {
		t.Errorf("a source's bad query: %d %s", rec.Code, rec.Body)
	}
}
