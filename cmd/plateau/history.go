package main

import (
	"errors"
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/plateau/plateau/index"
	"github.com/plateau/plateau/record"
)

// history: the revisions of a stored game, oldest first; export ID
// --revision N prints one.

func historyCommand() *cli.Command {
	return &cli.Command{
		Name:      "history",
		Usage:     "list the revisions of a stored game (plateau export ID --revision N prints one)",
		ArgsUsage: "ID",
		Flags:     []cli.Flag{dbFlag()},
		Action: func(c *cli.Context) error {
			ids, err := idArgs(c)
			if err != nil {
				return err
			}
			if len(ids) != 1 {
				return cli.Exit("history: name one game id", exitUsage)
			}
			db, err := openDB(c, true)
			if err != nil {
				return err
			}
			defer db.Close()
			h, err := db.History(c.Context, ids[0])
			if errors.Is(err, index.ErrNotFound) {
				return cli.Exit(fmt.Sprintf("history: no game #%d in the database %s", ids[0], db.Dir()), exitUsage)
			}
			if err != nil {
				return exitErr(err)
			}
			printHistory(c, h)
			return nil
		},
	}
}

// printHistory writes one line per revision, the current one marked.
func printHistory(c *cli.Context, h []index.Revision) {
	w := c.App.Writer
	fmt.Fprintf(w, "  %4s  %-19s  %8s  %-7s  %s\n", "REV", "SAVED", "BYTES", "VALID", "NOTE")
	for _, r := range h {
		mark, when, valid := " ", "-", "valid"
		if r.Current {
			mark = "*"
		}
		if !r.Time.IsZero() {
			when = r.Time.Local().Format("2006-01-02 15:04:05")
		}
		if !r.Valid {
			valid = "invalid"
		}
		fmt.Fprintf(w, "%s %4d  %-19s  %8d  %-7s  %s\n", mark, r.N, when, r.Size, valid, r.Note)
	}
}

// exportRevision prints revision n of the one game id of export's
// arguments, as stored.
func exportRevision(c *cli.Context, n int) error {
	if c.NArg() != 1 {
		return cli.Exit("export: --revision applies to one database game id", exitUsage)
	}
	id, ok := gameID(c, c.Args().First())
	if !ok {
		return cli.Exit(fmt.Sprintf("export: --revision: %q is not a game id", c.Args().First()), exitUsage)
	}
	if format, err := recordFormat(c); err != nil || format != "pdn" {
		if err == nil {
			err = cli.Exit("export: --revision prints the record as stored (pdn); --format "+format+" reads the current revision only", exitUsage)
		}
		return err
	}
	db, err := openDB(c, true)
	if err != nil {
		return err
	}
	defer db.Close()
	text, err := db.Revision(c.Context, id, n)
	if errors.Is(err, index.ErrNotFound) {
		return cli.Exit(fmt.Sprintf("export: %v", err), exitUsage)
	}
	if err != nil {
		return exitErr(err)
	}
	_, err = c.App.Writer.Write(record.PDN(text)) // as export writes it
	return err
}
