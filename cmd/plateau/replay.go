package main

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/plateau/plateau/record"
	"github.com/plateau/plateau/replay"
)

func replayCommand() *cli.Command {
	return &cli.Command{
		Name:      "replay",
		Usage:     "step through a game in the terminal (commands on standard input)",
		ArgsUsage: "FILE",
		Description: `Commands, one per line: Enter or n (next move), b (back), s (start), e (end),
g K (go to ply K of the main line), v N (enter variation N of the next move),
x (leave the variation), q (quit).`,
		Flags: []cli.Flag{
			&cli.IntFlag{Name: "game", Aliases: []string{"n"}, Value: 1, Usage: "game number in the file (1-based)"},
			rulesFlag("rules"),
		},
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 {
				return cli.Exit("replay: name one file", exitUsage)
			}
			opts, err := replayOptions(c, "rules")
			if err != nil {
				return err
			}
			var rec *record.Game
			var recErr error
			want := c.Int("game")
			err = eachGame(c.Args().Slice(), func(file string, n int, g *record.Game, err error) error {
				if n == want {
					rec, recErr = g, err
				}
				return nil
			})
			if err != nil {
				return cli.Exit(err, exitUsage)
			}
			if rec == nil && recErr == nil {
				return cli.Exit(fmt.Sprintf("replay: no game %d in the file", want), exitUsage)
			}
			if recErr != nil {
				return cli.Exit(recErr, exitInvalid)
			}
			g := replay.Replay(rec, opts)
			if g.Start == nil {
				return cli.Exit(g.Err, exitInvalid)
			}
			stepThrough(c.App.Reader, c.App.Writer, g)
			return nil
		},
	}
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
