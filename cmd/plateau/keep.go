package main

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/plateau/plateau/index"
	"github.com/plateau/plateau/record"
	"github.com/plateau/plateau/replay"
	"github.com/plateau/plateau/rules"
)

// Keeping a database: delete and tag (import --replace and errors
// --summary live with import and errors). Decisions: delete shows what it
// would remove and removes nothing without --yes (exit status 0 either
// way); ids and criteria together delete the games that are both; an id
// of no game is an error that deletes nothing (exit 1, as git rm of a path
// it does not track), and so is a selection of no game (exit 1, as grep
// finding nothing); an edit of the tags stores the game again under the
// same id, and refuses a side tag its ruleset does not have (White= on an
// Ōgi game, whose sides are Sente and Gote) unless --force.

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
	if err := missingIDs(c, db, ids); err != nil {
		return err
	}
	del, invalid, err := toDelete(c, db, q)
	if err != nil {
		return exitErr(err)
	}
	w := c.App.Writer
	switch {
	case len(del) == 0:
		return cli.Exit("delete: no game matches: nothing deleted", exitInvalid)
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

// missingIDs is the error of ids that name no game of the database
// (exit 1), nil when every id names one.
func missingIDs(c *cli.Context, db *index.DB, ids []int64) error {
	var missing []string
	for _, id := range ids {
		_, err := db.Text(c.Context, id)
		switch {
		case errors.Is(err, index.ErrNotFound):
			missing = append(missing, fmt.Sprintf("#%d", id))
		case err != nil:
			return exitErr(err)
		}
	}
	if len(missing) == 0 {
		return nil
	}
	return cli.Exit(fmt.Sprintf("delete: no game %s in the database %s: nothing deleted", strings.Join(missing, ", "), db.Dir()), exitInvalid)
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
		Flags: []cli.Flag{dbFlag(), &cli.BoolFlag{Name: "force", Aliases: []string{"f"}, Usage: "change a side tag (White, Sente, …) that the game's ruleset does not have"}},
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
			if !c.Bool("force") {
				if err := foreignSideTags(c, db, id, tags); err != nil {
					return err
				}
			}
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

// foreignSideTags is the usage error of a tag that names a side (or a
// side's Elo, title or team) of some ruleset but not of the game's: White=
// on an Ōgi game, whose sides are Sente and Gote, would be stored and
// never shown as a player. Nil when every tag fits, or when the game's
// ruleset is unknown.
func foreignSideTags(c *cli.Context, db *index.DB, id int64, tags []record.Tag) error {
	text, err := db.Text(c.Context, id)
	if errors.Is(err, index.ErrNotFound) {
		return cli.Exit(fmt.Sprintf("tag: game #%d: not found in the database %s", id, db.Dir()), exitUsage)
	}
	if err != nil {
		return exitErr(err)
	}
	rec, err := record.NewReader(bytes.NewReader(text), fmt.Sprintf("#%d", id)).Next()
	if rec == nil || err != nil {
		return nil // SetTags says what is wrong with the record
	}
	g := replay.Replay(rec, replay.Options{DefaultGame: defaultGame, Detect: true})
	if g.Rules == nil {
		return nil
	}
	own := g.Rules.Sides()
	for _, t := range tags {
		side, ok := sideTag(t.Name)
		if !ok || strings.EqualFold(side, own[0]) || strings.EqualFold(side, own[1]) {
			continue
		}
		return cli.Exit(fmt.Sprintf("tag: %s names a side that %s does not have (its sides are %s and %s; --force changes it anyway)", t.Name, g.Rules.Name(), own[0], own[1]), exitUsage)
	}
	return nil
}

// sideTag reports whether a tag name is a side of some ruleset, or a
// side's Elo, title or team, and which side.
func sideTag(name string) (string, bool) {
	for _, rg := range rules.Games() {
		for _, side := range rg.Sides() {
			for _, suffix := range []string{"", "Elo", "Title", "Team"} {
				if strings.EqualFold(name, side+suffix) {
					return side, true
				}
			}
		}
	}
	return "", false
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
