package browse_test

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
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

// TestAPIUnknownGame: every route that takes a game answers 400 naming it
// when the game names neither a ruleset nor a stored game, alone or with
// other criteria; a ruleset's alias and the game of a stored invalid
// record (chess, which Plateau does not know) are filters that answer.
func TestAPIUnknownGame(t *testing.T) {
	ctx := context.Background()
	db, err := index.Open(ctx, t.TempDir(), index.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	chess := filepath.Join(t.TempDir(), "chess.pdn")
	if err := os.WriteFile(chess, []byte("[Game \"chess\"]\n[White \"A\"]\n\n1. e4 *\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ingest.Files(ctx, db, []string{filepath.Join("..", "..", "samples", "ogi"), chess}, ingest.Options{}); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewUnstartedServer(web.Handler(browse.New(db, replay.Options{}), fstest.MapFS{"index.html": {Data: []byte("<!doctype html>")}}))
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv.Listener = l
	srv.Start()
	t.Cleanup(srv.Close)
	for _, path := range []string{
		"/api/v1/games?game=ogii",
		"/api/v1/games?game=ogii&valid=both",
		"/api/v1/games?game=ogii&q=moonlight",
		"/api/v1/games?game=ogii&player=Okabe",
		"/api/v1/games?game=0&pattern=K@1",
		"/api/v1/export?game=ogii",
		"/api/v1/crosstable?game=ogii",
		"/api/v1/tree?game=ogii&fen=",
		"/api/v1/position?game=ogii",
	} {
		status, v := get(t, srv, path)
		msg, _ := v.(map[string]any)["error"].(string)
		if status != http.StatusBadRequest || !strings.Contains(msg, `game "ogii"`) && !strings.Contains(msg, `game "0"`) {
			t.Errorf("%s: %d %v, want a 400 naming the game", path, status, v)
		}
	}
	for path, want := range map[string]int{
		"/api/v1/games?game=OGI":              20,
		"/api/v1/games?game=chess&valid=both": 1,
	} {
		status, v := get(t, srv, path)
		if status != http.StatusOK {
			t.Errorf("%s: %d %v", path, status, v)
			continue
		}
		if n := len(v.(map[string]any)["games"].([]any)); n < want {
			t.Errorf("%s: %d games, want %d or more", path, n, want)
		}
	}
}
