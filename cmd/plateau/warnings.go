package main

import (
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/plateau/plateau/index"
)

// listWarnings is `plateau errors --warnings`: one line per warning,
// "#ID FILE:LINE: GAME: warning: KIND: TEXT", then the count.
func listWarnings(c *cli.Context, db *index.DB) error {
	ws, total, err := db.Warnings(c.Context, c.String("kind"), c.Int("limit"), c.Int("offset"))
	if err != nil {
		return exitErr(err)
	}
	for _, w := range ws {
		fmt.Fprintf(c.App.Writer, "#%d %s:%d: %s: warning: %s: %s\n", w.ID, w.File, w.Line, w.Game, w.Kind, w.Msg)
	}
	fmt.Fprintf(c.App.Writer, "%d warnings\n", total)
	return nil
}
