package main

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/plateau/plateau/index"
	"github.com/plateau/plateau/index/browse"
	"github.com/plateau/plateau/replay"
	"github.com/plateau/plateau/replay/web"
)

// TestServeQueriesDoNotStall: huge and costly text queries, abandoned by
// their clients, do not delay a normal search (a normal search after an
// abandoned 400 KB query took 29.6 s), and each costly query allowed by
// the bounds answers in bounded time. Bounds are generous: the test checks
// stalls of tens of seconds, not speed.
func TestServeQueriesDoNotStall(t *testing.T) {
	dir := t.TempDir()
	dbDir := filepath.Join(dir, "db")
	mustRun(t, "import", "--db", dbDir, genFile(t, dir, "draughts", 300))
	db, err := index.Open(context.Background(), dbDir, index.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	srv := httptest.NewUnstartedServer(nil)
	srv.Config.Handler = web.Guard(serveHandler(browse.New(db, replay.Options{})), web.GuardOptions{Addr: srv.Listener.Addr().String()})
	srv.Start()
	defer srv.Close()

	costly := []string{
		strings.Repeat("a", 400<<10),                          // the 400 KB query of the report
		strings.Repeat("(", 1000),                             // parser depth
		strings.TrimSpace(strings.Repeat("*a* ", 32)),         // wildcards
		strings.TrimSpace(strings.Repeat("players:x~2 ", 32)), // fuzzy
		"/" + strings.Repeat("(a|b|c)*", 120) + "/",           // regexp
		strings.Repeat(`"`, 1000),
	}
	get := func(ctx context.Context, q string) (int, error) {
		req, err := http.NewRequestWithContext(ctx, "GET", srv.URL+"/api/games?q="+url.QueryEscape(q), nil)
		if err != nil {
			return 0, err
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return 0, err
		}
		resp.Body.Close()
		return resp.StatusCode, nil
	}
	// Each costly query alone answers (400 or 200) in bounded time.
	for _, q := range costly {
		start := time.Now()
		st, err := get(context.Background(), q)
		if err != nil || (st != http.StatusOK && st != http.StatusBadRequest) {
			t.Errorf("%.30q: %d %v", q, st, err)
		}
		d := time.Since(start)
		if d > 15*time.Second {
			t.Errorf("%.30q: answered after %v", q, d)
		}
		t.Logf("%.30q (%d bytes): %d in %v", q, len(q), st, d)
	}
	// Abandoned ones, several at a time, then a normal one.
	var wg sync.WaitGroup
	for i := range 3 {
		for _, q := range costly {
			wg.Add(1)
			go func() {
				defer wg.Done()
				ctx, cancel := context.WithTimeout(context.Background(), time.Duration(10+i*20)*time.Millisecond)
				defer cancel()
				get(ctx, q)
			}()
		}
	}
	wg.Wait()
	start := time.Now()
	st, err := get(context.Background(), "game:draughts")
	if err != nil || st != http.StatusOK {
		t.Fatalf("normal search: %d %v", st, err)
	}
	d := time.Since(start)
	if d > 15*time.Second {
		t.Errorf("a normal search after abandoned costly ones took %v", d)
	}
	t.Logf("a normal search after %d abandoned costly ones: %v", 3*len(costly), d)
}

// TestServeQueryWorkEnds: on a server at 127.0.0.1 with --timeout 3s, a
// text query of one word of 300 wildcards (600 bytes; answered after 58 s
// and searched on after its client left) is answered at once, by the game
// list and by /api/export; abandoned, its work ends; and `plateau search
// --text` refuses it at once.
func TestServeQueryWorkEnds(t *testing.T) {
	dir := t.TempDir()
	dbDir := filepath.Join(dir, "db")
	mustRun(t, "import", "--db", dbDir, genFile(t, dir, "draughts", 300))
	db, err := index.Open(context.Background(), dbDir, index.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	var working atomic.Int64 // requests being worked on
	h := web.Guard(serveHandler(browse.New(db, replay.Options{})), web.GuardOptions{Addr: "127.0.0.1:0", Timeout: 3 * time.Second})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		working.Add(1)
		defer working.Add(-1)
		h.ServeHTTP(w, r)
	}))
	defer func() {
		if working.Load() == 0 { // else Close would wait for the work that goes on
			srv.Close()
			db.Close()
		}
	}()

	wild := strings.Repeat("a*", 300)
	paths := []string{"/api/games?q=", "/api/export?q=", "/api/games?game=draughts&q="}
	for _, p := range paths {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		start := time.Now()
		req, _ := http.NewRequestWithContext(ctx, "GET", srv.URL+p+url.QueryEscape(wild), nil)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Errorf("%s%.10s…: %v after %v", p, wild, err, time.Since(start))
		} else {
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != http.StatusBadRequest || !strings.Contains(string(body), "wildcards") {
				t.Errorf("%s%.10s…: %s %s", p, wild, resp.Status, body)
			}
			t.Logf("%s%.10s…: %s in %v", p, wild, resp.Status, time.Since(start))
		}
		cancel()
	}
	// Abandoned after 100 ms: no request is still worked on 10 s later.
	for _, p := range paths {
		ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
		req, _ := http.NewRequestWithContext(ctx, "GET", srv.URL+p+url.QueryEscape(wild), nil)
		if resp, err := http.DefaultClient.Do(req); err == nil {
			resp.Body.Close()
		}
		cancel()
	}
	deadline := time.Now().Add(10 * time.Second)
	for working.Load() > 0 && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	if n := working.Load(); n > 0 {
		t.Errorf("%d abandoned requests still worked on 10 s after their clients left", n)
	}

	done := make(chan struct{})
	var stderr string
	var status int
	go func() {
		defer close(done)
		_, stderr, status = plateau(t, "search", "--db", dbDir, "--text", wild)
	}()
	select {
	case <-done:
		if status != exitUsage || !strings.Contains(stderr, "wildcards") {
			t.Errorf("search --text %.10s…: status %d, %s", wild, status, stderr)
		}
	case <-time.After(10 * time.Second):
		t.Errorf("search --text %.10s…: no answer after 10 s", wild)
	}
}
