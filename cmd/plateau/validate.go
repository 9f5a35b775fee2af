package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"runtime/pprof"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/plateau/plateau/index"
	"github.com/plateau/plateau/internal/pipeline"
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
			&cli.StringFlag{Name: "cpuprofile", Usage: "write a CPU profile to this file (`go tool pprof -tags` gives the time of each stage: read, replay, print)"},
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
			stopProfile, err := startCPUProfile(c.String("cpuprofile"))
			if err != nil {
				return cli.Exit(err.Error(), exitUsage)
			}
			defer stopProfile()
			defer streamMemory(validateMemoryLimit)()
			v := validator{w: c.App.Writer, check: checker{quiet: c.Bool("quiet"), notes: c.Bool("notes"), warnings: c.Bool("warnings"), opts: opts}}
			start := time.Now()
			err = v.run(c.Context, o, c.Args().Slice(), runtime.GOMAXPROCS(0))
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

// validator checks the games of record files and counts them. With more
// than one worker, each file's text is read on that many goroutines
// (record/pieces), its games handed on in order on one goroutine and
// replayed on the workers in chunks (package internal/pipeline), and what
// is printed of each game is printed in the files' order, as one goroutine
// would print it. A record that names no ruleset under detection is replayed in order
// on the printing goroutine instead: its ruleset depends on the file's games
// before it (replay.InOrder).
type validator struct {
	w                    io.Writer
	check                checker
	fr                   fileReplayer
	buf                  []byte // the lines of the chunk being printed
	games, valid, warned int
	plies                int
}

// checker turns a game replayed into what validate prints and counts of
// it. It holds only options: workers share it.
type checker struct {
	quiet, notes, warnings bool
	opts                   replay.Options
}

// checked is one game of a chunk: what validate counts of it, and where its
// lines are in the chunk's text. rec is kept only while the game waits to
// be replayed in order (replay.InOrder).
type checked struct {
	file          string
	n             int
	rec           *record.Game
	plies         int
	valid, warned bool
	lines         [2]int
}

// vchunk is a run of consecutive games of one file and the lines printed
// of them.
type vchunk struct {
	games []checked
	text  []byte
}

// Chunks hold up to chunkGames games and chunkText bytes of record text (a
// larger record makes a chunk of its own): enough work to pay for a handoff
// between goroutines, few enough records in flight to keep memory bounded
// (pipeline.Options.Window).
const (
	chunkGames = 64
	chunkText  = 256 << 10
)

// run checks every game of args on workers goroutines.
func (v *validator) run(ctx context.Context, o readOpts, args []string, workers int) error {
	v.fr.opts = v.check.opts
	if workers <= 1 {
		return v.serial(o, args)
	}
	// The records too are read on every core (record/pieces): reading them
	// on one would be the most of the work.
	o.readers = workers
	read := func(ctx context.Context, emit func(*vchunk) error) error {
		pprof.SetGoroutineLabels(pprof.WithLabels(ctx, pprof.Labels("stage", "read")))
		c := &vchunk{}
		var first int64
		err := eachGame(o, args, func(file string, n int, g *record.Game, err error) error {
			off := offsetOf(g, err)
			if len(c.games) > 0 && (len(c.games) == chunkGames || file != c.games[0].file || off-first >= chunkText) {
				if err := emit(c); err != nil {
					return err
				}
				c = &vchunk{}
			}
			if len(c.games) == 0 {
				first = off
			}
			c.games = append(c.games, checked{file: file, n: n})
			ch := &c.games[len(c.games)-1]
			switch {
			case err != nil:
				c.text = v.check.failed(ch, c.text, err)
			default:
				ch.rec = g
			}
			return nil
		})
		if len(c.games) > 0 {
			if eerr := emit(c); err == nil {
				err = eerr
			}
		}
		return err
	}
	work := func(ctx context.Context) func(*vchunk) *vchunk {
		pprof.SetGoroutineLabels(pprof.WithLabels(ctx, pprof.Labels("stage", "replay")))
		var rp replay.Replayer
		return func(c *vchunk) *vchunk {
			for i := range c.games {
				g := &c.games[i]
				if g.rec != nil && !replay.InOrder(g.rec, v.check.opts) {
					c.text = v.check.replayed(g, c.text, rp.Replay(g.rec, v.check.opts))
					g.rec = nil
				}
			}
			return c
		}
	}
	// The printing goroutine is the caller's: labelled for the run only.
	var err error
	pprof.Do(ctx, pprof.Labels("stage", "print"), func(ctx context.Context) {
		err = pipeline.Run(ctx, pipeline.Options{Workers: workers, Window: 4 * workers}, read, work, v.print)
	})
	return err
}

// serial checks every game of args on the calling goroutine.
func (v *validator) serial(o readOpts, args []string) error {
	var rp replay.Replayer
	c := vchunk{games: make([]checked, 1)}
	return eachGame(o, args, func(file string, n int, g *record.Game, err error) error {
		c.games[0], c.text = checked{file: file, n: n}, c.text[:0]
		ch := &c.games[0]
		switch {
		case err != nil:
			c.text = v.check.failed(ch, c.text, err)
		case replay.InOrder(g, v.check.opts):
			c.text = v.check.replayed(ch, c.text, v.fr.replay(file, g))
		default:
			c.text = v.check.replayed(ch, c.text, rp.Replay(g, v.check.opts))
		}
		return v.print(&c)
	})
}

// offsetOf is where a game read, or the error that kept it from being read,
// starts in its file.
func offsetOf(g *record.Game, err error) int64 {
	var se *record.Error
	if errors.As(err, &se) {
		return se.Pos.Offset
	}
	if g != nil {
		return g.Pos.Offset
	}
	return 0
}

// print replays in order the games of a chunk left for it, counts the
// chunk's games and prints their lines in the chunk's order (the lines of
// a game that could not be read were written first, by the reader).
func (v *validator) print(c *vchunk) error {
	text := v.buf[:0]
	for i := range c.games {
		g := &c.games[i]
		if g.rec != nil {
			text = v.check.replayed(g, text, v.fr.replay(g.file, g.rec))
			g.rec = nil
		} else {
			text = append(text, c.text[g.lines[0]:g.lines[1]]...)
		}
		v.games++
		v.plies += g.plies
		if g.valid {
			v.valid++
		}
		if g.warned {
			v.warned++
		}
	}
	v.buf = text
	if len(text) == 0 {
		return nil
	}
	_, err := v.w.Write(text)
	return err
}

// failed is a game that could not be read: its line is appended to text.
func (k *checker) failed(g *checked, text []byte, err error) []byte {
	g.lines[0] = len(text)
	text = k.report(text, g.file, lineOf(err), g.n, readMessage(err))
	g.lines[1] = len(text)
	return text
}

// replayed counts a game replayed into g and appends its lines to text.
// rg may be a replay.Replayer's: nothing of it is kept.
func (k *checker) replayed(g *checked, text []byte, rg *replay.Game) []byte {
	g.lines[0] = len(text)
	defer func() { g.lines[1] = len(text) }()
	g.plies = rg.Plies()
	if k.notes && !k.quiet {
		for _, note := range rg.Notes {
			text = fmt.Appendf(text, "%s:%d: game %d: ply %d %q: note: %s\n", g.file, note.Step.Src.Pos.Line, g.n, note.Step.Ply+1, note.Step.Src.Text, note.Text)
		}
	}
	if rg.Err != nil {
		text = k.report(text, g.file, rg.Err.Pos.Line, g.n, rg.Err.Error())
		return text
	}
	g.valid = true
	// A game too long for the position index: an import stores it valid
	// with this warning, which validate gives too.
	long, isLong := index.PlyLimit(rg)
	g.warned = len(rg.Warnings) > 0 || isLong
	if k.warnings && !k.quiet {
		for _, w := range rg.Warnings {
			text = fmt.Appendf(text, "%s:%d: game %d: warning: %s\n", g.file, w.Pos.Line, g.n, w)
		}
		if isLong {
			text = fmt.Appendf(text, "%s:%d: game %d: warning: %s\n", g.file, long.Pos.Line, g.n, long)
		}
	}
	return text
}

func (k *checker) report(text []byte, file string, line, n int, msg string) []byte {
	if k.quiet {
		return text
	}
	return fmt.Appendf(text, "%s:%d: game %d: %s\n", file, line, n, msg)
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
