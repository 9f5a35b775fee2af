package main

import (
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/plateau/plateau/record"
	"github.com/plateau/plateau/replay"
	"github.com/plateau/plateau/rules"
)

// The ruleset of records that name none (no Game or GameType tag).
//
// Decisions: the flag is --game G on validate, export, import and serve
// (where --game is free; --rules is an alias), and --rules G on show and
// replay, whose --game is the game's number in the file. With the flag,
// every untagged record is read under G, no detection. Without it, an
// untagged record is read as international draughts (the PDN default
// GameType, 20) unless it fits 8×8: then the 8×8 draughts rulesets are
// tried first, in replay's order of preference, and the game carries a
// warning naming the ruleset chosen (replay/detect.go).

// rulesFlag is the flag naming the ruleset of untagged records; name is
// "game" or "rules" (the other one, when free, is its alias).
func rulesFlag(name string) cli.Flag {
	var aliases []string
	if name == "game" {
		aliases = []string{"rules"}
	}
	return &cli.StringFlag{Name: name, Aliases: aliases,
		Usage: "ruleset of records without Game or GameType tag (default: draughts, or an 8×8 draughts ruleset detected from the moves)"}
}

// replayOptions are the replay options the flag says; name is the flag's
// name. An unknown ruleset is a usage error.
func replayOptions(c *cli.Context, name string) (replay.Options, error) {
	id := c.String(name)
	if id == "" {
		return replay.Options{DefaultGame: defaultGame, Detect: true}, nil
	}
	rg, err := lookupRules(name, id)
	if err != nil {
		return replay.Options{}, err
	}
	return replay.Options{DefaultGame: rg.ID()}, nil
}

// lookupRules is the ruleset a flag names (rules.Lookup); an unknown one is
// a usage error (exit 2) naming the flag, with the closest ruleset id when
// one is near ("ogii": did you mean ogi?).
func lookupRules(flag, id string) (rules.Game, error) {
	rg, err := rules.Lookup(id)
	if err == nil {
		return rg, nil
	}
	return nil, cli.Exit(fmt.Sprintf("--%s: %v%s", flag, err, rulesHint(id)), exitUsage)
}

// rulesHint ends the message of an unknown ruleset id: the closest id
// when one is near, and where the ids are listed.
func rulesHint(id string) string {
	var ids []string
	for _, g := range rules.Games() {
		ids = append(ids, g.ID())
	}
	if s := closest(ids, strings.ToLower(strings.TrimSpace(id))); s != "" {
		return fmt.Sprintf("; did you mean %s? (plateau games lists them)", s)
	}
	return " (plateau games lists them)"
}

// fileReplayer replays the records of files in order, passing detection
// the ruleset it chose for the previous untagged game of the same file
// (replay.Options.Prefer, the tie-break) and the votes of the file's games
// before (replay.Options.Votes: the file's majority for a record that does
// not carry its file's evidence, which eachGame's look-ahead gives every
// record it reads), so that every command reads a file's games alike.
type fileReplayer struct {
	opts         replay.Options
	file, prefer string
	votes        replay.Votes
}

func (r *fileReplayer) replay(file string, rec *record.Game) *replay.Game {
	if file != r.file {
		r.file, r.prefer = file, ""
	}
	o := r.opts
	o.Prefer = r.prefer
	o.Votes = &r.votes
	g := replay.Replay(rec, o)
	if d := g.Detected(); d != "" {
		r.prefer = d
	}
	r.votes.Add(g)
	return g
}
