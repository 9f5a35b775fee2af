package main

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/urfave/cli/v2"

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
			&cli.StringFlag{Name: "pprof", Usage: "also serve Go's profiles (net/http/pprof) on this loopback address, e.g. 127.0.0.1:6060, to measure the server"},
		},
		Action: func(c *cli.Context) error {
			opts, err := replayOptions(c, "game")
			if err != nil {
				return err
			}
			ro, err := readOptsOf(c)
			if err != nil {
				return err
			}
			var src web.Source
			var what string
			var release func() // frees memory when the server is idle
			if c.NArg() == 0 {
				db, err := openDB(c, true)
				if err != nil {
					return err
				}
				defer db.Close()
				conns := boundPool(db)
				limitMemory(c.Context, db)
				release = func() { releaseMemory(db, conns) }
				bs := browse.New(db, opts)
				bs.Warm()
				src, what = bs, "the database "+db.Dir()
			} else {
				if c.IsSet("db") {
					return cli.Exit("serve: --db serves the database; name files or --db, not both", exitUsage)
				}
				s, cleanup, err := serveFiles(c.Context, c.Args().Slice(), opts, ro.maxRecord, c.App.ErrWriter, newProgress(c, "loading"))
				if err != nil {
					return cli.Exit(err, exitUsage)
				}
				defer cleanup()
				src, what = s, "loading the files into a temporary database"
			}
			ctx, stop := signal.NotifyContext(c.Context, os.Interrupt, syscall.SIGTERM)
			defer stop()
			ln, err := net.Listen("tcp", c.String("addr"))
			if err != nil {
				return cli.Exit(err, exitUsage)
			}
			fmt.Fprintf(c.App.Writer, "%s; serving on http://%s/ (Ctrl-C to stop)\n", what, ln.Addr())
			hosts := c.StringSlice("host")
			if h, _, err := net.SplitHostPort(c.String("addr")); err == nil && h != "" {
				hosts = append(hosts, h) // a name given to --addr
			}
			if a := c.String("pprof"); a != "" {
				stopProfiles, err := serveProfiles(a, c.App.ErrWriter)
				if err != nil {
					return cli.Exit(err, exitUsage)
				}
				defer stopProfiles()
			}
			var h http.Handler = web.Guard(serveHandler(src), web.GuardOptions{Addr: ln.Addr().String(), Hosts: hosts, Timeout: c.Duration("timeout"), MaxActive: c.Int("max-active")})
			if release != nil {
				w := &idleWatch{last: time.Now()}
				h = w.wrap(h)
				go w.releaseWhenIdle(ctx, release)
			}
			if err := serveUntil(ctx, ln, h); err != nil {
				return cli.Exit(err, exitUsage)
			}
			return nil
		},
	}
}

// loadCollection reads and replays every game of the paths.
func loadCollection(paths []string) (*web.Collection, error) {
	return loadCollectionWith(readOpts{errw: io.Discard}, paths, replay.Options{DefaultGame: defaultGame, Detect: true})
}

// loadCollectionWith reads and replays every game of the paths with opts.
func loadCollectionWith(o readOpts, paths []string, opts replay.Options) (*web.Collection, error) {
	coll := web.NewCollection(opts)
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
