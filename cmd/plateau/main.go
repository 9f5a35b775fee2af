// Command plateau is the game-record database and replayer: validate, show,
// export, perft and list games on record files; import, search and browse a
// collection in a database. Each subcommand lives in its own file and only
// turns flags into library calls and results into output.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/urfave/cli/v2"

	_ "github.com/plateau/plateau/rules/all" // every game
)

// Exit statuses.
const (
	exitOK      = 0
	exitInvalid = 1 // some record is invalid
	exitUsage   = 2 // usage or I/O error
)

func newApp() *cli.App {
	cmds := []*cli.Command{
		gamesCommand(),
		validateCommand(),
		showCommand(),
		exportCommand(),
		perftCommand(),
		replayCommand(),
		serveCommand(),
	}
	cmds = append(cmds, generateCommands()...)
	cmds = append(cmds, databaseCommands()...)
	return &cli.App{
		Name:           "plateau",
		Usage:          "game-record database and replayer for Ōgi, dames, draughts, Jetan, Dejarik and Sauts",
		Commands:       cmds,
		ExitErrHandler: func(*cli.Context, error) {},
	}
}

func main() {
	os.Exit(run(os.Args, os.Stdout, os.Stderr))
}

// run runs the app with its output and error streams and maps errors to exit
// statuses.
func run(args []string, stdout, stderr io.Writer) int {
	app := newApp()
	app.Writer, app.ErrWriter = stdout, stderr
	err := app.Run(args)
	if err == nil {
		return exitOK
	}
	var ec cli.ExitCoder
	if errors.As(err, &ec) {
		if msg := ec.Error(); msg != "" {
			fmt.Fprintln(stderr, "plateau:", msg)
		}
		return ec.ExitCode()
	}
	fmt.Fprintln(stderr, "plateau:", err)
	return exitUsage
}
