// Package loadtest is a bounded load generator for the server of `plateau
// serve`: a fixed number of clients, each sending its next request when the
// last one was answered, for a fixed time, over four kinds of request a page
// makes (a list page, a game, an opening tree, the games with a position).
// It measures latencies per kind and samples the server's resident memory
// (VmRSS of /proc/PID/status) during the run and after it.
//
// Decisions: positions are taken from the games of the server itself (the
// first plies of a few games fetched before the run), so that trees and
// position lookups ask for positions that occur; list pages are drawn among
// the first MaxListPage pages (a reader pages through a list from its top, or
// jumps, which the report measures apart as "deep list page"); a response
// other than 200, or a body that is not JSON, is an error (a body is
// checked in full once in fullCheck requests, else by its framing).
package loadtest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Config is one run.
type Config struct {
	Base     string        // http://127.0.0.1:8080
	Game     string        // ruleset of the positions ("ogi")
	Games    int           // games in the database (ids 1…Games)
	Clients  int           // concurrent clients
	Duration time.Duration // of the run
	// Warmup, when set, is a run of the same load before the measured one
	// (not counted, but for the memory peak): the server's caches of the
	// positions asked for are then made, as on a server in use.
	Warmup time.Duration
	PID    int // the server's process, for its memory; 0: not sampled
	Seed   uint64
	// MaxListPage bounds the list pages asked for (pages of PageSize).
	MaxListPage int
	PageSize    int
	// Kinds are the kinds of request sent in turn; nil means Kinds but
	// "deep list page".
	Kinds []string
}

// Kinds of request.
var Kinds = []string{"list page", "deep list page", "game", "tree", "position lookup"}

// Stat is what one kind of request measured.
type Stat struct {
	Kind     string
	Requests int
	Errors   int
	FirstErr string
	P50, P95 time.Duration
	P99, Max time.Duration
}

// Report is a run's outcome.
type Report struct {
	Stats             []Stat
	Elapsed           time.Duration
	Positions         int // positions drawn from for trees and lookups
	RequestsPerSecond float64
	Clients           int
	// The server's resident memory in bytes: before the run, its peak
	// during it, 1 s after it and Settle after it.
	RSSBefore, RSSPeak, RSSAfter1s, RSSAfterSettle int64
	Settle                                         time.Duration
	Warmup                                         time.Duration // run before the measured one
	// ServerCPU is the processor time the server used during the run
	// (user and system, from /proc/PID/stat): on a shared machine the
	// latencies depend on what else runs, the work per request does not.
	ServerCPU time.Duration
	// ClientCPU is the load generator's own processor time over the run
	// (it shares the machine with the server).
	ClientCPU time.Duration
	Requests  int
	// Slow counts the requests over SlowAfter by the window of the run
	// (SlowWindow long) in which they started: slow requests at the start
	// only are a cold server's, spread over the run a busy one's.
	Slow []int
}

// SlowAfter and SlowWindow define Report.Slow.
const (
	SlowAfter  = 100 * time.Millisecond
	SlowWindow = 5 * time.Second
)

// Run runs the load and returns what it measured; settle is how long to
// wait after the run before the last memory sample.
func Run(ctx context.Context, c Config, settle time.Duration) (Report, error) {
	if c.PageSize <= 0 {
		c.PageSize = 100
	}
	if c.MaxListPage <= 0 {
		c.MaxListPage = 100
	}
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: c.Clients, MaxConnsPerHost: c.Clients}, Timeout: 30 * time.Second}
	positions, err := collectPositions(ctx, client, c)
	if err != nil {
		return Report{}, err
	}
	rep := Report{Positions: len(positions), Clients: c.Clients, Settle: settle}
	rep.RSSBefore = rss(c.PID)
	var cpu0, self0 time.Duration
	stop := make(chan struct{})
	var peakMu sync.Mutex
	peak := rep.RSSBefore
	samplerDone := make(chan struct{})
	go func() {
		defer close(samplerDone)
		t := time.NewTicker(100 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-stop:
				return
			case <-t.C:
				if r := rss(c.PID); r > 0 {
					peakMu.Lock()
					peak = max(peak, r)
					peakMu.Unlock()
				}
			}
		}
	}()
	kinds := c.Kinds
	if kinds == nil {
		kinds = slices.DeleteFunc(slices.Clone(Kinds), func(k string) bool { return k == "deep list page" })
	}
	if c.Warmup > 0 {
		w := c
		w.Warmup, w.Duration, w.Seed, w.PID = 0, c.Warmup, c.Seed+1, 0
		if _, err := load(ctx, client, w, kinds, positions); err != nil {
			return rep, err
		}
		rep.Warmup = c.Warmup
	}
	cpu0, self0 = cpuTime(c.PID), cpuTime(os.Getpid())
	lat, errs, firstErr, slow, elapsed := loadRun(ctx, client, c, kinds, positions)
	rep.Slow = slow
	rep.Elapsed = elapsed
	rep.ServerCPU = cpuTime(c.PID) - cpu0
	rep.ClientCPU = cpuTime(os.Getpid()) - self0
	close(stop)
	<-samplerDone
	rep.RSSPeak = peak
	rep.RSSAfter1s = rssAfter(c.PID, time.Second)
	rep.RSSAfterSettle = rssAfter(c.PID, settle-time.Second)
	total := 0
	for _, kind := range kinds {
		ds := lat[kind]
		slices.Sort(ds)
		total += len(ds)
		rep.Stats = append(rep.Stats, Stat{Kind: kind, Requests: len(ds), Errors: errs[kind], FirstErr: firstErr[kind],
			P50: pct(ds, 50), P95: pct(ds, 95), P99: pct(ds, 99), Max: pct(ds, 100)})
	}
	rep.Requests = total
	rep.RequestsPerSecond = float64(total) / rep.Elapsed.Seconds()
	return rep, ctx.Err()
}

// load runs the load of c without measuring it (the warm-up).
func load(ctx context.Context, client *http.Client, c Config, kinds []string, positions []string) (time.Duration, error) {
	_, _, _, _, d := loadRun(ctx, client, c, kinds, positions)
	return d, ctx.Err()
}

// loadRun runs c's clients for c.Duration and returns the latencies, the
// errors and the first error of each kind, the slow requests by window
// (Report.Slow), and how long it ran.
func loadRun(ctx context.Context, client *http.Client, c Config, kinds []string, positions []string) (lat map[string][]time.Duration, errs map[string]int, firstErr map[string]string, slow []int, elapsed time.Duration) {
	var mu sync.Mutex
	lat, errs, firstErr = map[string][]time.Duration{}, map[string]int{}, map[string]string{}
	start := time.Now()
	slow = make([]int, (c.Duration+SlowWindow-1)/SlowWindow+1)
	deadline := start.Add(c.Duration)
	var wg sync.WaitGroup
	for i := range c.Clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := rand.New(rand.NewPCG(c.Seed, uint64(i)))
			var buf bytes.Buffer
			for k := i; time.Now().Before(deadline); k++ {
				kind := kinds[k%len(kinds)]
				u := requestURL(c, kind, r, positions)
				t0 := time.Now()
				err := get(ctx, client, u, k%fullCheck == 0, &buf)
				d := time.Since(t0)
				mu.Lock()
				lat[kind] = append(lat[kind], d)
				if d > SlowAfter {
					slow[min(int(t0.Sub(start)/SlowWindow), len(slow)-1)]++
				}
				if err != nil {
					errs[kind]++
					if firstErr[kind] == "" {
						firstErr[kind] = err.Error()
					}
				}
				mu.Unlock()
				if ctx.Err() != nil {
					return
				}
			}
		}()
	}
	wg.Wait()
	return lat, errs, firstErr, slow, time.Since(start)
}

func rssAfter(pid int, d time.Duration) int64 {
	if d > 0 {
		time.Sleep(d)
	}
	return rss(pid)
}

func requestURL(c Config, kind string, r *rand.Rand, positions []string) string {
	switch kind {
	case "list page":
		return fmt.Sprintf("%s/api/games?valid=valid&offset=%d&limit=%d", c.Base, r.IntN(c.MaxListPage)*c.PageSize, c.PageSize)
	case "deep list page":
		// A jump to any page of the list.
		return fmt.Sprintf("%s/api/games?valid=valid&offset=%d&limit=%d", c.Base, r.IntN(max(1, c.Games/c.PageSize))*c.PageSize, c.PageSize)
	case "game":
		return fmt.Sprintf("%s/api/games/%d", c.Base, 1+r.IntN(max(1, c.Games)))
	case "tree":
		return c.Base + "/api/tree?" + url.Values{"game": {c.Game}, "fen": {positions[r.IntN(len(positions))]}}.Encode()
	default: // position lookup: the page's "games with this position"
		// As the page asks for them (app.js loadPositionGames).
		return c.Base + "/api/games?" + url.Values{"game": {c.Game}, "position": {positions[r.IntN(len(positions))]},
			"offset": {"0"}, "limit": {"10"}, "brief": {"1"}}.Encode()
	}
}

// get asks for u and checks the answer: status 200 and a JSON body,
// checked in full when full is set (every fullCheck-th request of a
// client), else by its first and last bytes: the generator shares the
// machine with the server, and checking a game's 150 KB of JSON costs it
// about as much as the server spends making it. The body is read into buf,
// the client's own buffer (a new one per answer was most of the
// generator's garbage).
func get(ctx context.Context, client *http.Client, u string, full bool, buf *bytes.Buffer) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return err
	}
	resp, err := client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	buf.Reset()
	if _, err := buf.ReadFrom(resp.Body); err != nil {
		return err
	}
	body := buf.Bytes()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("%s: status %d: %.200s", u, resp.StatusCode, body)
	}
	if !framed(body) || (full && !json.Valid(body)) {
		return fmt.Errorf("%s: not JSON", u)
	}
	return nil
}

// fullCheck is how often a client checks a whole body (see get).
const fullCheck = 8

// framed reports a body that opens and closes as a JSON object or array.
func framed(b []byte) bool {
	b = bytes.TrimSpace(b)
	return len(b) >= 2 && ((b[0] == '{' && b[len(b)-1] == '}') || (b[0] == '[' && b[len(b)-1] == ']'))
}

// collectPositions fetches a few games and keeps the positions of their
// first plies.
func collectPositions(ctx context.Context, client *http.Client, c Config) ([]string, error) {
	r := rand.New(rand.NewPCG(c.Seed, 1<<40))
	seen := map[string]bool{}
	var out []string
	for i := 0; i < 40; i++ {
		id := 1 + r.IntN(max(1, c.Games))
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, fmt.Sprintf("%s/api/games/%d", c.Base, id), nil)
		if err != nil {
			return nil, err
		}
		resp, err := client.Do(req)
		if err != nil {
			return nil, err
		}
		var d struct {
			Nodes []struct {
				Ply   int    `json:"ply"`
				Depth int    `json:"depth"`
				FEN   string `json:"fen"`
			} `json:"nodes"`
		}
		err = json.NewDecoder(resp.Body).Decode(&d)
		resp.Body.Close()
		if err != nil || resp.StatusCode != http.StatusOK {
			return nil, fmt.Errorf("game %d: status %d, %v", id, resp.StatusCode, err)
		}
		for _, n := range d.Nodes {
			if n.Depth == 0 && n.Ply <= 16 && !seen[n.FEN] {
				seen[n.FEN] = true
				out = append(out, n.FEN)
			}
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no position found in the server's games")
	}
	return out, nil
}

func pct(ds []time.Duration, p int) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	i := (len(ds)*p + 99) / 100
	return ds[min(max(i-1, 0), len(ds)-1)]
}

// rss is the resident memory of process pid in bytes (0 when unknown).
func rss(pid int) int64 {
	if pid <= 0 {
		return 0
	}
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "VmRSS:" {
			kb, _ := strconv.ParseInt(f[1], 10, 64)
			return kb << 10
		}
	}
	return 0
}

// cpuTime is the user and system time of process pid (0 when unknown),
// counted in clock ticks of 1/100 s (USER_HZ on Linux).
func cpuTime(pid int) time.Duration {
	if pid <= 0 {
		return 0
	}
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0
	}
	// The command name, in parentheses, may hold spaces: fields follow the last ')'.
	s := string(b)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	if len(f) < 13 {
		return 0
	}
	u, _ := strconv.ParseInt(f[11], 10, 64)
	st, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(u+st) * 10 * time.Millisecond
}

// Write prints the report as a Markdown table.
func (r Report) Write(w io.Writer) {
	warm := ""
	if r.Warmup > 0 {
		warm = fmt.Sprintf(" after a warm-up of %s at the same load", r.Warmup)
	}
	fmt.Fprintf(w, "%d clients for %.1fs%s, %.0f requests/s, %d positions\n\n", r.Clients, r.Elapsed.Seconds(), warm, r.RequestsPerSecond, r.Positions)
	fmt.Fprintf(w, "| request | requests | errors | p50 | p95 | p99 | max |\n|---|---:|---:|---:|---:|---:|---:|\n")
	ms := func(d time.Duration) string { return fmt.Sprintf("%.1f ms", float64(d.Microseconds())/1000) }
	for _, s := range r.Stats {
		fmt.Fprintf(w, "| %s | %d | %d | %s | %s | %s | %s |\n", s.Kind, s.Requests, s.Errors, ms(s.P50), ms(s.P95), ms(s.P99), ms(s.Max))
	}
	for _, s := range r.Stats {
		if s.FirstErr != "" {
			fmt.Fprintf(w, "\nfirst %s error: %s\n", s.Kind, s.FirstErr)
		}
	}
	if len(r.Slow) > 0 {
		fmt.Fprintf(w, "\nrequests over %v by %v of the run:", SlowAfter, SlowWindow)
		for _, n := range r.Slow {
			fmt.Fprintf(w, " %d", n)
		}
		fmt.Fprintln(w)
	}
	mb := func(b int64) string { return fmt.Sprintf("%.0f MB", float64(b)/(1<<20)) }
	if r.ServerCPU > 0 && r.Requests > 0 {
		fmt.Fprintf(w, "\nserver CPU: %.1f s over the run (%.1f cores of the machine), %.2f ms per request\n",
			r.ServerCPU.Seconds(), r.ServerCPU.Seconds()/r.Elapsed.Seconds(), float64(r.ServerCPU.Microseconds())/1000/float64(r.Requests))
		fmt.Fprintf(w, "load generator CPU: %.1f s (%.1f cores)\n", r.ClientCPU.Seconds(), r.ClientCPU.Seconds()/r.Elapsed.Seconds())
	}
	fmt.Fprintf(w, "\nserver RSS: %s before, %s peak, %s 1 s after, %s %s after\n", mb(r.RSSBefore), mb(r.RSSPeak), mb(r.RSSAfter1s), mb(r.RSSAfterSettle), r.Settle)
}
