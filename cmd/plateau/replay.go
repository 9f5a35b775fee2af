package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"
	"golang.org/x/term"

	"github.com/plateau/plateau/importers"
	"github.com/plateau/plateau/record"
	"github.com/plateau/plateau/replay"
	"github.com/plateau/plateau/replay/tui"
)

func replayCommand() *cli.Command {
	return &cli.Command{
		Name:      "replay",
		Usage:     "step through a game in the terminal, full screen, with single keys",
		ArgsUsage: "FILE|-|ID (a record file, - or nothing for standard input, or a database game id from --db)",
		Description: `In a terminal, the game fills the screen (header, board, move list, the
move's comment and NAGs) and keys step through it:

` + tui.Keys + `

The record may come on standard input (plateau replay - or plateau replay < FILE):
keys are then read from the terminal (/dev/tty), and a collection has its game
list and next and previous games as a file has (standard input is kept in a
temporary file while the replayer runs, at most 1 GiB).

Without a terminal the replayer does not take over the screen:
  - when standard input is not a terminal and the record comes from a file or
    the database, commands are read from it, one per line: Enter or n (next
    move), b (back), s (start), e (end), g K (go to ply K of the main line),
    v N (enter variation N of the next move), x (leave the variation), q (quit);
  - when the record came on standard input and there is no terminal for keys,
    the final position is shown as plateau show draws it, with every move.`,
		Flags: []cli.Flag{
			dbFlag(),
			&cli.IntFlag{Name: "game", Aliases: []string{"n"}, Usage: "game number in the file (1-based; default 1)"},
			rulesFlag("rules"),
			maxRecordFlag(),
		},
		Action: func(c *cli.Context) error {
			arg := "-"
			switch {
			case c.NArg() == 1:
				arg = c.Args().First()
			case c.NArg() > 1 || isTerminal(c.App.Reader):
				return cli.Exit("replay: name one file, - for standard input, or a database game id", exitUsage)
			}
			opts, err := replayOptions(c, "rules")
			if err != nil {
				return err
			}
			_, isID := gameID(c, arg)
			if arg != "-" && !isID && isTerminal(c.App.Writer) && isTerminal(c.App.Reader) {
				return replayFile(c, arg, arg, max(c.Int("game"), 1), opts, c.App.Reader)
			}
			if arg == "-" && isTerminal(c.App.Writer) {
				// Keys from the terminal itself; without one, the
				// final position is shown below.
				if tty, err := os.Open("/dev/tty"); err == nil {
					defer tty.Close()
					return replayStdin(c, max(c.Int("game"), 1), opts, tty)
				}
			}
			var rec *record.Game
			if arg == "-" {
				rec, err = stdinGame(c.App.Reader, c.Int("game"))
			} else {
				rec, err = loadGame(c, opts, arg, c.Int("game"))
			}
			if err != nil {
				return err
			}
			g := replay.Replay(rec, opts)
			if g.Start == nil {
				return cli.Exit(g.Err, exitInvalid)
			}
			fromStdin := arg == "-"
			out := c.App.Writer
			switch {
			case isTerminal(out) && !fromStdin && isTerminal(c.App.Reader):
				return runTUI(g, c.App.Reader.(*os.File), out)
			case isTerminal(out) && fromStdin:
				// The record used standard input up: keys come from the
				// terminal itself.
				tty, err := os.Open("/dev/tty")
				if err == nil {
					defer tty.Close()
					return runTUI(g, tty, out)
				}
				fmt.Fprintf(c.App.ErrWriter, "replay: no terminal to read keys from (%v): showing the final position\n", err)
			case !fromStdin:
				stepThrough(c.App.Reader, out, g)
				return nil
			}
			return showGame(out, rec, opts, -1, g.Plies()+1)
		},
	}
}

// maxStdinSpool bounds the records replay reads from standard input: they
// are kept in a temporary file for the game list (a file can be read
// again, a pipe cannot), which must not fill the disk.
const maxStdinSpool = 1 << 30

// replayStdin runs the full-screen replayer on game n of the records on
// standard input, as on a file's: they are copied to a temporary file
// (removed at the end), indexed and read from it, so that a collection
// has its game list and its next and previous games. Keys come from tty.
func replayStdin(c *cli.Context, n int, opts replay.Options, tty *os.File) error {
	dir, err := os.MkdirTemp("", "plateau-replay-")
	if err != nil {
		return cli.Exit(fmt.Sprintf("replay: standard input: %v", err), exitUsage)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "stdin")
	if err := spool(path, c.App.Reader, maxStdinSpool); err != nil {
		return cli.Exit(fmt.Sprintf("replay: standard input: %v", err), exitUsage)
	}
	return replayFile(c, path, "standard input", n, opts, tty)
}

// errSpoolFull: standard input holds more than the bound of spool.
var errSpoolFull = errors.New("too large for the replayer: save it to a file and replay the file")

// spool copies at most limit bytes of in to a new file at path; more is
// errSpoolFull.
func spool(path string, in io.Reader, limit int64) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	n, err := io.Copy(f, io.LimitReader(in, limit+1))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil && n > limit {
		err = fmt.Errorf("%w (more than %d MiB)", errSpoolFull, limit>>20)
	}
	return err
}

// stdinGame reads the n-th game (1-based; 0 means 1) of the records on
// standard input (gzip and zstd are decompressed).
func stdinGame(in io.Reader, n int) (*record.Game, error) {
	n = max(n, 1)
	rc, err := importers.NewReader(in)
	if err != nil {
		return nil, cli.Exit(fmt.Sprintf("replay: standard input: %v", err), exitUsage)
	}
	defer rc.Close()
	r := record.NewReader(rc, "<stdin>")
	for i := 1; ; i++ {
		g, err := r.Next()
		if errors.Is(err, io.EOF) {
			return nil, cli.Exit(fmt.Sprintf("replay: standard input has %d games, no game %d", i-1, n), exitUsage)
		}
		var se *record.Error
		if err != nil && !errors.As(err, &se) {
			return nil, cli.Exit(fmt.Sprintf("replay: standard input: %v", err), exitUsage)
		}
		if i == n {
			if err != nil {
				return nil, cli.Exit(err, exitInvalid)
			}
			return g, nil
		}
	}
}

// runTUI runs the full-screen replayer.
func runTUI(g *replay.Game, in *os.File, out io.Writer) error {
	if err := tui.Run(g, in, out); err != nil {
		return cli.Exit(fmt.Sprintf("replay: %v", err), exitUsage)
	}
	return nil
}

// isTerminal reports whether a stream is a terminal.
func isTerminal(v any) bool {
	f, ok := v.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// stepThrough runs the replayer's command loop until q or the end of input.
func stepThrough(in io.Reader, w io.Writer, g *replay.Game) {
	cur := g.Cursor()
	draw := func() {
		fmt.Fprintln(w, cur.Position().Diagram())
		where := fmt.Sprintf("ply %d", cur.Ply())
		if d := cur.Depth(); d > 0 {
			where += fmt.Sprintf(", in a variation (depth %d)", d)
		}
		if last := cur.Last(); last != nil {
			where += ", after " + replay.PlyString(last.Ply) + " " + last.Text
		}
		fmt.Fprintln(w, where)
		if next := cur.Next(); next != nil {
			line := "next: " + next.Text
			for i, v := range next.Variations {
				if len(v) > 0 {
					line += fmt.Sprintf("   v %d: %s", i+1, v[0].Text)
				}
			}
			fmt.Fprintln(w, line)
		} else if cur.Depth() == 0 {
			end := g.Result
			if t := g.Termination(); t != "" {
				end += " (" + t + ")"
			}
			fmt.Fprintln(w, "end of game: "+end)
		}
		if g.Err != nil && cur.Next() == nil && cur.Depth() == 0 {
			fmt.Fprintf(w, "invalid record from here: %v\n", g.Err)
		}
	}
	draw()
	sc := bufio.NewScanner(in)
	for fmt.Fprint(w, "> "); sc.Scan(); fmt.Fprint(w, "> ") {
		f := strings.Fields(sc.Text())
		cmd, arg := "n", -1
		if len(f) > 0 {
			cmd = f[0]
		}
		if len(f) > 1 {
			if v, err := strconv.Atoi(f[1]); err == nil {
				arg = v
			}
		}
		var err error
		switch cmd {
		case "n":
			err = cur.Forward()
		case "b":
			err = cur.Back()
		case "s":
			err = cur.ToPly(0)
		case "e":
			for cur.Forward() == nil {
			}
		case "g":
			err = cur.ToPly(arg)
		case "v":
			err = cur.Enter(arg - 1)
		case "x":
			err = cur.Exit()
		case "q":
			return
		default:
			fmt.Fprintln(w, "commands: Enter/n next, b back, s start, e end, g K ply, v N variation, x leave, q quit")
			continue
		}
		if err != nil {
			fmt.Fprintln(w, "cannot:", err)
			continue
		}
		draw()
	}
	fmt.Fprintln(w)
}
