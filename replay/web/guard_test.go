package web_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/plateau/plateau/replay/web"
)

// slowSource answers List after its context is done, or after wait; it
// records the error of the context it saw.
type slowSource struct {
	wait time.Duration
	seen chan error
}

func (s slowSource) List(ctx context.Context, q web.ListQuery) (web.ListPage, error) {
	if q.Text == "bad" {
		return web.ListPage{}, web.BadQuery(errors.New("bad query: no"))
	}
	select {
	case <-ctx.Done():
		s.seen <- ctx.Err()
		return web.ListPage{}, ctx.Err()
	case <-time.After(s.wait):
		s.seen <- nil
		return web.ListPage{Games: []web.Summary{}, Rulesets: []string{}}, nil
	}
}

func (s slowSource) Detail(context.Context, int) (*web.Detail, error) { return nil, web.ErrNoGame }

func guarded(src web.Source, o web.GuardOptions) http.Handler {
	assets := fstest.MapFS{"index.html": {Data: []byte("<!doctype html><title>t</title>")}, "app.js": {Data: []byte("'use strict';")}}
	return web.Guard(web.Handler(src, assets), o)
}

// TestGuardHeaders: every response, page, script, API answer and error,
// carries the security headers.
func TestGuardHeaders(t *testing.T) {
	h := guarded(slowSource{seen: make(chan error, 10)}, web.GuardOptions{Addr: "127.0.0.1:8080"})
	for _, target := range []string{"/", "/static/app.js", "/api/games", "/api/games/3", "/nothing", "/api/games?q=bad"} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", "http://127.0.0.1:8080"+target, nil))
		hd := rec.Result().Header
		for k, want := range map[string]string{
			"X-Content-Type-Options":  "nosniff",
			"X-Frame-Options":         "DENY",
			"Content-Security-Policy": web.ContentSecurityPolicy,
			"Referrer-Policy":         "no-referrer",
		} {
			if got := hd.Get(k); got != want {
				t.Errorf("%s: %s %q, want %q", target, k, got, want)
			}
		}
	}
	for _, want := range []string{"frame-ancestors 'none'", "script-src 'self'", "style-src 'self'", "default-src 'none'"} {
		if !strings.Contains(web.ContentSecurityPolicy, want) {
			t.Errorf("the policy lacks %s", want)
		}
	}
	if strings.Contains(web.ContentSecurityPolicy, "unsafe") {
		t.Errorf("the policy allows unsafe sources: %s", web.ContentSecurityPolicy)
	}
}

// TestGuardHost: requests for another host name (DNS rebinding) are
// refused; localhost, the loopback addresses and the bound address are
// served.
func TestGuardHost(t *testing.T) {
	for _, c := range []struct {
		addr  string
		hosts []string
		host  string
		ok    bool
	}{
		{"127.0.0.1:8080", nil, "127.0.0.1:8080", true},
		{"127.0.0.1:8080", nil, "localhost:8080", true},
		{"127.0.0.1:8080", nil, "LOCALHOST", true},
		{"127.0.0.1:8080", nil, "[::1]:8080", true},
		{"127.0.0.1:8080", nil, "app.localhost:8080", true},
		{"127.0.0.1:8080", nil, "evil.example:8080", false},
		{"127.0.0.1:8080", nil, "127.0.0.1.evil.example", false},
		{"127.0.0.1:8080", nil, "localhost.evil.example", false},
		{"127.0.0.1:8080", nil, "", false},
		{"127.0.0.1:8080", nil, "192.168.1.5:8080", false},
		{"192.168.1.5:8080", nil, "192.168.1.5:8080", true},
		{"192.168.1.5:8080", nil, "192.168.1.6:8080", false},
		{"0.0.0.0:8080", nil, "192.168.1.6:8080", true},
		{"0.0.0.0:8080", nil, "[fe80::1]:8080", true},
		{"0.0.0.0:8080", nil, "evil.example:8080", false},
		{"[::]:8080", nil, "10.1.2.3", true},
		{"127.0.0.1:8080", []string{"games.example.org"}, "games.example.org", true},
		{"127.0.0.1:8080", []string{"games.example.org"}, "other.example.org", false},
	} {
		h := guarded(slowSource{seen: make(chan error, 10)}, web.GuardOptions{Addr: c.addr, Hosts: c.hosts})
		req := httptest.NewRequest("GET", "/", nil)
		req.Host = c.host
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if got := rec.Code == http.StatusOK; got != c.ok {
			t.Errorf("listening on %s (%v), Host %q: status %d", c.addr, c.hosts, c.host, rec.Code)
		}
		if !c.ok && rec.Code != http.StatusMisdirectedRequest {
			t.Errorf("Host %q refused with %d", c.host, rec.Code)
		}
	}
}

// TestGuardCrossOrigin: a request with side effects from a page of
// another origin is refused; the page's own are not.
func TestGuardCrossOrigin(t *testing.T) {
	h := guarded(slowSource{seen: make(chan error, 10)}, web.GuardOptions{Addr: "127.0.0.1:8080"})
	for _, c := range []struct {
		method, origin string
		refused        bool
	}{
		{"POST", "http://evil.example", true},
		{"DELETE", "http://localhost:9999", true},
		{"POST", "http://127.0.0.1:8080", false},
		{"POST", "", false},
		{"GET", "http://evil.example", false},
	} {
		req := httptest.NewRequest(c.method, "http://127.0.0.1:8080/api/games", nil)
		if c.origin != "" {
			req.Header.Set("Origin", c.origin)
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if (rec.Code == http.StatusForbidden) != c.refused {
			t.Errorf("%s from %q: status %d", c.method, c.origin, rec.Code)
		}
	}
}

// TestGuardBounds: an over-long q, too many words or an over-long URL is
// a 400 naming the bound, answered without asking the source.
func TestGuardBounds(t *testing.T) {
	seen := make(chan error, 10)
	h := guarded(slowSource{wait: time.Hour, seen: seen}, web.GuardOptions{Addr: "127.0.0.1:8080"})
	for _, c := range []struct {
		query, want string
	}{
		{"q=" + strings.Repeat("a", web.MaxQueryBytes+1), "at most 1024"},
		{"q=" + strings.Repeat("a+", web.MaxQueryWords+1), "33 words"},
		{"game=" + strings.Repeat("x", web.MaxURLBytes), "request URL"},
		{"q=bad", "bad query: no"},
	} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", "http://127.0.0.1:8080/api/games?"+c.query, nil))
		if rec.Code != http.StatusBadRequest || !strings.Contains(rec.Body.String(), c.want) {
			t.Errorf("%.40s…: status %d, %s", c.query, rec.Code, rec.Body)
		}
	}
	if len(seen) > 0 {
		t.Errorf("the source was asked %d times", len(seen))
	}
}

// TestGuardDeadline: a request's work ends at the deadline (503), and when
// its client leaves.
func TestGuardDeadline(t *testing.T) {
	seen := make(chan error, 10)
	h := guarded(slowSource{wait: time.Hour, seen: seen}, web.GuardOptions{Addr: "127.0.0.1:8080", Timeout: 100 * time.Millisecond})
	rec := httptest.NewRecorder()
	start := time.Now()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "http://127.0.0.1:8080/api/games?q=x", nil))
	if rec.Code != http.StatusServiceUnavailable || !errors.Is(<-seen, context.DeadlineExceeded) {
		t.Errorf("past the deadline: status %d, %s", rec.Code, rec.Body)
	}
	if d := time.Since(start); d > 20*time.Second {
		t.Errorf("answered after %v", d)
	}

	// A client that leaves: the source sees its context canceled.
	srv := httptest.NewServer(guarded(slowSource{wait: time.Hour, seen: seen}, web.GuardOptions{Addr: "127.0.0.1:0", Timeout: time.Hour}))
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", srv.URL+"/api/games?q=x", nil)
	if resp, err := http.DefaultClient.Do(req); err == nil {
		resp.Body.Close()
		t.Fatalf("answered: %s", resp.Status)
	}
	select {
	case err := <-seen:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("the source saw %v", err)
		}
	case <-time.After(30 * time.Second):
		t.Error("the work of a request whose client left went on")
	}
}

// turnSource tells each List it starts on entered (the query's pattern, or
// its text) and holds it until release or its context ends (a query
// "hold" until release only).
type turnSource struct {
	entered chan string
	release chan struct{}
}

func (s turnSource) List(ctx context.Context, q web.ListQuery) (web.ListPage, error) {
	c, _ := url.ParseQuery(q.Criteria)
	name := c.Get("pattern")
	if name == "" {
		name = q.Text
	}
	s.entered <- name
	done := ctx.Done()
	if name == "hold" {
		done = nil
	}
	select {
	case <-s.release:
		return web.ListPage{Games: []web.Summary{}, Rulesets: []string{}}, nil
	case <-done:
		return web.ListPage{}, ctx.Err()
	}
}

func (s turnSource) Detail(context.Context, int) (*web.Detail, error) { return nil, web.ErrNoGame }

// TestGuardTurns: a pattern search waits for the one before it while
// short requests go on; with MaxActive, a short request waits for a turn
// and is answered 503 if its deadline passes first.
func TestGuardTurns(t *testing.T) {
	src := turnSource{entered: make(chan string, 10), release: make(chan struct{})}
	h := guarded(src, web.GuardOptions{Addr: "127.0.0.1:8080", Timeout: time.Minute})
	codes := make(chan int, 10)
	get := func(h http.Handler, query string) {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", "http://127.0.0.1:8080/api/games?"+query, nil))
		codes <- rec.Code
	}
	next := func() string {
		select {
		case n := <-src.entered:
			return n
		case <-time.After(30 * time.Second):
			t.Fatal("no request started")
			return ""
		}
	}
	go get(h, "pattern=first")
	if n := next(); n != "first" {
		t.Fatalf("started %q", n)
	}
	go get(h, "pattern=second")
	go get(h, "q=short")
	// The short request starts; the second search does not while the
	// first holds its turn.
	if n := next(); n != "short" {
		t.Fatalf("started %q before the short request", n)
	}
	select {
	case n := <-src.entered:
		t.Fatalf("%q started while the first search ran", n)
	case <-time.After(200 * time.Millisecond):
	}
	src.release <- struct{}{} // one of the two running ends
	src.release <- struct{}{} // the other
	if n := next(); n != "second" {
		t.Fatalf("started %q", n)
	}
	src.release <- struct{}{}
	for range 3 {
		if c := <-codes; c != http.StatusOK {
			t.Errorf("status %d", c)
		}
	}

	// One short request at a time, 100 ms deadline: the second waits
	// while the first works and is refused.
	h = guarded(src, web.GuardOptions{Addr: "127.0.0.1:8080", Timeout: 100 * time.Millisecond, MaxActive: 1})
	go get(h, "q=hold")
	if n := next(); n != "hold" {
		t.Fatalf("started %q", n)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "http://127.0.0.1:8080/api/games?q=two", nil))
	if rec.Code != http.StatusServiceUnavailable || !strings.Contains(rec.Body.String(), "waiting for a turn") {
		t.Errorf("a request past its deadline in the queue: %d %s", rec.Code, rec.Body)
	}
	select {
	case n := <-src.entered:
		t.Errorf("%q started beside the first", n)
	default:
	}
	src.release <- struct{}{}
	if c := <-codes; c != http.StatusOK {
		t.Errorf("first: status %d", c)
	}
}
