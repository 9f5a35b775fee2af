package main

import (
	"bufio"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"github.com/klauspost/compress/zstd"
	"github.com/urfave/cli/v2"

	"github.com/plateau/plateau/internal/bench"
	"github.com/plateau/plateau/replay/generate"
	"github.com/plateau/plateau/rules"
)

// generateCommands are the commands that make and measure collections:
// generate and bench.
func generateCommands() []*cli.Command {
	return []*cli.Command{generateCommand(), benchCommand(), benchProbeCommand()}
}

func gameFlag() *cli.StringFlag {
	return &cli.StringFlag{Name: "game", Aliases: []string{"g"}, Required: true,
		Usage: "the game: " + strings.Join(gameIDs(), ", ")}
}

func gameIDs() []string {
	var ids []string
	for _, g := range rules.Games() {
		ids = append(ids, g.ID())
	}
	return ids
}

func generateCommand() *cli.Command {
	return &cli.Command{
		Name:      "generate",
		Usage:     "write a collection of complete, legal games (deterministic for a seed)",
		UsageText: "plateau generate --game ogi --games 100000 [--seed 1] [--out ogi.pdn.zst]",
		Flags: []cli.Flag{
			gameFlag(),
			&cli.IntFlag{Name: "games", Aliases: []string{"n"}, Value: 1000, Usage: "number of games"},
			&cli.Uint64Flag{Name: "seed", Value: 1, Usage: "random seed: the same seed gives the same collection"},
			&cli.IntFlag{Name: "first", Usage: "index of the first game (to make a collection in parts)"},
			&cli.StringFlag{Name: "out", Aliases: []string{"o"}, Usage: "output file (.gz and .zst are compressed); default stdout"},
			&cli.IntFlag{Name: "workers", Usage: "goroutines playing games (0: one per core); the output does not depend on it"},
			&cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}, Usage: "no summary on stderr"},
		},
		Action: func(c *cli.Context) error {
			g, err := lookupRules("game", c.String("game"))
			if err != nil {
				return err
			}
			n := c.Int("games")
			if n < 0 || c.Int("first") < 0 {
				return cli.Exit("--games and --first must not be negative", exitUsage)
			}
			gen, err := generate.New(g, c.Uint64("seed"))
			if err != nil {
				return cli.Exit(err.Error(), exitUsage)
			}
			out, closeOut, err := createOutput(c.String("out"))
			if err != nil {
				return cli.Exit(err.Error(), exitUsage)
			}
			start := time.Now()
			st, err := gen.Write(c.Context, out, n, generate.Options{Workers: c.Int("workers"), First: c.Int("first")})
			if cerr := closeOut(); err == nil {
				err = cerr
			}
			if err != nil {
				return cli.Exit(err.Error(), exitUsage)
			}
			if !c.Bool("quiet") {
				sec := time.Since(start).Seconds()
				fmt.Fprintf(os.Stderr, "%s: %d games, %d plies, %d bytes in %.2fs (%.0f games/s, %.0f plies/s)\n",
					g.ID(), st.Games, st.Plies, st.Bytes, sec, float64(st.Games)/sec, float64(st.Plies)/sec)
			}
			return nil
		},
	}
}

// createOutput opens the output: stdout for "" or "-", otherwise a file,
// compressed by its extension (.gz, .zst). The close function flushes
// everything.
func createOutput(name string) (io.Writer, func() error, error) {
	if name == "" || name == "-" {
		bw := bufio.NewWriterSize(os.Stdout, 1<<16)
		return bw, bw.Flush, nil
	}
	f, err := os.Create(name)
	if err != nil {
		return nil, nil, err
	}
	bw := bufio.NewWriterSize(f, 1<<16)
	var zw io.WriteCloser
	switch {
	case strings.HasSuffix(name, ".gz"):
		zw = gzip.NewWriter(bw)
	case strings.HasSuffix(name, ".zst"):
		zw, err = zstd.NewWriter(bw)
		if err != nil {
			f.Close()
			return nil, nil, err
		}
	}
	closeAll := func() error {
		var first error
		if zw != nil {
			first = zw.Close()
		}
		if err := bw.Flush(); first == nil {
			first = err
		}
		if err := f.Close(); first == nil {
			first = err
		}
		return first
	}
	if zw != nil {
		return zw, closeAll, nil
	}
	return bw, closeAll, nil
}

// benchProbeCommand is the process in which bench runs its queries during
// and after the measured import (bench.ServeProbe): not for users.
func benchProbeCommand() *cli.Command {
	return &cli.Command{
		Name:   "bench-probe",
		Hidden: true,
		Usage:  "(internal) the queries of plateau bench, in a process of their own",
		Action: func(c *cli.Context) error {
			if err := bench.ServeProbe(c.Context, os.Stdin, c.App.Writer); err != nil {
				return cli.Exit("bench-probe: "+err.Error(), exitUsage)
			}
			return nil
		},
	}
}

func benchCommand() *cli.Command {
	return &cli.Command{
		Name:  "bench",
		Usage: "measure the pipeline on a generated collection: generate, parse, validate, import (its curve), queries during and after the import",
		UsageText: "plateau bench --game ogi --games 100000 [--seed 1] [--workers 1] [--base 100000] [--cpuprofile import.pprof]\n" +
			"plateau bench --game ogi --queries-only --db DIR   (the queries of an existing database, as it is)\n" +
			"prints one Markdown table: games/s, plies/s, MB/s, latencies and peak memory per stage",
		Flags: []cli.Flag{
			gameFlag(),
			&cli.IntFlag{Name: "games", Aliases: []string{"n"}, Value: 10000, Usage: "number of games of the measured import"},
			&cli.Uint64Flag{Name: "seed", Value: 1, Usage: "random seed of the collection"},
			&cli.IntFlag{Name: "workers", Value: 1, Usage: "goroutines for generation (0: one per core)"},
			&cli.StringFlag{Name: "db", Usage: "directory for the benchmark database (default: a temporary directory, removed after)"},
			&cli.BoolFlag{Name: "no-db", Usage: "skip the database stages"},
			&cli.IntFlag{Name: "base", Usage: "games imported first (other games of the same collection), so that the measured import goes into a database that holds them"},
			&cli.StringFlag{Name: "curve", Usage: "cumulative game counts at which each import's curve is cut, comma-separated (default 10k,30k,100k,300k,1M,3M,10M; \"none\": no curve)"},
			&cli.DurationFlag{Name: "query-every", Value: bench.DefaultQueryEvery, Usage: "pace of the position lookups and opening trees run during the measured import (0: none)"},
			&cli.IntFlag{Name: "queries", Value: 200, Usage: "queries per latency stage after the import"},
			&cli.IntFlag{Name: "saves", Usage: "after the queries, time this many saves (a comment added to a game, stored as a new revision; they write to the database)"},
			&cli.StringFlag{Name: "cpuprofile", Usage: "write a CPU profile of the measured import to this file (of the base import to FILE-base)"},
			&cli.StringFlag{Name: "text-dir", Usage: "keep the generated record files in this directory (default: a temporary one, removed after)"},
			&cli.BoolFlag{Name: "probe-process", Value: true, Usage: "run the queries during and after the measured import in a process of their own, as a server would (false: in the bench's process)"},
			&cli.BoolFlag{Name: "queries-only", Usage: "measure only the queries (position lookup, player search, trees, pattern scan) of the database --db as it is, sampled from its stored games: no generation, no import"},
			&cli.StringFlag{Name: "nice", Value: defaultNice, EnvVars: []string{"PLATEAU_NICE"}, Usage: "priority of the measured import when the queries run in their own process, as plateau import's --nice (idle, or a niceness 0–19; 0: unchanged)"},
			&cli.IntSliceFlag{Name: "tree-plies", Usage: "with --queries-only, measure only the opening trees of the positions after these plies of the sampled games (e.g. 1,8,9), each twice: the second pass finds the pages of the first in the page cache"},
			&cli.BoolFlag{Name: "compact", Usage: "merge the position index into one run (plateau compact) after the import, or before the queries with --queries-only, timed as a stage; the queries are then those of the compacted database"},
		},
		Action: func(c *cli.Context) error {
			g, err := lookupRules("game", c.String("game"))
			if err != nil {
				return err
			}
			if c.Bool("queries-only") && dbDir(c) == "" {
				return cli.Exit("--queries-only measures an existing database: say which (--db DIR)", exitUsage)
			}
			if c.Int("games") <= 0 {
				return cli.Exit("--games must be positive", exitUsage)
			}
			pri, err := niceOf(c)
			if err != nil {
				return err
			}
			if c.Int("base") < 0 || c.Int("queries") < 0 || c.Int("saves") < 0 {
				return cli.Exit("--base, --queries and --saves must not be negative", exitUsage)
			}
			curve, err := parseCurve(c.String("curve"))
			if err != nil {
				return cli.Exit(err.Error(), exitUsage)
			}
			every := c.Duration("query-every")
			if every <= 0 {
				every = -1
			}
			cfg := bench.Config{
				Game:        g,
				Games:       c.Int("games"),
				Seed:        c.Uint64("seed"),
				Workers:     c.Int("workers"),
				DBDir:       dbDir(c),
				NoDB:        c.Bool("no-db"),
				Queries:     c.Int("queries"),
				Saves:       c.Int("saves"),
				Base:        c.Int("base"),
				Curve:       curve,
				QueryEvery:  every,
				CPUProfile:  c.String("cpuprofile"),
				TextDir:     c.String("text-dir"),
				Log:         os.Stderr,
				Nice:        pri,
				QueriesOnly: c.Bool("queries-only"),
				Compact:     c.Bool("compact"),
				TreePlies:   c.IntSlice("tree-plies"),
			}
			// The imports run as plateau import runs them, their files
			// about benchRecordBytes a game.
			sized, restore := importMemory()
			defer restore()
			sized(int64(cfg.Games+cfg.Base) * benchRecordBytes)
			if c.Bool("probe-process") {
				exe, err := os.Executable()
				if err != nil {
					return cli.Exit(err.Error(), exitUsage)
				}
				cfg.ProbeCommand = func(ctx context.Context) *exec.Cmd {
					cmd := exec.CommandContext(ctx, exe, "bench-probe")
					cmd.Stderr = os.Stderr
					return cmd
				}
			}
			rep, err := bench.Run(c.Context, cfg)
			if rep != nil {
				rep.Notes = append([]string{"Command: `plateau " + strings.Join(os.Args[1:], " ") + "`"}, rep.Notes...)
				fmt.Fprint(c.App.Writer, rep.Markdown())
			}
			if err != nil {
				return cli.Exit(err.Error(), exitUsage)
			}
			return nil
		},
	}
}

// parseCurve reads --curve: counts like 10000, 10k or 1M, comma-separated,
// increasing; "" is the default curve and "none" none.
func parseCurve(s string) ([]int, error) {
	switch strings.TrimSpace(s) {
	case "":
		return nil, nil
	case "none":
		return []int{}, nil
	}
	var cuts []int
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		mul := 1
		switch {
		case strings.HasSuffix(f, "k"), strings.HasSuffix(f, "K"):
			mul, f = 1_000, f[:len(f)-1]
		case strings.HasSuffix(f, "M"):
			mul, f = 1_000_000, f[:len(f)-1]
		}
		n, err := strconv.Atoi(f)
		if err != nil || n <= 0 || (len(cuts) > 0 && n*mul <= cuts[len(cuts)-1]) {
			return nil, fmt.Errorf("--curve %q: want increasing positive counts such as 10k,100k,1M", s)
		}
		cuts = append(cuts, n*mul)
	}
	return cuts, nil
}

// benchRecordBytes is about the size of a generated record (an Ōgi game
// of generate: 1,090 bytes), which sizes plateau bench's memory budget as
// plateau import sizes it by its files.
const benchRecordBytes = 1100
