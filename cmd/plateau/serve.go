package main

import (
	"context"
	"crypto/rand"
	"embed"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/plateau/plateau/index"
	"github.com/plateau/plateau/index/browse"
	"github.com/plateau/plateau/record"
	"github.com/plateau/plateau/replay"
	"github.com/plateau/plateau/replay/web"
)

//go:embed web
var webFiles embed.FS

// webAssets is the page's folder (index.html, app.js, style.css).
func webAssets() fs.FS {
	sub, err := fs.Sub(webFiles, "web")
	if err != nil {
		panic(err) // the folder is embedded at build time
	}
	return sub
}

func serveCommand() *cli.Command {
	return &cli.Command{
		Name:      "serve",
		Usage:     "browse and step through games in a web page: those of record files, or without files those of the database",
		ArgsUsage: "[FILE|DIR...]",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "addr", Value: "127.0.0.1:8080", Usage: "address to listen on"},
			&cli.StringSliceFlag{Name: "host", Usage: "another host name the server answers to, besides localhost and --addr's host (a reverse proxy's; repeatable)"},
			&cli.DurationFlag{Name: "timeout", Value: web.DefaultTimeout, Usage: "longest work of one request (a search is stopped then)"},
			dbFlag(),
			rulesFlag("game"),
			maxRecordFlag(),
			&cli.IntFlag{Name: "max-active", Usage: "at most this many API requests work at once, the others wait their turn in order (0: no bound; pattern searches always run one at a time)"},
			&cli.BoolFlag{Name: "edit", Usage: "let the page write games (annotate, correct, enter, paste) with the token printed at start; on by default when --addr is a loopback address, --edit=false to refuse"},
			&cli.StringFlag{Name: "pprof", Usage: "also serve Go's profiles (net/http/pprof) on this loopback address, e.g. 127.0.0.1:6060, to measure the server"},
		},
		Action: serveAction,
	}
}

func serveAction(c *cli.Context) error {
	sv, err := openServed(c)
	if err != nil {
		return err
	}
	defer sv.close()
	ctx, stop := signal.NotifyContext(c.Context, os.Interrupt, syscall.SIGTERM)
	defer stop()
	ln, err := net.Listen("tcp", c.String("addr"))
	if err != nil {
		return cli.Exit(err, exitUsage)
	}
	fmt.Fprintf(c.App.Writer, "%s; serving on http://%s/ (Ctrl-C to stop)\n", sv.what, ln.Addr())
	if sv.edit.Enabled {
		fmt.Fprintf(c.App.Writer, "editing is on: open http://%s/?token=%s to write games\n", ln.Addr(), sv.edit.Token)
	}
	if a := c.String("pprof"); a != "" {
		stopProfiles, err := serveProfiles(a, c.App.ErrWriter)
		if err != nil {
			return cli.Exit(err, exitUsage)
		}
		defer stopProfiles()
	}
	if err := serveUntil(ctx, ln, sv.handler(ctx, c, ln.Addr().String())); err != nil {
		return cli.Exit(err, exitUsage)
	}
	return nil
}

// served is what serve serves: the source, what it is (said when the
// server starts), release, which frees memory when the server is idle
// (nil: nothing to free), and close, called when the server has stopped.
type served struct {
	src     web.Source
	what    string
	release func()
	close   func()
	edit    web.EditOptions
}

// openServed opens the source of serve: the files named, loaded into a
// temporary database, or without files the database, read-only, its
// memory bounded (serve_memory.go).
func openServed(c *cli.Context) (*served, error) {
	opts, err := replayOptions(c, "game")
	if err != nil {
		return nil, err
	}
	ro, err := readOptsOf(c)
	if err != nil {
		return nil, err
	}
	if c.NArg() == 0 {
		edit, err := editOptions(c)
		if err != nil {
			return nil, err
		}
		limitGoMemory()
		db, err := openDBWith(c, limitMemory(index.Options{ReadOnly: !edit.Enabled}))
		if err != nil && edit.Enabled && !c.IsSet("edit") {
			// Writing was not asked for: a database that cannot be
			// opened for writing (a read-only file system, an import
			// under way) is served for reading.
			db, err = openDBWith(c, limitMemory(index.Options{ReadOnly: true}))
			edit = web.EditOptions{Why: "the database could not be opened for writing; start with --edit to see why"}
		}
		if err != nil {
			return nil, err
		}
		bs := browse.New(db, opts)
		bs.Warm()
		return &served{src: bs, what: "the database " + db.Dir(), release: func() { releaseMemory(db) }, close: func() { db.Close() }, edit: edit}, nil
	}
	if c.IsSet("db") {
		return nil, cli.Exit("serve: --db serves the database; name files or --db, not both", exitUsage)
	}
	s, cleanup, err := serveFiles(c.Context, c.Args().Slice(), opts, ro.maxRecord, c.App.ErrWriter, newProgress(c, "loading"))
	if err != nil {
		return nil, cli.Exit(err, exitUsage)
	}
	return &served{src: s, what: "loading the files into a temporary database", close: cleanup,
		edit: web.EditOptions{Why: "the server shows files, not a database: import them (plateau import) and serve the database to write games"}}, nil
}

// handler is the server's handler of the source, guarded (web.Guard: the
// listener's address addr and --host's names, --timeout, --max-active),
// releasing memory when idle until ctx is done.
func (sv *served) handler(ctx context.Context, c *cli.Context, addr string) http.Handler {
	hosts := c.StringSlice("host")
	if h, _, err := net.SplitHostPort(c.String("addr")); err == nil && h != "" {
		hosts = append(hosts, h) // a name given to --addr
	}
	var h http.Handler = web.Guard(web.HandlerWith(sv.src, webAssets(), sv.edit), web.GuardOptions{Addr: addr, Hosts: hosts, Timeout: c.Duration("timeout"), MaxActive: c.Int("max-active")})
	if sv.release != nil {
		w := &idleWatch{last: time.Now()}
		h = w.wrap(h)
		go w.releaseWhenIdle(ctx, sv.release)
	}
	return h
}

// loadCollection reads and replays every game of the paths.
func loadCollection(paths []string) (*web.Collection, error) {
	return loadCollectionWith(readOpts{errw: io.Discard}, paths, replay.Options{DefaultGame: defaultGame, Detect: true})
}

// loadCollectionWith reads and replays every game of the paths with opts.
func loadCollectionWith(o readOpts, paths []string, opts replay.Options) (*web.Collection, error) {
	coll := web.NewCollection(opts)
	o.ahead = opts
	err := eachGame(o, paths, func(file string, n int, g *record.Game, err error) error {
		coll.Add(file, n, g, err)
		return nil
	})
	return coll, err
}

func serveHandler(src web.Source) http.Handler { return web.Handler(src, webAssets()) }

// serveUntil serves on ln until ctx is done, then shuts down, letting
// requests under way finish for a few seconds.
func serveUntil(ctx context.Context, ln net.Listener, h http.Handler) error {
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 2 * time.Minute,
		MaxHeaderBytes: 64 << 10}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		return err
	}
	if err := <-done; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// editOptions are serve's writing options: --edit, on by default when the
// server listens on a loopback address only, with a new random token.
func editOptions(c *cli.Context) (web.EditOptions, error) {
	on := c.Bool("edit")
	if !c.IsSet("edit") {
		on = loopback(c.String("addr"))
	}
	if !on {
		why := "the server was started with --edit=false"
		if !c.IsSet("edit") {
			why = "the server listens beyond this machine; start it with --edit to write games"
		}
		return web.EditOptions{Why: why}, nil
	}
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		return web.EditOptions{}, fmt.Errorf("serve: a token for writing: %w", err)
	}
	return web.EditOptions{Enabled: true, Token: hex.EncodeToString(b)}, nil
}

// loopback reports whether addr's host is a loopback address or
// localhost.
func loopback(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		host = addr
	}
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(strings.Trim(host, "[]"))
	return ip != nil && ip.IsLoopback()
}
