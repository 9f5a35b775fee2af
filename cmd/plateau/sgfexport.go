package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"

	"github.com/urfave/cli/v2"

	"github.com/plateau/plateau/importers/sgf"
	"github.com/plateau/plateau/index"
	"github.com/plateau/plateau/record"
	"github.com/plateau/plateau/rules"
)

// The SGF export (docs/sgf.md): export and dbexport --format sgf write each
// game as an SGF game tree in Plateau's SGF, which import reads back.

// recordFormatFlag is --format of export and dbexport.
func recordFormatFlag() cli.Flag {
	return &cli.StringFlag{Name: "format", Value: "pdn", Usage: "pdn (PDN 3.0, docs/records.md), sgf (one SGF game tree per game, docs/sgf.md) or json (one object per game and line: tags, moves in canonical and written form with comments, NAGs and variations, the position after each, validity, error, warnings; docs/json-export.md)"}
}

// recordFormat reads --format: pdn, sgf or json, else a usage error.
func recordFormat(c *cli.Context) (string, error) {
	switch f := c.String("format"); f {
	case "pdn", "":
		return "pdn", nil
	case "sgf", "json":
		return f, nil
	default:
		return "", cli.Exit(fmt.Sprintf("--format %q: want pdn, sgf or json", f), exitUsage)
	}
}

// exportQuerySGF is dbexport --format sgf: each matching game's stored
// (canonical) record as SGF.
func exportQuerySGF(c *cli.Context, db *index.DB, q index.Query) error {
	out := bufio.NewWriter(c.App.Writer)
	defer out.Flush()
	err := db.Records(c.Context, q, func(id int64, text []byte) error {
		rec, rerr := record.NewReader(bytes.NewReader(text), fmt.Sprintf("#%d", id)).Next()
		if errors.Is(rerr, io.EOF) {
			return fmt.Errorf("game %d: empty stored record", id)
		}
		if rerr != nil {
			// A record stored as written (it did not read): SGF
			// cannot hold it; say so rather than write part of it.
			fmt.Fprintf(c.App.ErrWriter, "#%d: %v (not exported: the record does not read; export it as pdn)\n", id, rerr)
			return nil
		}
		if rg, err := rules.Lookup(rec.Tag("Game")); err == nil {
			rec.Sides = rg.Sides() // the players as PB and PW
		}
		return sgf.Write(out, rec)
	})
	return exitErr(err)
}
