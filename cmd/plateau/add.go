package main

import (
	"fmt"
	"io"
	"os"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/plateau/plateau/index"
)

// add: records stored as new games without a file import. Decisions: the
// games' source is add:TIME (UTC, to the second) for standard input and
// add:TIME:FILE for a file, so that plateau errors names where they came
// from and no later import or add supersedes them (the file is not marked
// imported: importing it later stores its games again only where they
// differ); all the records are stored in one transaction; a record already
// stored is named, not added; an invalid one is stored with its error (a
// syntax error keeps the record as written) and makes the exit status 1.

func addCommand() *cli.Command {
	return &cli.Command{
		Name:      "add",
		Usage:     "store the records of a file or of standard input as new games, without importing the file",
		ArgsUsage: "FILE|-",
		Description: `Every record is stored as a new game (revision 1, plateau history), valid or
not; its id is printed. A record already in the database is named instead.
Example: plateau export 12 | sed 's/Round "3"/Round "4"/' | plateau add -`,
		Flags:  []cli.Flag{dbFlag(), rulesFlag("game")},
		Action: addAction,
	}
}

func addAction(c *cli.Context) error {
	if c.NArg() != 1 {
		return cli.Exit("add: name one file, or - for standard input", exitUsage)
	}
	name := c.Args().First()
	opts, err := replayOptions(c, "game")
	if err != nil {
		return err
	}
	var text []byte
	if name == "-" {
		text, err = io.ReadAll(c.App.Reader)
	} else {
		text, err = os.ReadFile(name)
	}
	if err != nil {
		return cli.Exit(fmt.Sprintf("add: %v", err), exitUsage)
	}
	db, err := openDB(c, false)
	if err != nil {
		return err
	}
	defer db.Close()
	added, err := db.AddRecords(c.Context, text, index.AddSource(time.Now(), name), opts)
	if err != nil {
		return exitErr(err)
	}
	return addSummary(c, name, added)
}

// addSummary prints what add did with each record and returns its exit
// error: status 1 when a record is invalid.
func addSummary(c *cli.Context, name string, added []index.Added) error {
	w := c.App.Writer
	var n, invalid, dups int
	for _, a := range added {
		switch {
		case a.Dup:
			dups++
			fmt.Fprintf(w, "%s:%d: already stored as #%d: not added\n", name, a.Line, a.ID)
		case a.Valid:
			n++
			fmt.Fprintf(w, "#%d added\n", a.ID)
		default:
			n++
			invalid++
			fmt.Fprintf(w, "#%d added, invalid: %s\n", a.ID, faultText(a.Fault))
		}
	}
	fmt.Fprintf(w, "%d games added (%d invalid), %d already stored\n", n, invalid, dups)
	if invalid > 0 {
		return cli.Exit("", exitInvalid)
	}
	return nil
}
