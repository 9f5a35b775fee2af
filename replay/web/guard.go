package web

import (
	"context"
	"errors"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"
)

// What Guard lets through. A page of the game list is asked with a few
// short parameters; a query longer than this is refused before any work
// (Bleve's query-string parser takes time growing with the square of the
// text), and so is a query of more words (each is a search of its own).
const (
	MaxQueryBytes = 1024 // the q parameter
	MaxQueryWords = 32   // words of q
	MaxURLBytes   = 8192 // path and query string of an API request
	// DefaultTimeout bounds the work of one request: its context is done
	// then, and the database stops its queries.
	DefaultTimeout = 20 * time.Second
)

// ContentSecurityPolicy is the policy of every response. The page loads
// its script, style sheet and data from the server itself and has no
// inline script or style: nothing else may run, load, frame it or be
// framed.
const ContentSecurityPolicy = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
	"connect-src 'self'; font-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

// ErrBadQuery marks an error of a Source's List caused by the request's
// query (answered 400); wrap with BadQuery.
var ErrBadQuery = errors.New("bad query")

// BadQuery marks err as the request's fault (errors.Is(err, ErrBadQuery)),
// keeping its message.
func BadQuery(err error) error { return badQuery{err} }

type badQuery struct{ err error }

func (b badQuery) Error() string        { return b.err.Error() }
func (b badQuery) Unwrap() error        { return b.err }
func (b badQuery) Is(target error) bool { return target == ErrBadQuery }

// errorStatus is the HTTP status of a Source's error: 400 for the
// request's fault, 503 when the work took longer than the request's
// deadline, 500 otherwise.
func errorStatus(err error) int {
	switch {
	case errors.Is(err, ErrBadQuery):
		return http.StatusBadRequest
	case errors.Is(err, context.DeadlineExceeded):
		return http.StatusServiceUnavailable
	case errors.Is(err, context.Canceled):
		return 499 // the client left (nginx's "client closed request"): nobody reads it
	}
	return http.StatusInternalServerError
}

// GuardOptions configure Guard.
type GuardOptions struct {
	// Addr is the address the server listens on (host:port). Its host is
	// accepted in the Host header besides localhost, 127.0.0.1 and ::1;
	// when it is unspecified (0.0.0.0, ::, ""), any IP address and this
	// machine's name are too.
	Addr string
	// Hosts are other names accepted in the Host header (a reverse proxy's).
	Hosts []string
	// Timeout bounds each request's work; 0 means DefaultTimeout.
	Timeout time.Duration
	// MaxActive, when above 0, is how many short API requests work at
	// once (the others wait their turn, in order; see gate); pattern
	// searches work one at a time whatever it is.
	MaxActive int
}

// Guard wraps the Handler with what a server on a user's machine owes
// them:
//   - a request whose Host header names another host is refused (421): a
//     page of another site cannot reach the database by DNS rebinding;
//   - a request other than GET or HEAD from a page of another origin is
//     refused (403);
//   - every response carries X-Content-Type-Options: nosniff,
//     X-Frame-Options: DENY, Referrer-Policy: no-referrer and
//     ContentSecurityPolicy;
//   - an API request with an over-long URL, q parameter or too many words
//     is refused (400) before any work;
//   - the request's context ends after the timeout, so that the database
//     stops the work of a request too long or whose client has left; a
//     download (/api/export, a stream as long as the selection) has no
//     deadline, its client leaving ends it;
//   - a pattern search waits for the one before it (and, with MaxActive,
//     at most that many other API requests work at once), in arrival
//     order; a request whose deadline passes while it waits is answered
//     503.
func Guard(h http.Handler, o GuardOptions) http.Handler {
	timeout := o.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	hosts := allowedHosts(o)
	g := newGate(o.MaxActive)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hd := w.Header()
		hd.Set("X-Content-Type-Options", "nosniff")
		hd.Set("X-Frame-Options", "DENY")
		hd.Set("Referrer-Policy", "no-referrer")
		hd.Set("Content-Security-Policy", ContentSecurityPolicy)
		if !hosts.allows(r.Host) {
			http.Error(w, "unknown host "+strconv.Quote(clip(r.Host, 100))+": this server answers to localhost and its own address", http.StatusMisdirectedRequest)
			return
		}
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			if origin := r.Header.Get("Origin"); origin != "" && !sameOrigin(origin, r.Host) {
				http.Error(w, "cross-origin request refused", http.StatusForbidden)
				return
			}
		}
		if strings.HasPrefix(r.URL.Path, "/api/") {
			if msg := apiBounds(r); msg != "" {
				writeJSON(w, http.StatusBadRequest, map[string]string{"error": msg})
				return
			}
		}
		if isDownload(r.URL.Path) {
			h.ServeHTTP(w, r)
			return
		}
		ctx, cancel := context.WithTimeout(r.Context(), timeout)
		defer cancel()
		if strings.HasPrefix(r.URL.Path, "/api/") {
			leave, ok := g.enter(ctx, r)
			if !ok {
				writeJSON(w, errorStatus(ctx.Err()), map[string]string{"error": "the server is busy: " + ctx.Err().Error() + " while waiting for a turn"})
				return
			}
			defer leave()
		}
		h.ServeHTTP(w, r.WithContext(ctx))
	})
}

// isDownload reports a path whose answer is a stream without deadline.
func isDownload(path string) bool { return path == "/api/export" }

// apiBounds is the message of an API request over the bounds, or "".
func apiBounds(r *http.Request) string {
	if n := len(r.URL.RawPath) + len(r.URL.Path) + len(r.URL.RawQuery); n > MaxURLBytes {
		return "request URL of " + strconv.Itoa(n) + " bytes, at most " + strconv.Itoa(MaxURLBytes)
	}
	q := r.URL.Query().Get("q")
	if len(q) > MaxQueryBytes {
		return "q: " + strconv.Itoa(len(q)) + " bytes, at most " + strconv.Itoa(MaxQueryBytes)
	}
	if n := len(strings.Fields(q)); n > MaxQueryWords {
		return "q: " + strconv.Itoa(n) + " words, at most " + strconv.Itoa(MaxQueryWords)
	}
	return ""
}

type hostSet struct {
	names map[string]bool
	anyIP bool // the server listens on every address
}

func allowedHosts(o GuardOptions) hostSet {
	s := hostSet{names: map[string]bool{"localhost": true, "127.0.0.1": true, "::1": true}}
	host, _, err := net.SplitHostPort(o.Addr)
	if err != nil {
		host = o.Addr
	}
	host = strings.ToLower(strings.Trim(host, "[]"))
	if ip := net.ParseIP(host); host == "" || (ip != nil && ip.IsUnspecified()) {
		s.anyIP = true
		if name, err := os.Hostname(); err == nil && name != "" {
			s.names[strings.ToLower(name)] = true
		}
	} else {
		s.names[host] = true
	}
	for _, h := range o.Hosts {
		s.names[strings.ToLower(h)] = true
	}
	return s
}

// allows reports whether the Host header hostport names this server.
func (s hostSet) allows(hostport string) bool {
	host, _, err := net.SplitHostPort(hostport)
	if err != nil {
		host = hostport // no port
	}
	host = strings.ToLower(strings.Trim(host, "[]"))
	host = strings.TrimSuffix(host, ".")
	if host == "" {
		return false
	}
	if s.names[host] || strings.HasSuffix(host, ".localhost") {
		return true
	}
	return s.anyIP && net.ParseIP(host) != nil
}

// sameOrigin reports whether the Origin header names the server of host.
func sameOrigin(origin, host string) bool {
	for _, scheme := range []string{"http://", "https://"} {
		if rest, ok := strings.CutPrefix(origin, scheme); ok {
			return strings.EqualFold(rest, host)
		}
	}
	return false
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
