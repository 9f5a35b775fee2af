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
	"strings"

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
	err := app.Run(flagsFirst(app, args))
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

// flagsFirst moves a subcommand's flags before its arguments, so that
// "plateau show FILE --game 3" works as well as "plateau show --game 3 FILE"
// (urfave/cli stops reading flags at the first argument).
func flagsFirst(app *cli.App, args []string) []string {
	if len(args) < 3 {
		return args
	}
	cmd := app.Command(args[1])
	if cmd == nil {
		return args
	}
	takesValue := map[string]bool{}
	for _, f := range cmd.Flags {
		_, isBool := f.(*cli.BoolFlag)
		for _, name := range f.Names() {
			takesValue[name] = !isBool
		}
	}
	var flags, rest []string
	for i := 2; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			rest = append(rest, args[i:]...)
			break
		}
		if len(a) < 2 || a[0] != '-' {
			rest = append(rest, a)
			continue
		}
		flags = append(flags, a)
		name := strings.TrimLeft(a, "-")
		if !strings.Contains(name, "=") && takesValue[name] && i+1 < len(args) {
			i++
			flags = append(flags, args[i])
		}
	}
	out := append([]string{args[0], args[1]}, flags...)
	return append(out, rest...)
}
