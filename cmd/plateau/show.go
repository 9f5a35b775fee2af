package main

import (
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/plateau/plateau/record"
	"github.com/plateau/plateau/replay"
	"github.com/plateau/plateau/rules/draw"
)

func showCommand() *cli.Command {
	return &cli.Command{
		Name:      "show",
		Usage:     "draw a game's position at a ply, or summarise a file's games and series scores",
		ArgsUsage: "FILE|ID (a database game id, from --db)",
		Flags: []cli.Flag{
			dbFlag(),
			&cli.IntFlag{Name: "game", Aliases: []string{"n"}, Usage: "game number in the file (1-based); without it a file of several games is summarised"},
			&cli.IntFlag{Name: "ply", Aliases: []string{"p"}, Value: -1, Usage: "show the position after this many plies (default: the end)"},
			&cli.IntFlag{Name: "context", Value: 4, Usage: "plies listed before and after the position"},
			rulesFlag("rules"),
			maxRecordFlag(),
		},
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 {
				return cli.Exit("show: name one file or database game id", exitUsage)
			}
			opts, err := replayOptions(c, "rules")
			if err != nil {
				return err
			}
			want := c.Int("game")
			if _, isID := gameID(c, c.Args().First()); want > 0 && !isID {
				return showFileGame(c, c.Args().First(), want, opts)
			}
			var games []*record.Game
			var errs []error
			err = eachGameArg(c, opts, c.Args().Slice(), func(file string, n int, g *record.Game, err error) error {
				games = append(games, g)
				errs = append(errs, err)
				return nil
			})
			if err != nil {
				return cli.Exit(err, exitUsage)
			}
			w := c.App.Writer
			if want == 0 && len(games) != 1 {
				summarise(w, games, errs, opts)
				return nil
			}
			if want == 0 {
				want = 1
			}
			if want < 1 || want > len(games) {
				return cli.Exit(fmt.Sprintf("show: %s has %d games, no game %d", c.Args().First(), len(games), want), exitUsage)
			}
			if errs[want-1] != nil {
				return cli.Exit(errs[want-1], exitInvalid)
			}
			// Detection reads a file's games alike: the games before this
			// one say which 8×8 ruleset the file prefers.
			fr := fileReplayer{opts: opts}
			for i := 0; i < want-1; i++ {
				if games[i] != nil && errs[i] == nil {
					fr.replay("", games[i])
				}
			}
			opts.Prefer = fr.prefer
			opts.Votes = &fr.votes
			return showGame(w, games[want-1], opts, c.Int("ply"), c.Int("context"))
		},
	}
}

// showFileGame shows game want of a file through its index: the games
// before it are not held, and are replayed only when detection needs the
// file's choices (an untagged game).
func showFileGame(c *cli.Context, arg string, want int, opts replay.Options) error {
	o, err := readOptsOf(c)
	if err != nil {
		return err
	}
	o.ahead = opts
	ix, err := newGameIndex(arg, o)
	if err != nil {
		return cli.Exit(err, exitUsage)
	}
	defer ix.close()
	rec, rerr, err := fileGame(c, ix, want)
	if err != nil {
		return err
	}
	if rerr != nil {
		return cli.Exit(rerr, exitInvalid)
	}
	if opts.Detect && !namesRules(rec) {
		// Detection reads a file's games alike: the games before this
		// one say which 8×8 ruleset the file prefers.
		fr := fileReplayer{opts: opts}
		for i := 0; i < want-1; i++ {
			g, rerr, err := ix.game(i)
			if err == nil && rerr == nil {
				fr.replay(ix.games[i].file.Name, g)
			}
		}
		opts.Prefer = fr.prefer
		opts.Votes = &fr.votes
	}
	return showGame(c.App.Writer, rec, opts, c.Int("ply"), c.Int("context"))
}

// namesRules reports whether a record names its ruleset, so that replay
// does not detect it (the tags replay.Replay reads).
func namesRules(g *record.Game) bool {
	return g.Tag("Game") != "" || g.Tag("GameType") != "" || g.Tag("SGFGame") != ""
}

func showGame(w io.Writer, rec *record.Game, opts replay.Options, ply, context int) error {
	g := replay.Replay(rec, opts)
	if g.Start == nil {
		return cli.Exit(g.Err, exitInvalid)
	}
	sides := g.Rules.Sides()
	fmt.Fprintf(w, "%s — %s: %s vs %s: %s", g.Rules.Name(), orDash(rec.Tag("Event")), orDash(rec.Tag(sides[0])), orDash(rec.Tag(sides[1])), orDash(g.Result))
	if t := g.Termination(); t != "" {
		fmt.Fprintf(w, " (%s)", t)
	}
	fmt.Fprintln(w)
	if o := strings.TrimSpace(rec.Tag("ECO") + " " + rec.Tag("Opening")); o != "" {
		fmt.Fprintf(w, "opening: %s\n", o)
	}
	cur := g.Cursor()
	if ply < 0 {
		ply = g.Plies()
	}
	if err := cur.ToPly(ply); err != nil {
		return cli.Exit(fmt.Sprintf("show: the game has %d plies, no ply %d", g.Plies(), ply), exitUsage)
	}
	pos := cur.Position()
	fmt.Fprintln(w, pos.Diagram())
	fmt.Fprintf(w, "position: %s\n", pos.String())
	fmt.Fprintf(w, "ply %d, %s to move\n", ply, sides[pos.ToMove()])
	// The moves around the ply, the one that led here marked.
	lo, hi := ply-context, ply+context
	var b strings.Builder
	for _, s := range g.Main {
		if s.Ply < lo || s.Ply >= hi {
			continue
		}
		if s.Ply%2 == 0 || b.Len() == 0 {
			b.WriteString(replay.PlyString(s.Ply))
			b.WriteByte(' ')
		}
		mark := ""
		if s.Ply == ply-1 && !s.Info.KeepsTurn {
			mark = "▶"
		}
		b.WriteString(mark + s.Text + " ")
	}
	if b.Len() > 0 {
		fmt.Fprintf(w, "moves: %s\n", strings.TrimSpace(b.String()))
	}
	if g.Err != nil {
		fmt.Fprintf(w, "invalid record: %s:%d: %v\n", g.Err.Pos.File, g.Err.Pos.Line, g.Err)
	}
	writeLegend(w, draw.Of(g.Rules, g.Start), sides)
	return nil
}

// writeLegend writes the piece legend of a board (draw.Board.Pieces), one
// piece a line, nothing for a game without one.
func writeLegend(w io.Writer, b draw.Board, sides [2]string) {
	if len(b.Pieces) == 0 {
		return
	}
	fmt.Fprintf(w, "pieces (%s upper case, %s lower case):\n", sides[0], sides[1])
	for _, p := range b.Pieces {
		fmt.Fprintf(w, "  %s\n", p)
	}
}

func orDash(s string) string {
	if s == "" || s == "?" {
		return "—"
	}
	return s
}

// summarise lists a file's games and totals the scores of each series (same
// Event and same two players): the Dejarik text plays series to 12 points.
func summarise(w io.Writer, games []*record.Game, errs []error, opts replay.Options) {
	fr := fileReplayer{opts: opts}
	type series struct {
		event, a, b string
		sa, sb      float64
		games       int
	}
	var order []string
	all := map[string]*series{}
	fmt.Fprintf(w, "%4s  %-10s %-24s %-24s %-8s %5s  %s\n", "GAME", "GAME TYPE", "FIRST SIDE", "SECOND SIDE", "RESULT", "PLIES", "EVENT")
	for i, rec := range games {
		if errs[i] != nil {
			fmt.Fprintf(w, "%4d  unreadable: %v\n", i+1, errs[i])
			continue
		}
		g := fr.replay("", rec)
		if g.Rules == nil {
			fmt.Fprintf(w, "%4d  %v\n", i+1, g.Err)
			continue
		}
		sides := g.Rules.Sides()
		a, b := rec.Tag(sides[0]), rec.Tag(sides[1])
		status := ""
		if g.Err != nil {
			status = "  (invalid: " + g.Err.Error() + ")"
		}
		fmt.Fprintf(w, "%4d  %-10s %-24s %-24s %-8s %5d  %s%s\n", i+1, g.Rules.ID(), a, b, g.Result, g.Plies(), rec.Tag("Event"), status)
		ra, rb, ok := scores(g.Result)
		if !ok || g.Err != nil {
			continue
		}
		// A series is the same event and the same pair, whichever side each had.
		p, q, pa, pb := a, b, ra, rb
		if q < p {
			p, q, pa, pb = q, p, rb, ra
		}
		key := g.Rules.ID() + "\x00" + rec.Tag("Event") + "\x00" + p + "\x00" + q
		s := all[key]
		if s == nil {
			s = &series{event: rec.Tag("Event"), a: p, b: q}
			all[key] = s
			order = append(order, key)
		}
		s.sa += pa
		s.sb += pb
		s.games++
	}
	if len(order) == 0 {
		return
	}
	sort.Strings(order)
	fmt.Fprintln(w, "\nseries totals (same event and players):")
	for _, k := range order {
		s := all[k]
		line := fmt.Sprintf("  %s: %s %s – %s %s over %d games", orDash(s.event), s.a, num(s.sa), num(s.sb), s.b, s.games)
		if strings.HasPrefix(k, "dejarik\x00") {
			switch {
			case s.sa >= 12 && s.sa > s.sb:
				line += fmt.Sprintf(" — %s has reached 12 points", s.a)
			case s.sb >= 12 && s.sb > s.sa:
				line += fmt.Sprintf(" — %s has reached 12 points", s.b)
			default:
				line += " — the series goes on to 12 points"
			}
		}
		fmt.Fprintln(w, line)
	}
}

// scores reads a result "a-b" into the two sides' scores ("1/2" counts 0.5).
func scores(result string) (a, b float64, ok bool) {
	result = strings.ReplaceAll(result, "½", "1/2")
	x, y, found := strings.Cut(result, "-")
	if !found {
		return 0, 0, false
	}
	a, ok1 := score(x)
	b, ok2 := score(y)
	return a, b, ok1 && ok2
}

func score(s string) (float64, bool) {
	if s == "1/2" {
		return 0.5, true
	}
	v, err := strconv.Atoi(s)
	return float64(v), err == nil
}

func num(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }
