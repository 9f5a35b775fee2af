package main

import (
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/plateau/plateau/index"
)

// explainEmpty says on standard error why a search found nothing, when a
// criterion alone explains it: a name no player has, or games that match
// but are invalid (search lists valid games unless --invalid). A ruleset
// Plateau does not know is a usage error before the search (queryOf).
func explainEmpty(c *cli.Context, db *index.DB, q index.Query) {
	w := c.App.ErrWriter
	for _, n := range []string{q.Player, q.Opponent, q.Players[0], q.Players[1]} {
		if n == "" {
			continue
		}
		if ids, err := db.MatchPlayers(c.Context, n); err == nil && len(ids) == 0 {
			fmt.Fprintf(w, "no player's name matches %q\n", n)
		}
	}
	if !q.Invalid {
		qq := q
		qq.Invalid, qq.Limit, qq.Offset, qq.Count = true, 1, 0, true
		if r, err := db.Search(c.Context, qq); err == nil && r.Total > 0 {
			fmt.Fprintf(w, "%d invalid games match: search lists valid games; add --invalid to list them (plateau errors says why they are invalid)\n", r.Total)
		}
	}
}
