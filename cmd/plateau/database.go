package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/urfave/cli/v2"
	"golang.org/x/term"

	"github.com/plateau/plateau/index"
	"github.com/plateau/plateau/internal/ingest"
	"github.com/plateau/plateau/internal/nice"
)

// databaseCommands are the commands on a database: import, search, tree,
// info, errors, dbexport, crosstable, reindex, compact, delete, tag, edit,
// add, history, openings.
func databaseCommands() []*cli.Command {
	return []*cli.Command{
		importCommand(),
		searchCommand(),
		treeCommand(),
		infoCommand(),
		errorsCommand(),
		dbexportCommand(),
		crosstableCommand(),
		reindexCommand(),
		compactCommand(),
		deleteCommand(), // keep.go
		tagCommand(),
		editCommand(),     // edit.go
		addCommand(),      // add.go
		historyCommand(),  // history.go
		openingsCommand(), // openings.go
	}
}

func dbFlag() cli.Flag {
	return &cli.StringFlag{Name: "db", Usage: "database directory (default $PLATEAU_DB, else $XDG_DATA_HOME/plateau, else ~/.local/share/plateau)", EnvVars: nil}
}

// niceFlag is the priority of a writing batch command (import): by default
// it yields the processors to interactive work on the same machine (a
// server, a search) and takes them all when nothing else runs
// (internal/nice says why idle, and what it costs).
func niceFlag() cli.Flag {
	return &cli.StringFlag{Name: "nice", Value: defaultNice, EnvVars: []string{"PLATEAU_NICE"},
		Usage: "priority: idle (run only when other programs leave a processor free, so that a server or search on the same machine stays quick; beside a program that keeps every processor busy the import waits for it), or a niceness 0–19 (0: as started; 10 takes about a tenth of a processor that a normal program wants)"}
}

// defaultNice is the priority of an import and of bench's measured one.
const defaultNice = "idle"

// niceOf reads the --nice flag.
func niceOf(c *cli.Context) (nice.Setting, error) {
	s, err := nice.Parse(c.String("nice"))
	if err != nil {
		return s, cli.Exit("--nice: "+err.Error(), exitUsage)
	}
	return s, nil
}

// openDB opens the database of --db; readOnly for queries.
func openDB(c *cli.Context, readOnly bool) (*index.DB, error) {
	return openDBWith(c, index.Options{ReadOnly: readOnly})
}

// openDBWith is openDB with the options opts (their Notice set here).
func openDBWith(c *cli.Context, opts index.Options) (*index.DB, error) {
	opts.Notice = func(msg string) { fmt.Fprintln(c.App.ErrWriter, "plateau:", msg) }
	db, err := index.Open(c.Context, dbDir(c), opts)
	if err != nil {
		return nil, cli.Exit(err, exitUsage)
	}
	return db, nil
}

// exitErr maps a library error to an exit status.
func exitErr(err error) error {
	if err == nil {
		return nil
	}
	if errors.Is(err, context.Canceled) {
		return cli.Exit("interrupted", exitUsage)
	}
	return cli.Exit(err, exitUsage)
}

func stderrIsTerminal(c *cli.Context) bool {
	f, ok := c.App.ErrWriter.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

func importCommand() *cli.Command {
	return &cli.Command{
		Name:      "import",
		Usage:     "replay record files and store them in the database (invalid games are kept with their error)",
		ArgsUsage: "FILE|DIR|GLOB|- ...",
		Flags: []cli.Flag{
			dbFlag(),
			&cli.BoolFlag{Name: "force", Usage: "re-read files already imported (their games are skipped as duplicates)"},
			&cli.BoolFlag{Name: "replace", Usage: "the files are the truth: remove the games stored from them before that they no longer hold (implies --force)"},
			&cli.IntFlag{Name: "tx", Usage: "games per transaction (0: a tenth of the games in the database, 5,000 to 200,000)"},
			niceFlag(),
			&cli.IntFlag{Name: "workers", Usage: "replay workers (0: one per CPU)"},
			rulesFlag("game"),
			&cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}, Usage: "no progress bar"},
			maxRecordFlag(),
			&cli.StringFlag{Name: "cpuprofile", Usage: "write a CPU profile of the import to this file (`go tool pprof -tags` gives each stage's time)"},
		},
		Action: runImport,
	}
}

// runImport is the import command: the files of the arguments into the
// database, at the priority of --nice, with a progress bar on a terminal.
func runImport(c *cli.Context) error {
	if c.NArg() == 0 {
		return cli.Exit("import: name at least one file, directory or - for standard input", exitUsage)
	}
	ropts, err := replayOptions(c, "game")
	if err != nil {
		return err
	}
	pri, err := niceOf(c)
	if err != nil {
		return err
	}
	stopProfile, err := startCPUProfile(c.String("cpuprofile"))
	if err != nil {
		return cli.Exit(err.Error(), exitUsage)
	}
	defer stopProfile()
	db, err := openDB(c, false)
	if err != nil {
		return err
	}
	defer db.Close()
	ro, err := readOptsOf(c)
	if err != nil {
		return err
	}
	if err := pri.Apply(); err != nil {
		return cli.Exit(err.Error(), exitUsage)
	}
	if pri.Idle {
		defer watchIdleWait(c.App.ErrWriter)()
	}
	sized, restore := importMemory()
	defer restore()
	opts := ingest.Options{ImportOptions: index.ImportOptions{DefaultGame: ropts.DefaultGame, Detect: ropts.Detect,
		Replace: c.Bool("replace"), TxGames: c.Int("tx"), Workers: c.Int("workers")},
		Force: c.Bool("force") || c.Bool("replace"), MaxRecord: ro.maxRecord, FileError: ro.report, Sized: sized}
	bar := importBar(c)
	if bar != nil {
		opts.Progress = bar.show
	}
	st, err := ingest.Files(c.Context, db, c.Args().Slice(), opts)
	stopProfile()
	if bar != nil {
		bar.Finish()
	}
	return importSummary(c, st, err)
}

// watchIdleWait tells once, on w, that an import at idle priority waits
// for a processor (nice.Waits, sampled every second until stop): beside a
// program that keeps every processor busy it runs hardly at all, which
// looked like a hang.
func watchIdleWait(w io.Writer) (stop func()) {
	done := make(chan struct{})
	go func() {
		var waits nice.Waits
		tick := time.NewTicker(time.Second)
		defer tick.Stop()
		for {
			run, wait, ok := nice.Sched()
			if !ok {
				return
			}
			if waits.Sample(run, wait, time.Now()) {
				fmt.Fprintln(w, "plateau: waiting for a processor: the import runs at idle priority (--nice idle), after the programs that keep every processor busy, and goes on when one is free (--nice 10 runs it beside them)")
				return
			}
			select {
			case <-done:
				return
			case <-tick.C:
			}
		}
	}()
	return func() { close(done) }
}

// importProgress is the progress bar of an import: bytes of the files,
// games, errors and duplicates.
type importProgress struct{ *progressbar.ProgressBar }

// importBar is the bar of an import on a terminal, nil with --quiet or
// when standard error is not a terminal.
func importBar(c *cli.Context) *importProgress {
	if c.Bool("quiet") || !stderrIsTerminal(c) {
		return nil
	}
	return &importProgress{progressbar.NewOptions64(-1,
		progressbar.OptionSetWriter(c.App.ErrWriter),
		progressbar.OptionSetDescription("importing"),
		progressbar.OptionShowBytes(true),
		progressbar.OptionSetWidth(30),
		progressbar.OptionThrottle(200*time.Millisecond),
		progressbar.OptionClearOnFinish(),
	)}
}

func (b *importProgress) show(s index.ImportStats) {
	if s.TotalBytes > 0 {
		b.ChangeMax64(s.TotalBytes)
	}
	rate := float64(s.Records) / max(s.Elapsed.Seconds(), 1e-3)
	b.Describe(fmt.Sprintf("%d games (%.0f/s), %d errors, %d duplicates", s.Records, rate, s.Invalid, s.Duplicates))
	b.Set64(min(s.Bytes, max(s.TotalBytes, s.Bytes)))
}

// importSummary prints what an import did and returns its exit error.
func importSummary(c *cli.Context, st index.ImportStats, err error) error {
	if err != nil && c.Context.Err() != nil {
		// Ctrl-C: what was committed stays, the transaction under way is
		// undone. One count, the committed games: the summary's "stored"
		// counted those of the transaction undone too.
		return cli.Exit(fmt.Sprintf("interrupted: %d games committed (%d records read in %.1fs, %d duplicates; the %d games stored since the last commit were undone); run the same import again to resume (files read completely are skipped, committed games are duplicates)",
			st.Committed, st.Records, st.Elapsed.Seconds(), st.Duplicates, st.Stored-st.Committed), exitUsage)
	}
	rate := float64(st.Records) / max(st.Elapsed.Seconds(), 1e-3)
	fmt.Fprintf(c.App.Writer, "%d files (%d already imported), %d records: %d stored (%d valid, %d invalid), %d duplicates; %.1fs, %.0f games/s\n",
		st.Files, st.SkippedFiles, st.Records, st.Stored, st.Valid, st.Invalid, st.Duplicates, st.Elapsed.Seconds(), rate)
	if st.Replaced > 0 {
		fmt.Fprintf(c.App.Writer, "%d games replaced: superseded by the new read of their file\n", st.Replaced)
	}
	if err != nil {
		if st.Committed < st.Stored {
			// A failed commit (disk full…): the summary's stored games were not all kept.
			err = fmt.Errorf("%w\n(of the %d games stored above, %d were committed, the rest undone; run the same import again to complete it)", err, st.Stored, st.Committed)
		}
		return exitErr(err)
	}
	if st.Invalid > 0 {
		fmt.Fprintf(c.App.Writer, "see `plateau errors` for the invalid games\n")
	}
	if st.Unreadable > 0 {
		return cli.Exit(&filesError{st.Unreadable}, exitUsage)
	}
	return nil
}

func infoCommand() *cli.Command {
	return &cli.Command{
		Name:  "info",
		Usage: "what the database holds: games per ruleset, sizes",
		Flags: []cli.Flag{dbFlag()},
		Action: func(c *cli.Context) error {
			db, err := openDB(c, true)
			if err != nil {
				return err
			}
			defer db.Close()
			in, err := db.Info(c.Context)
			if err != nil {
				return exitErr(err)
			}
			w := c.App.Writer
			fmt.Fprintf(w, "database %s\n", in.Dir)
			tot := index.GameCount{}
			for _, g := range in.Games {
				fmt.Fprintf(w, "  %-14s %8d valid %6d invalid %10d plies\n", g.Game, g.Valid, g.Invalid, g.Plies)
				tot.Valid += g.Valid
				tot.Invalid += g.Invalid
				tot.Plies += g.Plies
			}
			fmt.Fprintf(w, "  %-14s %8d valid %6d invalid %10d plies\n", "total", tot.Valid, tot.Invalid, tot.Plies)
			fmt.Fprintf(w, "%d players, %d source files (%s of record text)\n", in.Players, in.Sources, size(in.SourceBytes))
			fmt.Fprintf(w, "SQLite %s (%s of free pages), text index %s", size(in.SQLiteBytes), size(in.FreeBytes), size(in.TextBytes))
			if in.SourceBytes > 0 {
				fmt.Fprintf(w, " (%.2f× the record text)", float64(in.SQLiteBytes+in.TextBytes)/float64(in.SourceBytes))
			}
			fmt.Fprintln(w)
			switch cov, err := db.TextCoverage(c.Context); {
			case err != nil:
				fmt.Fprintf(w, "text index: %v\n", err)
			case cov.Partial():
				fmt.Fprintf(w, "warning: %s: text queries may miss games (%s)\n", cov, index.TextAdvice)
			}
			if in.PositionRuns == 1 {
				fmt.Fprint(w, "position index: 1 run")
			} else {
				fmt.Fprintf(w, "position index: %d runs", in.PositionRuns)
			}
			if in.PositionRuns > 1 {
				fmt.Fprint(w, " (a lookup reads a block of each: `plateau compact` merges them into one)")
			}
			fmt.Fprintln(w)
			return nil
		},
	}
}

func size(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}

func errorsCommand() *cli.Command {
	return &cli.Command{
		Name:  "errors",
		Usage: "list the invalid games of the database with their first error",
		Flags: []cli.Flag{dbFlag(),
			&cli.IntFlag{Name: "limit", Usage: "at most this many (0: all)"},
			&cli.IntFlag{Name: "offset", Usage: "skip this many"},
			&cli.BoolFlag{Name: "summary", Usage: "group the errors by ruleset and reason (the rule broken), with counts"},
			&cli.BoolFlag{Name: "warnings", Usage: "list the warnings of the games instead (metadata faults of valid games, detected rulesets)"},
			&cli.StringFlag{Name: "kind", Usage: "with --warnings: only this kind (result, ruleset)"},
		},
		Action: func(c *cli.Context) error {
			db, err := openDB(c, true)
			if err != nil {
				return err
			}
			defer db.Close()
			if c.Bool("summary") {
				return errorSummary(c, db) // keep.go
			}
			if c.Bool("warnings") {
				return listWarnings(c, db)
			}
			es, total, err := db.Errors(c.Context, c.Int("limit"), c.Int("offset"))
			if err != nil {
				return exitErr(err)
			}
			for _, e := range es {
				where := fmt.Sprintf("%s:%d", e.File, e.Line)
				if e.Col > 0 {
					where += fmt.Sprintf(":%d", e.Col)
				}
				fmt.Fprintf(c.App.Writer, "#%d %s: %s: %s\n", e.ID, where, e.Game, e.Err)
			}
			fmt.Fprintf(c.App.Writer, "%d invalid games\n", total)
			return nil
		},
	}
}

func compactCommand() *cli.Command {
	return &cli.Command{
		Name:  "compact",
		Usage: "merge the position index into one run: faster position lookups in a large database (needs free disk about the position index's size)",
		Flags: []cli.Flag{dbFlag()},
		Action: func(c *cli.Context) error {
			db, err := openDB(c, false)
			if err != nil {
				return err
			}
			defer db.Close()
			start := time.Now()
			bar := newProgress(c, "compacting")
			st, err := db.CompactPositions(c.Context, func(done, total int64) { bar.set(int(done), int(total)) })
			bar.done()
			if err != nil {
				if c.Context.Err() != nil {
					return cli.Exit("interrupted: the position index is as it was", exitUsage)
				}
				return exitErr(err)
			}
			if st.Runs == 0 {
				fmt.Fprintln(c.App.Writer, "the position index is one run already")
				return nil
			}
			fmt.Fprintf(c.App.Writer, "%d position runs merged into one of %d occurrences in %.1fs\n", st.Runs, st.Occurrences, time.Since(start).Seconds())
			return nil
		},
	}
}

func reindexCommand() *cli.Command {
	return &cli.Command{
		Name:  "reindex",
		Usage: "rebuild the text index (names, events, comments) from the SQLite store",
		Flags: []cli.Flag{dbFlag()},
		Action: func(c *cli.Context) error {
			db, err := openDB(c, false)
			if err != nil {
				return err
			}
			defer db.Close()
			start := time.Now()
			bar := newProgress(c, "indexing")
			n, err := db.ReindexProgress(c.Context, bar.set)
			bar.done()
			if err != nil {
				if c.Context.Err() != nil {
					return cli.Exit(fmt.Sprintf("interrupted: %d games indexed; the next import or reindex completes the text index (other searches work meanwhile)", n), exitUsage)
				}
				return exitErr(err)
			}
			fmt.Fprintf(c.App.Writer, "%d games indexed in %.1fs\n", n, time.Since(start).Seconds())
			return nil
		},
	}
}

func pad(s string, w int) string {
	return s + strings.Repeat(" ", max(0, w-len([]rune(s))))
}

func points(f float64) string {
	if f == float64(int64(f)) {
		return fmt.Sprintf("%d", int64(f))
	}
	return strings.TrimRight(strings.TrimRight(fmt.Sprintf("%.1f", f), "0"), ".")
}
