package main

import (
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/plateau/plateau/record"
	"github.com/plateau/plateau/replay"
)

// defaultGame is the ruleset of records with neither a Game nor a GameType
// tag: international draughts, the PDN default GameType.
const defaultGame = "draughts"

func validateCommand() *cli.Command {
	return &cli.Command{
		Name:      "validate",
		Usage:     "check every game of record files against the rules",
		ArgsUsage: "FILE|DIR... (- for standard input)",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}, Usage: "print only the summary"},
			&cli.BoolFlag{Name: "notes", Usage: "also print remarks on accepted moves (dames faults)"},
			&cli.BoolFlag{Name: "warnings", Usage: "also print the warnings of valid games (metadata faults, detected rulesets)"},
			rulesFlag("game"),
			maxRecordFlag(),
		},
		Action: func(c *cli.Context) error {
			if c.NArg() == 0 {
				return cli.Exit("validate: name at least one file or directory", exitUsage)
			}
			opts, err := replayOptions(c, "game")
			if err != nil {
				return err
			}
			o, err := readOptsOf(c)
			if err != nil {
				return err
			}
			o.ahead = opts
			defer softMemoryLimit(validateMemoryLimit)()
			v := validator{w: c.App.Writer, quiet: c.Bool("quiet"), notes: c.Bool("notes"), warnings: c.Bool("warnings"), opts: opts}
			start := time.Now()
			err = eachGame(o, c.Args().Slice(), v.game)
			var fe *filesError
			if err != nil && !errors.As(err, &fe) {
				return cli.Exit(err, exitUsage)
			}
			el := time.Since(start).Seconds()
			if v.warned > 0 {
				fmt.Fprintf(v.w, "%d valid games with warnings (--warnings lists them)\n", v.warned)
			}
			fmt.Fprintf(v.w, "%d games, %d valid, %d invalid, %d plies in %.2fs (%.0f plies/s)\n",
				v.games, v.valid, v.games-v.valid, v.plies, el, float64(v.plies)/max(el, 1e-9))
			if fe != nil {
				// Unreadable files weigh more than invalid games.
				return cli.Exit(fe, exitUsage)
			}
			if v.valid != v.games {
				return cli.Exit("", exitInvalid)
			}
			return nil
		},
	}
}

type validator struct {
	w                      io.Writer
	quiet, notes, warnings bool
	opts                   replay.Options
	fr                     fileReplayer
	games, valid, warned   int
	plies                  int
}

func (v *validator) game(file string, n int, g *record.Game, err error) error {
	v.games++
	if err != nil {
		v.report(file, lineOf(err), n, readMessage(err))
		return nil
	}
	v.fr.opts = v.opts
	rg := v.fr.replay(file, g)
	v.plies += rg.Plies()
	if v.notes && !v.quiet {
		for _, note := range rg.Notes {
			fmt.Fprintf(v.w, "%s:%d: game %d: ply %d %q: note: %s\n", file, note.Step.Src.Pos.Line, n, note.Step.Ply+1, note.Step.Src.Text, note.Text)
		}
	}
	if rg.Err != nil {
		v.report(file, rg.Err.Pos.Line, n, rg.Err.Error())
		return nil
	}
	v.valid++
	if len(rg.Warnings) > 0 {
		v.warned++
	}
	if v.warnings && !v.quiet {
		for _, w := range rg.Warnings {
			fmt.Fprintf(v.w, "%s:%d: game %d: warning: %s\n", file, w.Pos.Line, n, w)
		}
	}
	return nil
}

func (v *validator) report(file string, line, n int, msg string) {
	if !v.quiet {
		fmt.Fprintf(v.w, "%s:%d: game %d: %s\n", file, line, n, msg)
	}
}

// readMessage is a record reading error without its position, which the
// caller prints in its own form.
func readMessage(err error) string {
	var se *record.Error
	if errors.As(err, &se) {
		return se.Msg
	}
	return err.Error()
}

// lineOf is the line of a record reading error.
func lineOf(err error) int {
	var se *record.Error
	if errors.As(err, &se) {
		return se.Pos.Line
	}
	return 0
}
