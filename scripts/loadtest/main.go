// Command loadtest runs the bounded load generator of internal/loadtest
// against a running `plateau serve` and prints its table (scripts/serve-load.sh
// starts the server and runs it).
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"time"

	"github.com/plateau/plateau/internal/loadtest"
)

func main() {
	var c loadtest.Config
	flag.StringVar(&c.Base, "url", "http://127.0.0.1:8080", "server address")
	flag.StringVar(&c.Game, "game", "ogi", "ruleset of the positions asked for")
	flag.IntVar(&c.Games, "games", 1000000, "games in the database (ids 1…games)")
	flag.IntVar(&c.Clients, "clients", 50, "concurrent clients")
	flag.DurationVar(&c.Duration, "duration", 30*time.Second, "length of the run")
	flag.IntVar(&c.PID, "pid", 0, "the server's process id, for its memory")
	flag.IntVar(&c.PageSize, "page", 100, "games per list page (the page asks for 100)")
	flag.IntVar(&c.MaxListPage, "pages", 100, "list pages drawn among the first N")
	settle := flag.Duration("settle", 30*time.Second, "wait after the run before the last memory sample")
	flag.DurationVar(&c.Warmup, "warmup", 0, "run the same load this long first, unmeasured (the server's caches made)")
	seed := flag.Uint64("seed", 1, "random seed")
	deep := flag.Bool("deep", false, "also jump to any page of the list (an OFFSET scan of the games)")
	flag.Parse()
	c.Seed = *seed
	if *deep {
		c.Kinds = loadtest.Kinds
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	rep, err := loadtest.Run(ctx, c, *settle)
	if err != nil {
		fmt.Fprintln(os.Stderr, "loadtest:", err)
		os.Exit(1)
	}
	rep.Write(os.Stdout)
	for _, s := range rep.Stats {
		if s.Errors > 0 {
			os.Exit(2)
		}
	}
}
