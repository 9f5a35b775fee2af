// Command plateau is the game-record database and replayer: validate, show,
// export, perft and list games on record files; import, search and browse a
// collection in a database. Each subcommand lives in its own file and only
// turns flags into library calls and results into output.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"slices"
	"strings"
	"syscall"

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
	for _, c := range cmds {
		onUsageError(c, "")
	}
	return &cli.App{
		Name:     "plateau",
		Usage:    "game-record database and replayer for Ōgi, dames, draughts, Jetan, Dejarik and Sauts",
		Version:  version(),
		Flags:    []cli.Flag{dbFlag()}, // plateau --db DIR CMD …: see dbDir
		Commands: cmds,
		Action:   unknownCommand,
		OnUsageError: func(c *cli.Context, err error, _ bool) error {
			return usageError(c.App.Flags, "", err)
		},
		ExitErrHandler: func(*cli.Context, error) {},
	}
}

// Mistakes in a command line are told in one line, with the likely right
// spelling, and exit 2; the full help is for --help (as git does: "did you
// mean"). A command name is suggested when it is close to the one typed
// (see closest), and so is a flag of the command.

// unknownCommand is the app's action: plateau alone shows the help, plateau
// WORD with no such command says so.
func unknownCommand(c *cli.Context) error {
	if c.NArg() == 0 {
		return cli.ShowAppHelp(c)
	}
	name := c.Args().First()
	msg := fmt.Sprintf("%q is not a plateau command", name)
	if s := closest(commandNames(c.App.Commands), name); s != "" {
		msg += fmt.Sprintf("; did you mean %q?", s)
	}
	return cli.Exit(msg+" (plateau help lists the commands)", exitUsage)
}

// helpTopic is the error of "plateau help WORD" when WORD is no command,
// told as a mistyped command is (urfave/cli says "No help topic", exit 3).
func helpTopic(app *cli.App, args []string) error {
	var words []string
	for _, a := range args[commandIndex(app, args):] {
		if !strings.HasPrefix(a, "-") {
			words = append(words, a)
		}
	}
	if len(words) < 2 || (words[0] != "help" && words[0] != "h") || app.Command(words[1]) != nil {
		return nil
	}
	msg := fmt.Sprintf("no help topic %q: it is not a plateau command", words[1])
	if s := closest(commandNames(app.Commands), words[1]); s != "" {
		msg += fmt.Sprintf("; did you mean %q?", s)
	}
	return cli.Exit(msg+" (plateau help lists the commands)", exitUsage)
}

// onUsageError makes a command and its subcommands answer a flag mistake
// with usageError.
func onUsageError(cmd *cli.Command, parent string) {
	path := strings.TrimSpace(parent + " " + cmd.Name)
	cmd.OnUsageError = func(_ *cli.Context, err error, _ bool) error {
		return usageError(cmd.Flags, path, err)
	}
	for _, sub := range cmd.Subcommands {
		onUsageError(sub, path)
	}
}

// usageError is the one-line message of a flag mistake of the command
// path ("" for the app's own flags): an unknown flag with the closest of
// the command's flags, or the flag parser's message.
func usageError(flags []cli.Flag, path string, err error) error {
	msg := err.Error()
	if name, ok := strings.CutPrefix(msg, "flag provided but not defined: "); ok {
		name = strings.TrimLeft(name, "-")
		msg = "unknown flag " + dashed(name)
		if s := closest(flagNames(flags), name); s != "" {
			msg += fmt.Sprintf("; did you mean %s?", dashed(s))
		}
	}
	if path != "" {
		msg = path + ": " + msg
	}
	return cli.Exit(msg+fmt.Sprintf(" (%s --help lists the flags)", strings.TrimSpace("plateau "+path)), exitUsage)
}

func main() {
	os.Exit(run(os.Args, os.Stdout, os.Stderr))
}

// run runs the app with its output and error streams and maps errors to exit
// statuses.
func run(args []string, stdout, stderr io.Writer) int {
	app := newApp()
	app.Writer, app.ErrWriter = stdout, stderr
	// Ctrl-C (or SIGTERM) cancels the command's context: long commands stop
	// cleanly and say what was done; a second Ctrl-C kills at once.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	go func() { <-ctx.Done(); stop() }()
	err := helpTopic(app, args)
	if err == nil {
		err = app.RunContext(ctx, flagsFirst(app, args))
	}
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
// (urfave/cli stops reading flags at the first argument). Global flags
// (--db, --version) may come before the command: "plateau --db X search …".
func flagsFirst(app *cli.App, args []string) []string {
	k := commandIndex(app, args)
	if k+2 > len(args) {
		return args
	}
	cmd := app.Command(args[k])
	if cmd == nil {
		return args
	}
	if sub := subcommand(cmd, args[k+1]); sub != nil { // plateau openings import …
		if cmd, k = sub, k+1; k+2 > len(args) {
			return args
		}
	}
	takesValue := valueFlags(cmd.Flags)
	var flags, rest []string
	for i := k + 1; i < len(args); i++ {
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
	out := append(slices.Clone(args[:k+1]), flags...)
	return append(out, rest...)
}

// subcommand is cmd's subcommand named name, or nil.
func subcommand(cmd *cli.Command, name string) *cli.Command {
	for _, sub := range cmd.Subcommands {
		if slices.Contains(sub.Names(), name) {
			return sub
		}
	}
	return nil
}

// commandIndex is the index in args of the command's name, after the
// global flags (len(args) when there is none).
func commandIndex(app *cli.App, args []string) int {
	k := 1
	global := valueFlags(app.Flags)
	for k < len(args) && len(args[k]) > 1 && args[k][0] == '-' && args[k] != "--" {
		name := strings.TrimLeft(args[k], "-")
		if !strings.Contains(name, "=") && global[name] {
			k++
		}
		k++
	}
	return min(k, len(args))
}

// valueFlags maps each name of the flags to whether it takes a value.
func valueFlags(fs []cli.Flag) map[string]bool {
	m := map[string]bool{}
	for _, f := range fs {
		_, isBool := f.(*cli.BoolFlag)
		for _, name := range f.Names() {
			m[name] = !isBool
		}
	}
	return m
}
