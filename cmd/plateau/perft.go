package main

import (
	"fmt"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/plateau/plateau/internal/bench"
	"github.com/plateau/plateau/rules"
)

func perftCommand() *cli.Command {
	return &cli.Command{
		Name:  "perft",
		Usage: "count the legal move tree by depth from a position (a tool for rules authors)",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "game", Aliases: []string{"g"}, Required: true, Usage: "game id (see plateau games)"},
			&cli.StringFlag{Name: "fen", Usage: "start position in the game's notation (default: the standard start)"},
			&cli.IntFlag{Name: "depth", Aliases: []string{"d"}, Value: 3, Usage: "deepest level"},
			&cli.BoolFlag{Name: "divide", Usage: "at the deepest level, print the count below each first move"},
			&cli.IntFlag{Name: "workers", Usage: "goroutines counting (0: one per core); the counts do not depend on it"},
		},
		Action: func(c *cli.Context) error {
			g, err := lookupRules("game", c.String("game"))
			if err != nil {
				return err
			}
			pos, err := g.NewPosition(c.String("fen"))
			if err != nil {
				return cli.Exit(err, exitUsage)
			}
			depth := c.Int("depth")
			if depth < 1 {
				return cli.Exit("--depth must be at least 1", exitUsage)
			}
			workers := c.Int("workers")
			if workers < 0 {
				return cli.Exit("--workers must not be negative", exitUsage)
			}
			w := c.App.Writer
			fmt.Fprintf(w, "%s %s\n", g.ID(), pos.String())
			for d := 1; d <= depth; d++ {
				t, cpu := time.Now(), bench.CPUTime()
				n, err := rules.PerftParallel(c.Context, pos, d, workers)
				if err != nil {
					return cli.Exit(err, exitUsage)
				}
				el, used := time.Since(t).Seconds(), (bench.CPUTime() - cpu).Seconds()
				fmt.Fprintf(w, "depth %2d %14d   %8.3fs %12.0f nodes/s %12.0f nodes/cpu-s\n", d, n, el,
					float64(n)/max(el, 1e-9), float64(n)/max(used, 1e-9))
			}
			if c.Bool("divide") {
				moves, counts, err := rules.Divide(c.Context, pos, depth, workers)
				if err != nil {
					return cli.Exit(err, exitUsage)
				}
				for i, m := range moves {
					fmt.Fprintf(w, "%-24s %d\n", pos.FormatMove(m), counts[i])
				}
			}
			return nil
		},
	}
}
