package main

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"sync"
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
