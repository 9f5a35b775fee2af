package main

import (
	"fmt"
	"time"

	"github.com/urfave/cli/v2"

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
			w := c.App.Writer
			fmt.Fprintf(w, "%s %s\n", g.ID(), pos.String())
			for d := 1; d <= depth; d++ {
				t := time.Now()
				n := rules.Perft(pos, d)
				el := time.Since(t)
				fmt.Fprintf(w, "depth %2d %14d   %8.3fs %12.0f nodes/s\n", d, n, el.Seconds(), float64(n)/max(el.Seconds(), 1e-9))
			}
			if c.Bool("divide") {
				for _, m := range pos.Legal(nil) {
					child := pos.Clone()
					text := pos.FormatMove(m)
					child.Play(m)
					fmt.Fprintf(w, "%-24s %d\n", text, rules.Perft(child, depth-1))
				}
			}
			return nil
		},
	}
}
