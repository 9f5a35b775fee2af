package main

import (
	"bufio"
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/plateau/plateau/importers/sgf"
	"github.com/plateau/plateau/record"
)

func exportCommand() *cli.Command {
	return &cli.Command{
		Name:      "export",
		Usage:     "write record files in canonical form (PDN 3.0: docs/records.md) to standard output",
		ArgsUsage: "FILE|DIR|ID... (- for standard input; ID a database game id, from --db)",
		Flags: []cli.Flag{dbFlag(), rulesFlag("game"), recordFormatFlag(), maxRecordFlag(),
			&cli.IntFlag{Name: "revision", Usage: "with one database game id: print its revision N as stored (plateau history lists them)"}},
		Action: func(c *cli.Context) error {
			if c.NArg() == 0 {
				return cli.Exit("export: name at least one file, directory or database game id", exitUsage)
			}
			if c.IsSet("revision") {
				return exportRevision(c, c.Int("revision")) // history.go
			}
			opts, err := replayOptions(c, "game")
			if err != nil {
				return err
			}
			format, err := recordFormat(c)
			if err != nil {
				return err
			}
			if format == "json" {
				return exportFilesJSON(c, opts)
			}
			write := record.WritePDN
			if format == "sgf" {
				write = sgf.Write
			}
			out := bufio.NewWriter(c.App.Writer)
			defer out.Flush()
			invalid := 0
			fr := fileReplayer{opts: opts}
			err = eachGameArg(c, opts, c.Args().Slice(), func(file string, n int, g *record.Game, err error) error {
				if err != nil {
					invalid++
					fmt.Fprintf(c.App.ErrWriter, "%s:%d: game %d: %v (not exported)\n", file, lineOf(err), n, err)
					return nil
				}
				rg := fr.replay(file, g)
				if rg.Err != nil {
					// An invalid game is still exported, its moves from the
					// error on as written, so that nothing is lost.
					invalid++
					fmt.Fprintf(c.App.ErrWriter, "%s:%d: game %d: %v (exported as written from there)\n", file, rg.Err.Pos.Line, n, rg.Err)
				}
				return write(out, rg.Canonical())
			})
			if err != nil {
				return cli.Exit(err, exitUsage)
			}
			if invalid > 0 {
				return cli.Exit("", exitInvalid)
			}
			return nil
		},
	}
}
