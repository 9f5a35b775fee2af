package main

import (
	"errors"
	"fmt"
	"os"

	"github.com/urfave/cli/v2"

	"github.com/plateau/plateau/index"
)

// openings: the named openings of a database (index.ImportOpenings):
// import a file of names, list them, delete them.

func openingsCommand() *cli.Command {
	game := &cli.StringFlag{Name: "game", Aliases: []string{"g"}, Usage: "only this ruleset's names"}
	return &cli.Command{
		Name:  "openings",
		Usage: "name positions (a game's opening is the deepest named position it reaches): import, list, delete",
		Subcommands: []*cli.Command{
			{
				Name:      "import",
				Usage:     "read names from files: records with an Opening tag (and Variation), or lines ruleset<TAB>name<TAB>moves; a name given again for a position replaces its old one",
				ArgsUsage: "FILE...",
				Flags:     []cli.Flag{dbFlag()},
				Action:    openingsImport,
			},
			{
				Name:  "list",
				Usage: "list the named positions: ruleset, plies, name, moves (and with --games the games of each name)",
				Flags: []cli.Flag{dbFlag(), game, &cli.BoolFlag{Name: "games",
					Usage: "add a column: the games whose opening is that name (their deepest named position; deeper names count apart)"}},
				Action: openingsList,
			},
			openingsPlayedCommand(),
			{
				Name:   "delete",
				Usage:  "delete the names (of one ruleset with --game): games lose their opening",
				Flags:  []cli.Flag{dbFlag(), game},
				Action: openingsDelete,
			},
		},
	}
}

// openingsImport reads every file, reports each entry that does not play
// (file, line, move) and stores the others; an entry at fault makes the
// exit status 1.
func openingsImport(c *cli.Context) error {
	if c.NArg() == 0 {
		return cli.Exit("openings import: name a file of names", exitUsage)
	}
	var es []index.OpeningEntry
	var errs []error
	for _, path := range c.Args().Slice() {
		f, err := os.Open(path)
		if err != nil {
			return cli.Exit(fmt.Sprintf("openings import: %v", err), exitUsage)
		}
		e, errs1 := index.ReadOpenings(f, path)
		f.Close()
		es, errs = append(es, e...), append(errs, errs1...)
	}
	db, err := openDB(c, false)
	if err != nil {
		return err
	}
	defer db.Close()
	st, errs1, err := db.ImportOpenings(c.Context, es)
	if err != nil {
		return exitErr(err)
	}
	errs = append(errs, errs1...)
	for _, e := range errs {
		fmt.Fprintln(c.App.ErrWriter, "plateau:", e)
	}
	fmt.Fprintf(c.App.Writer, "%d names stored, %d not; %d games named in their rulesets\n", st.Names, len(errs), st.Games)
	for _, e := range errs {
		if !errors.Is(e, index.ErrOpeningEntry) {
			return cli.Exit("openings import: a file could not be read to its end", exitUsage)
		}
	}
	if len(errs) > 0 {
		return cli.Exit("", exitInvalid)
	}
	return nil
}

func openingsList(c *cli.Context) error {
	db, err := openDB(c, true)
	if err != nil {
		return err
	}
	defer db.Close()
	list, err := db.Openings(c.Context, c.String("game"))
	if err != nil {
		return cli.Exit(fmt.Sprintf("openings list: %v", err), exitUsage)
	}
	var counts map[int64]int
	if c.Bool("games") {
		if counts, err = db.OpeningGames(c.Context, c.String("game")); err != nil {
			return exitErr(err)
		}
	}
	for _, o := range list {
		if counts != nil {
			fmt.Fprintf(c.App.Writer, "%s\t%d\t%s\t%s\t%d\n", o.Game, o.Ply, o.Name, o.Moves, counts[o.ID])
			continue
		}
		fmt.Fprintf(c.App.Writer, "%s\t%d\t%s\t%s\n", o.Game, o.Ply, o.Name, o.Moves)
	}
	return nil
}

func openingsDelete(c *cli.Context) error {
	db, err := openDB(c, false)
	if err != nil {
		return err
	}
	defer db.Close()
	n, err := db.DeleteOpenings(c.Context, c.String("game"))
	if err != nil {
		return exitErr(err)
	}
	fmt.Fprintf(c.App.Writer, "%d names deleted\n", n)
	return nil
}
