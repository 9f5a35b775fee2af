package main

import (
	"fmt"

	"github.com/urfave/cli/v2"
)

// crosstableAll is the most players crosstable prints at once without a
// filter: a table is players × players cells, and a whole database of
// thousands of players would print hundreds of megabytes.
const crosstableAll = 200

func crosstableCommand() *cli.Command {
	return &cli.Command{
		Name:  "crosstable",
		Usage: "players × players with their scores (a win 1, a draw ½; Dejarik points), a page of players at a time",
		Description: `Players are ranked by score, on one scale whatever the ruleset writes: a
win scores 1 and a draw ½, whether the Result says 1-0, 2-0 (draughts) or
1-1; Dejarik games score their points (1, 2 or 3 a win, as in a series). The
table shows a page of them (--limit, from
--offset) against each other, with each one's total score and games over all
opponents. Narrow it with a filter (an event, a ruleset, dates…); --limit 0
prints every player, which without a filter is refused beyond 200 players.`,
		Flags: append(append([]cli.Flag{dbFlag()}, criteriaFlags(false)...),
			&cli.IntFlag{Name: "limit", Value: 30, Usage: "players per page (0: all)"},
			&cli.IntFlag{Name: "offset", Usage: "skip this many players (by rank)"},
		),
		Action: func(c *cli.Context) error {
			db, q, err := queryDB(c)
			if err != nil {
				return err
			}
			defer db.Close()
			limit, offset := c.Int("limit"), c.Int("offset")
			if limit < 0 || offset < 0 {
				return cli.Exit("crosstable: --limit and --offset are counts of players (0 or more)", exitUsage)
			}
			// The page's cells only: a table of thousands of players
			// is millions of cells. Unfiltered, --limit 0 reads one more
			// than it may print, to refuse the rest.
			want := limit
			if limit == 0 {
				want = -1
				if !q.HasCriteria() {
					want = crosstableAll + 1
				}
			}
			bar := newProgress(c, "reading games")
			page, n, err := db.CrosstablePage(c.Context, q, offset, want, bar.set)
			bar.done()
			if err != nil {
				return exitErr(err)
			}
			if n == 0 {
				fmt.Fprintln(c.App.Writer, "no scored games")
				return nil
			}
			if limit == 0 && !q.HasCriteria() && n > crosstableAll {
				return cli.Exit(fmt.Sprintf("crosstable: %d players would make a table of %d×%d cells; name a filter (--event, --game, --from/--to, --player …) or page with --limit/--offset", n, n, n), exitUsage)
			}
			if offset >= n {
				return cli.Exit(fmt.Sprintf("crosstable: %d players, nothing from --offset %d", n, offset), exitUsage)
			}
			end := offset + len(page)
			w := c.App.Writer
			width := 4
			for _, r := range page {
				width = max(width, len([]rune(r.Player)))
			}
			fmt.Fprintf(w, "%3s %-*s %6s %5s", "#", width, "player", "score", "games")
			for j := range page {
				fmt.Fprintf(w, " %5d", offset+j+1)
			}
			fmt.Fprintln(w)
			for i, r := range page {
				fmt.Fprintf(w, "%3d %s %6s %5d", offset+i+1, pad(r.Player, width), points(r.Norm), r.Games)
				for j := range page {
					switch {
					case i == j:
						fmt.Fprintf(w, " %5s", "×")
					case r.Met[j] == 0:
						fmt.Fprintf(w, " %5s", ".")
					default:
						fmt.Fprintf(w, " %5s", points(r.NormAgainst[j]))
					}
				}
				fmt.Fprintln(w)
			}
			if offset > 0 || end < n {
				fmt.Fprintf(w, "players %d–%d of %d (by score; score and games count every opponent)", offset+1, end, n)
				if end < n {
					fmt.Fprintf(w, "; --offset %d for the next page", end)
				}
				fmt.Fprintln(w)
			}
			return nil
		},
	}
}
