package main

import (
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/plateau/plateau/rules"
)

func gamesCommand() *cli.Command {
	return &cli.Command{
		Name:  "games",
		Usage: "list the supported games and variants",
		Action: func(c *cli.Context) error {
			w := c.App.Writer
			fmt.Fprintf(w, "%-14s %-34s %s\n", "GAME", "NAME", "SIDES (result order)")
			for _, g := range rules.Games() {
				s := g.Sides()
				fmt.Fprintf(w, "%-14s %-34s %s, %s\n", g.ID(), g.Name(), s[0], s[1])
			}
			return nil
		},
	}
}
