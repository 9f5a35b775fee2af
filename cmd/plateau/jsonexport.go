package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/urfave/cli/v2"

	"github.com/plateau/plateau/index"
	"github.com/plateau/plateau/record"
	"github.com/plateau/plateau/replay"
)

// The JSON export (docs/json-export.md): JSON Lines, one replay.JSONGame
// per game, for export (record files), dbexport and search (the database).

// jsonFormatFlag is --format for a command whose other format is def.
func jsonFormatFlag(def string) cli.Flag {
	return &cli.StringFlag{Name: "format", Value: def, Usage: def + " or json (one object per game and line: tags, moves in canonical and written form, the position after each, validity, error, warnings; docs/json-export.md)"}
}

// wantJSON reads --format: true for json, false for def, a usage error for
// anything else.
func wantJSON(c *cli.Context, def string) (bool, error) {
	switch f := c.String("format"); f {
	case "json":
		return true, nil
	case def, "":
		return false, nil
	default:
		return false, cli.Exit(fmt.Sprintf("--format %q: want %s or json", f, def), exitUsage)
	}
}

// jsonOf is the JSON object of a record as read: replayed, or only its read
// error when the reader could not make a game of it.
func jsonOf(rec *record.Game, readErr error, replayer func(*record.Game) *replay.Game) replay.JSONGame {
	if rec == nil {
		j := replay.JSONGame{Warnings: []replay.JSONWarning{}, Tags: []replay.JSONTag{}, Moves: []replay.JSONMove{}, Result: "*"}
		if readErr != nil {
			j.Error = &replay.JSONError{Message: readMessage(readErr), Line: lineOf(readErr)}
		}
		return j
	}
	g := replayer(rec)
	j := g.JSON()
	j.Date = index.NormalizeDate(rec.Tag("Date"))
	if readErr != nil {
		// A syntax error: the game is invalid, whatever its moves so far.
		j.Valid = false
		j.Error = &replay.JSONError{Message: readMessage(readErr), Line: lineOf(readErr)}
	}
	return j
}

// exportFilesJSON is export --format json.
func exportFilesJSON(c *cli.Context, opts replay.Options) error {
	out := bufio.NewWriter(c.App.Writer)
	defer out.Flush()
	enc := json.NewEncoder(out)
	enc.SetEscapeHTML(false)
	invalid := 0
	fr := fileReplayer{opts: opts}
	err := eachGameArg(c, opts, c.Args().Slice(), func(file string, n int, g *record.Game, err error) error {
		j := jsonOf(g, err, func(rec *record.Game) *replay.Game { return fr.replay(file, rec) })
		j.File, j.Index = file, n
		if !j.Valid {
			invalid++
		}
		return enc.Encode(j)
	})
	if err != nil {
		return cli.Exit(err, exitUsage)
	}
	if invalid > 0 {
		return cli.Exit("", exitInvalid)
	}
	return nil
}

// exportQueryJSON is dbexport and search --format json: each matching game's
// stored record replayed, with its id and the warnings stored at import
// (the canonical record no longer shows a Result clash, and names its
// ruleset).
func exportQueryJSON(c *cli.Context, db *index.DB, q index.Query) error {
	out := bufio.NewWriter(c.App.Writer)
	defer out.Flush()
	enc := json.NewEncoder(out)
	enc.SetEscapeHTML(false)
	err := db.Records(c.Context, q, func(id int64, text []byte) error {
		rec, rerr := record.NewReader(bytes.NewReader(text), fmt.Sprintf("#%d", id)).Next()
		if errors.Is(rerr, io.EOF) {
			return fmt.Errorf("game %d: empty stored record", id)
		}
		var se *record.Error
		if rerr != nil && !errors.As(rerr, &se) {
			return rerr
		}
		j := jsonOf(rec, rerr, func(rec *record.Game) *replay.Game { return replay.Replay(rec, replay.Options{}) })
		j.ID, j.Line = id, 0
		ws, err := db.StoredWarnings(c.Context, id)
		if err != nil {
			return err
		}
		j.Warnings = ws
		return enc.Encode(j)
	})
	return exitErr(err)
}
