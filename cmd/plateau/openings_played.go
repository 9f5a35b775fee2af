package main

import (
	"fmt"

	"github.com/urfave/cli/v2"
)

// openingsPlayedCommand lists the named openings of the games a search
// selects (an event's: --event), as a player's page lists theirs.
func openingsPlayedCommand() *cli.Command {
	return &cli.Command{
		Name:  "played",
		Usage: "the named openings of the games the criteria select (an event's: --event E), most played first, with how the first side scored",
		Description: `A game's opening is the deepest named position its main line reaches
(plateau openings import). For each ruleset of the selected valid games, the
most played names are listed (up to 8), each with its games, the first side's
(Sente's, White's…) wins, draws and losses, and its score (a win 1, a draw ½).`,
		Flags:  append([]cli.Flag{dbFlag()}, criteriaFlags(false)...),
		Action: openingsPlayed,
	}
}

func openingsPlayed(c *cli.Context) error {
	db, q, err := queryDB(c)
	if err != nil {
		return err
	}
	defer db.Close()
	named, err := db.PlayedOpenings(c.Context, q)
	if err != nil {
		return exitErr(err)
	}
	w := c.App.Writer
	if len(named) == 0 {
		fmt.Fprintln(w, "no named game")
		return nil
	}
	fmt.Fprintf(w, "%-10s %6s %5s %5s %5s %6s  %s\n", "ruleset", "games", "won", "drawn", "lost", "score", "opening")
	for _, o := range named {
		fmt.Fprintf(w, "%-10s %6d %5d %5d %5d %6s  %s\n", o.Game, o.Games, o.Wins, o.Draws, o.Losses, share(o.Score, o.Scored), o.Name)
	}
	fmt.Fprintln(w, "won, drawn, lost and score are the first side's (a win 1, a draw ½)")
	return nil
}

// share is score of scored games as a percentage, "-" for none.
func share(score float64, scored int) string {
	if scored == 0 {
		return "-"
	}
	return fmt.Sprintf("%.0f%%", 100*score/float64(scored))
}
