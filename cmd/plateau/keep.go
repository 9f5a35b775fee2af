package main

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/plateau/plateau/index"
	"github.com/plateau/plateau/record"
)

// Keeping a database: delete and tag (import --replace and errors
// --summary live with import and errors). Decisions: delete shows what it
// would remove and removes nothing without --yes (exit status 0 either
// way); ids and criteria together delete the games that are both; an edit
// of the tags stores the game again under the same id.

// idArgs reads game ids given as 12 or #12.
func idArgs(c *cli.Context) ([]int64, error) {
	var ids []int64
	for _, a := range c.Args().Slice() {
		var id int64
		if _, err := fmt.Sscanf(strings.TrimPrefix(a, "#"), "%d", &id); err != nil || id <= 0 || fmt.Sprint(id) != strings.TrimPrefix(a, "#") {
			return nil, cli.Exit(fmt.Sprintf("%s: %q is not a game id (a number, as search and errors print them)", c.Command.Name, a), exitUsage)
		}
		ids = append(ids, id)
	}
	return ids, nil
}

func deleteCommand() *cli.Command {
	flags := append([]cli.Flag{dbFlag()}, criteriaFlags(true)...)
	flags = append(flags, &cli.BoolFlag{Name: "yes", Aliases: []string{"y"}, Usage: "really delete (without it, only say what would be deleted)"})
	return &cli.Command{
		Name:      "delete",
		Usage:     "remove games from the database, by id or by search criteria (--invalid: the invalid ones)",
		ArgsUsage: "[ID...]",
		Description: `Without --yes, delete lists how many games (and the first of them) it would
remove and removes nothing. With ids and criteria, the games that are both.
Examples: plateau delete 12 40 --yes;  plateau delete --invalid --game jetan --yes`,
		Flags:  flags,
		Action: deleteAction,
	}
}

func deleteAction(c *cli.Context) error {
	ids, err := idArgs(c)
	if err != nil {
		return err
	}
	db, err := openDB(c, !c.Bool("yes"))
	if err != nil {
		return err
	}
	defer db.Close()
	v := criteriaOf(c)
	for _, id := range ids {
		v.Add("id", strconv.FormatInt(id, 10))
	}
	q, err := queryOf(c, db, v)
	if err != nil {
		return err
	}
	if !q.HasCriteria() && !q.Invalid {
		return cli.Exit("delete: name the games: ids, or search criteria (--invalid, --game, --player, --event, …)", exitUsage)
	}
	del, invalid, err := toDelete(c, db, q)
	if err != nil {
		return exitErr(err)
	}
	w := c.App.Writer
	switch {
	case len(del) == 0:
		fmt.Fprintln(w, "no game matches: nothing to delete")
		return nil
	case !c.Bool("yes"):
		show := del[:min(len(del), 10)]
		var b strings.Builder
		for _, id := range show {
			fmt.Fprintf(&b, " #%d", id)
		}
		if len(del) > len(show) {
			b.WriteString(" …")
		}
		fmt.Fprintf(w, "%d games would be deleted (%d of them invalid):%s\nrun the same command with --yes to delete them\n", len(del), invalid, b.String())
		return nil
	}
	bar := newProgress(c, "deleting")
	n, err := db.Delete(c.Context, del, func(done, total int) { bar.set(done, total) })
	bar.done()
	fmt.Fprintf(w, "%d games deleted\n", n)
	if err != nil && errors.Is(err, c.Context.Err()) {
		return cli.Exit(fmt.Sprintf("interrupted: %d of %d games deleted (each batch is deleted whole); run the same command again to delete the rest", n, len(del)), exitUsage)
	}
	return exitErr(err)
}

// toDelete lists the games of q, sorted, and how many of them are
// invalid. The criteria select valid games, or with --invalid invalid ones;
// ids select either.
func toDelete(c *cli.Context, db *index.DB, q index.Query) (del []int64, invalid int, err error) {
	for _, inv := range []bool{false, true} {
		if q.IDs == nil && inv != q.Invalid {
			continue
		}
		qq := q
		qq.Invalid, qq.Limit = inv, -1
		res, err := db.Search(c.Context, qq)
		if err != nil {
			return nil, 0, err
		}
		for _, h := range res.Hits {
			del = append(del, h.ID)
			if inv {
				invalid++
			}
		}
	}
	slices.Sort(del)
	return slices.Compact(del), invalid, nil
}

func tagCommand() *cli.Command {
	return &cli.Command{
		Name:      "tag",
		Usage:     "change tags of a stored game (Name=Value; Name= removes the tag) and re-index it",
		ArgsUsage: "ID Name=Value...",
		Description: `Tag names are matched without regard to case. The game is replayed with its
new tags and stored again under the same id: player, event, site, date and
result searches, the opening tree and the text index see the change; a tag
that breaks the record (a bad FEN, a result the final position refuses)
makes it invalid, listed by plateau errors.`,
		Flags: []cli.Flag{dbFlag()},
		Action: func(c *cli.Context) error {
			if c.NArg() < 2 {
				return cli.Exit("tag: name a game id and at least one Name=Value", exitUsage)
			}
			var id int64
			arg := strings.TrimPrefix(c.Args().First(), "#")
			if _, err := fmt.Sscanf(arg, "%d", &id); err != nil || id <= 0 || fmt.Sprint(id) != arg {
				return cli.Exit(fmt.Sprintf("tag: %q is not a game id", c.Args().First()), exitUsage)
			}
			var tags []record.Tag
			for _, a := range c.Args().Slice()[1:] {
				name, value, ok := strings.Cut(a, "=")
				name = strings.TrimSpace(name)
				if !ok || name == "" || strings.ContainsAny(name, " \t\"[]") {
					return cli.Exit(fmt.Sprintf("tag: %q: want Name=Value (Name= to remove the tag)", a), exitUsage)
				}
				tags = append(tags, record.Tag{Name: name, Value: value})
			}
			db, err := openDB(c, false)
			if err != nil {
				return err
			}
			defer db.Close()
			valid, err := db.SetTags(c.Context, id, tags)
			if err != nil {
				return exitErr(err)
			}
			if valid {
				fmt.Fprintf(c.App.Writer, "#%d: tags changed; the game is valid\n", id)
				return nil
			}
			fmt.Fprintf(c.App.Writer, "#%d: tags changed; the game is invalid now (see plateau errors)\n", id)
			return cli.Exit("", exitInvalid)
		},
	}
}

// errorSummary prints errors --summary: one line per ruleset and reason.
func errorSummary(c *cli.Context, db *index.DB) error {
	gs, err := db.ErrorSummary(c.Context)
	if err != nil {
		return exitErr(err)
	}
	w := c.App.Writer
	total := 0
	fmt.Fprintf(w, "%6s  %-14s %-8s %s\n", "GAMES", "GAME", "FIRST", "REASON")
	for _, g := range gs {
		fmt.Fprintf(w, "%6d  %-14s %-8s %s\n", g.Games, g.Game, fmt.Sprintf("#%d", g.First), g.Reason)
		total += g.Games
	}
	fmt.Fprintf(w, "%d invalid games, %d kinds of error\n", total, len(gs))
	return nil
}
