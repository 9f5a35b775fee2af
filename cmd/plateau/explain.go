package main

import (
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/plateau/plateau/index"
	"github.com/plateau/plateau/rules"
)

// explainEmpty says on standard error why a search found nothing, when a
// criterion alone explains it: a name no player has, a ruleset Plateau does
// not know, or games that match but are invalid (search lists valid games
// unless --invalid).
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
	if q.Game != "" {
		if _, err := rules.Lookup(q.Game); err != nil {
			fmt.Fprintf(w, "no ruleset %q (plateau games lists them)\n", q.Game)
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
