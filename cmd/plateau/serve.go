package main

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/urfave/cli/v2"

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
		Usage:     "browse and step through the games of record files in a web page",
		ArgsUsage: "FILE|DIR...",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "addr", Value: "127.0.0.1:8080", Usage: "address to listen on"},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() == 0 {
				return cli.Exit("serve: name at least one file or directory", exitUsage)
			}
			coll, err := loadCollection(c.Args().Slice())
			if err != nil {
				return cli.Exit(err, exitUsage)
			}
			ctx, stop := signal.NotifyContext(c.Context, os.Interrupt, syscall.SIGTERM)
			defer stop()
			ln, err := net.Listen("tcp", c.String("addr"))
			if err != nil {
				return cli.Exit(err, exitUsage)
			}
			fmt.Fprintf(c.App.Writer, "%d games; serving on http://%s/ (Ctrl-C to stop)\n", coll.Len(), ln.Addr())
			if err := serveUntil(ctx, ln, serveHandler(coll)); err != nil {
				return cli.Exit(err, exitUsage)
			}
			return nil
		},
	}
}

// loadCollection reads and replays every game of the paths.
func loadCollection(paths []string) (*web.Collection, error) {
	coll := web.NewCollection(replay.Options{DefaultGame: defaultGame})
	err := eachGame(paths, func(file string, n int, g *record.Game, err error) error {
		coll.Add(file, n, g, err)
		return nil
	})
	return coll, err
}

func serveHandler(coll *web.Collection) http.Handler { return web.Handler(coll, webAssets()) }

// serveUntil serves on ln until ctx is done, then shuts down, letting
// requests under way finish for a few seconds.
func serveUntil(ctx context.Context, ln net.Listener, h http.Handler) error {
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
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
