package browse_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/plateau/plateau/index"
	"github.com/plateau/plateau/index/browse"
	"github.com/plateau/plateau/internal/ingest"
	"github.com/plateau/plateau/replay"
	"github.com/plateau/plateau/replay/web"
)

// TestBadParams: a parameter the list does not know, or cannot read, is the
// request's fault: 400, with an error that names it (a pattern of an
// unknown ruleset was a 500). The same holds for an export.
func TestBadParams(t *testing.T) {
	ctx := context.Background()
	db, err := index.Open(ctx, t.TempDir(), index.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := ingest.Files(ctx, db, []string{filepath.Join("..", "..", "samples", "ogi")}, ingest.Options{}); err != nil {
		t.Fatal(err)
	}
	h := web.Handler(browse.New(db, replay.Options{}), fstest.MapFS{"index.html": {Data: []byte("<html></html>")}})
	get := func(target string) (int, string) {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", target, nil))
		var e struct{ Error string }
		json.Unmarshal(rec.Body.Bytes(), &e)
		return rec.Code, e.Error
	}
	for _, tc := range []struct{ query, param string }{
		{"game=0&pattern=K@1", "game"},
		{"pattern=K@e1", "pattern"},
		{"game=ogi&position=zz", "position"},
		{"game=ogi&pattern=K@", "pattern"},
		{"round=3", "round"},
		{"min-plies=x", "min-plies"},
		{"event=a&event=b", "event"},
		{"player=A&side=Nobody", "side"},
		{"invalid=1", "invalid"},
		{"q=x&text=y", "text"},
		{"desc=yes", "desc"},
		{"offset=1&offset=2", "offset"},
		{"limit=-1", "limit"},
		{"valid=maybe", "valid"},
		{"sort=nothing", "sort"},
	} {
		for _, path := range []string{"/api/games?", "/api/export?"} {
			code, msg := get(path + tc.query)
			if code != http.StatusBadRequest || !strings.Contains(msg, tc.param) {
				t.Errorf("%s%s: %d %q, want 400 naming %s", path, tc.query, code, msg, tc.param)
			}
		}
	}
	// The criteria a list passes on are the database's.
	if code, msg := get("/api/games?game=ogi&player=a&event=b&min-plies=1&tag=Round%3D1&id=1&date=2026"); code != http.StatusOK {
		t.Errorf("criteria: %d %s", code, msg)
	}
}
