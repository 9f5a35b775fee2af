package main

import (
	"bufio"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/urfave/cli/v2"

	"github.com/plateau/plateau/index"
	"github.com/plateau/plateau/record"
	"github.com/plateau/plateau/rules"
)

// filterFlags are the game-level criteria shared by search, dbexport and
// crosstable.
func filterFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "game", Usage: "ruleset (ogi, dames, draughts, …)"},
		&cli.StringFlag{Name: "player", Usage: "player name (fuzzy, prefix, accent-insensitive)"},
		&cli.StringFlag{Name: "side", Usage: "with --player: only games where the player had this side (side name or 0/1)"},
		&cli.StringFlag{Name: "opponent", Usage: "the other player's name (fuzzy)"},
		&cli.StringFlag{Name: "event", Usage: "event (substring, case-insensitive)"},
		&cli.StringFlag{Name: "site", Usage: "site (substring, case-insensitive)"},
		&cli.StringFlag{Name: "date", Usage: "date or date prefix (2026, 2026.07)"},
		&cli.StringFlag{Name: "from", Usage: "first date (prefix allowed)"},
		&cli.StringFlag{Name: "to", Usage: "last date (prefix allowed)"},
		&cli.StringFlag{Name: "result", Usage: "Result value (1-0, 2-0, 3-0, 1/2-1/2, *)"},
		&cli.StringFlag{Name: "termination", Usage: "termination (substring)"},
		&cli.IntFlag{Name: "min-plies", Usage: "at least this many plies"},
		&cli.IntFlag{Name: "max-plies", Usage: "at most this many plies"},
		&cli.StringSliceFlag{Name: "tag", Usage: "Name=Value, any tag (repeatable)"},
		&cli.StringFlag{Name: "text", Usage: "full-text query on names, event, site, annotator, comments (Bleve query syntax; a \"quoted phrase\" finds its words in one field, in any order)"},
		&cli.BoolFlag{Name: "invalid", Usage: "search the invalid games instead of the valid ones"},
	}
}

func positionFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "position", Aliases: []string{"fen"}, Usage: "exact position, in the game's notation or as moves from the start"},
		&cli.StringFlag{Name: "moves", Usage: "exact position after these moves from the start"},
		&cli.StringFlag{Name: "pattern", Usage: "pattern: '[SIDE:][+|-]K@SQ,SQ  empty@SQ  [SIDE:]K@hand>=N  [SIDE:]K<=N' (every term must hold)"},
	}
}

func pageFlags(defLimit int) []cli.Flag {
	return []cli.Flag{
		&cli.IntFlag{Name: "limit", Value: defLimit, Usage: "at most this many matches (-1: all)"},
		&cli.IntFlag{Name: "offset", Usage: "skip this many matches"},
		&cli.BoolFlag{Name: "count", Usage: "count every match (a pattern search then scans every game)"},
	}
}

// queryOf reads the criteria flags.
// queryDB opens the database for reading and builds the query its flags
// describe: the filters and, withPosition, the position and pattern criteria.
func queryDB(c *cli.Context, withPosition bool) (*index.DB, index.Query, error) {
	db, err := openDB(c, true)
	if err != nil {
		return nil, index.Query{}, err
	}
	q, err := queryOf(c)
	if err == nil && withPosition {
		err = positionQuery(c, db, &q)
	}
	if err != nil {
		db.Close()
		return nil, index.Query{}, err
	}
	return db, q, nil
}

func queryOf(c *cli.Context) (index.Query, error) {
	q := index.Query{
		Game: c.String("game"), Event: c.String("event"), Site: c.String("site"),
		DateFrom: c.String("from"), DateTo: c.String("to"), Result: c.String("result"),
		Termination: c.String("termination"), MinPlies: c.Int("min-plies"), MaxPlies: c.Int("max-plies"),
		Text: c.String("text"), Invalid: c.Bool("invalid"),
	}
	if d := c.String("date"); d != "" {
		q.DateFrom, q.DateTo = d, d
	}
	for _, t := range c.StringSlice("tag") {
		name, value, ok := strings.Cut(t, "=")
		if !ok || name == "" {
			return q, cli.Exit(fmt.Sprintf("--tag %q: want Name=Value", t), exitUsage)
		}
		q.Tags = append(q.Tags, record.Tag{Name: name, Value: value})
	}
	player, side, opp := c.String("player"), c.String("side"), c.String("opponent")
	if side == "" {
		q.Player = player
		if opp != "" {
			if player == "" {
				q.Player = opp
			} else {
				// Either way round: cannot be said with one side each;
				// match both names on either side.
				q.Player = player
				q.Opponent = opp
			}
		}
	} else {
		if player == "" {
			return q, cli.Exit("--side needs --player", exitUsage)
		}
		s, err := sideIndex(q.Game, side)
		if err != nil {
			return q, cli.Exit(err, exitUsage)
		}
		q.Players[s] = player
		q.Players[1-s] = opp
	}
	return q, nil
}

// sideIndex reads a side given as 0/1 or a side name.
func sideIndex(game, side string) (int, error) {
	switch side {
	case "0", "1":
		return int(side[0] - '0'), nil
	}
	var games []rules.Game
	if game != "" {
		g, err := rules.Lookup(game)
		if err != nil {
			return 0, err
		}
		games = []rules.Game{g}
	} else {
		games = rules.Games()
	}
	found := -1
	for _, g := range games {
		for i, s := range g.Sides() {
			if strings.EqualFold(s, side) {
				if found >= 0 && found != i {
					return 0, fmt.Errorf("side %q is side %d in one game and %d in another: give --game", side, found, i)
				}
				found = i
			}
		}
	}
	if found < 0 {
		return 0, fmt.Errorf("no side named %q", side)
	}
	return found, nil
}

// positionQuery adds the position and pattern criteria.
func positionQuery(c *cli.Context, db *index.DB, q *index.Query) error {
	text := c.String("position")
	if m := c.String("moves"); m != "" {
		if text != "" {
			return cli.Exit("give --position or --moves, not both", exitUsage)
		}
		text = m
	}
	if text != "" || c.String("pattern") != "" {
		if q.Game == "" {
			g, err := db.OnlyGame(c.Context)
			if err != nil {
				return exitErr(err)
			}
			q.Game = g
		}
	}
	if text != "" {
		var pos rules.Position
		var err error
		if c.IsSet("moves") {
			pos, err = index.PositionAfter(q.Game, text)
		} else {
			pos, err = index.Position(q.Game, text)
		}
		if err != nil {
			return cli.Exit(err, exitUsage)
		}
		q.Position = pos
	}
	if p := c.String("pattern"); p != "" {
		pat, err := index.ParsePattern(p)
		if err != nil {
			return cli.Exit(err, exitUsage)
		}
		q.Pattern = pat
	}
	return nil
}

func searchCommand() *cli.Command {
	flags := append([]cli.Flag{dbFlag()}, filterFlags()...)
	flags = append(flags, positionFlags()...)
	flags = append(flags, pageFlags(50)...)
	flags = append(flags, &cli.StringFlag{Name: "format", Value: "table", Usage: "table, pdn (the matching games in canonical form), json (one object per game and line, docs/json-export.md) or ids"})
	return &cli.Command{
		Name:  "search",
		Usage: "find games by position, pattern, player, event, site, date, result, tags",
		Flags: flags,
		Action: func(c *cli.Context) error {
			db, q, err := queryDB(c, true)
			if err != nil {
				return err
			}
			defer db.Close()
			q.Limit, q.Offset, q.Count = c.Int("limit"), c.Int("offset"), c.Bool("count")
			switch c.String("format") {
			case "pdn":
				return exportQuery(c, db, q)
			case "json":
				return exportQueryJSON(c, db, q)
			case "table", "ids":
			default:
				return cli.Exit(fmt.Sprintf("--format %q: want table, pdn, json or ids", c.String("format")), exitUsage)
			}
			res, err := db.Search(c.Context, q)
			if err != nil {
				return exitErr(err)
			}
			if c.String("format") == "ids" {
				for _, h := range res.Hits {
					fmt.Fprintln(c.App.Writer, h.ID)
				}
				return nil
			}
			printHits(c.App.Writer, res, q)
			if len(res.Hits) == 0 && q.Offset == 0 {
				explainEmpty(c, db, q) // explain.go
			}
			return nil
		},
	}
}

func printHits(out io.Writer, res index.Result, q index.Query) {
	w := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	withPly := q.Position != nil || q.Pattern != nil
	if withPly {
		fmt.Fprintln(w, "id\tgame\tdate\tplayers\tresult\tevent\tply")
	} else {
		fmt.Fprintln(w, "id\tgame\tdate\tplayers\tresult\tevent\tplies")
	}
	for _, h := range res.Hits {
		last := fmt.Sprint(h.Plies)
		if withPly {
			last = fmt.Sprint(h.Ply)
			if h.Variation {
				last += " (variation)"
			}
		}
		fmt.Fprintf(w, "%d\t%s\t%s\t%s – %s\t%s\t%s\t%s\n", h.ID, h.Game, h.Date, h.Players[0], h.Players[1], h.Result, h.Event, last)
	}
	w.Flush()
	switch {
	case res.Total >= 0:
		fmt.Fprintf(out, "%d matches\n", res.Total)
	default:
		fmt.Fprintf(out, "%d shown (--count for the total)\n", len(res.Hits))
	}
}

func exportQuery(c *cli.Context, db *index.DB, q index.Query) error {
	out := bufio.NewWriter(c.App.Writer)
	defer out.Flush()
	err := db.Records(c.Context, q, func(_ int64, text []byte) error {
		_, err := out.Write(text)
		return err
	})
	return exitErr(err)
}

func dbexportCommand() *cli.Command {
	flags := append([]cli.Flag{dbFlag()}, filterFlags()...)
	flags = append(flags, positionFlags()...)
	flags = append(flags, pageFlags(-1)...)
	flags = append(flags, jsonFormatFlag("pdn"))
	return &cli.Command{
		Name:  "dbexport",
		Usage: "write the games of a query (default: every valid game) from the database in canonical form",
		Flags: flags,
		Action: func(c *cli.Context) error {
			db, q, err := queryDB(c, true)
			if err != nil {
				return err
			}
			defer db.Close()
			q.Limit, q.Offset = c.Int("limit"), c.Int("offset")
			if json, err := wantJSON(c, "pdn"); err != nil || json {
				if err != nil {
					return err
				}
				return exportQueryJSON(c, db, q)
			}
			return exportQuery(c, db, q)
		},
	}
}

func treeCommand() *cli.Command {
	return &cli.Command{
		Name:      "tree",
		Usage:     "opening tree: the moves played from a position, with counts, scores, dates and players",
		ArgsUsage: "[POSITION | MOVES...]",
		Flags: []cli.Flag{dbFlag(),
			&cli.StringFlag{Name: "game", Usage: "ruleset (needed when the database holds several)"},
		},
		Action: func(c *cli.Context) error {
			db, err := openDB(c, true)
			if err != nil {
				return err
			}
			defer db.Close()
			game := c.String("game")
			if game == "" {
				if game, err = db.OnlyGame(c.Context); err != nil {
					return exitErr(err)
				}
			}
			g, err := rules.Lookup(game)
			if err != nil {
				return cli.Exit(err, exitUsage)
			}
			pos, err := index.Position(g.ID(), strings.Join(c.Args().Slice(), " "))
			if err != nil {
				return cli.Exit(err, exitUsage)
			}
			moves, err := db.Tree(c.Context, g.ID(), pos)
			if err != nil {
				return exitErr(err)
			}
			sides := g.Sides()
			w := tabwriter.NewWriter(c.App.Writer, 0, 0, 2, ' ', 0)
			fmt.Fprintf(w, "move\tgames\t%s\t%s\tfirst\tlast\tplayed most by\n", sides[0], sides[1])
			total := 0
			for _, m := range moves {
				total += m.Games
				var top []string
				for _, p := range m.Top {
					top = append(top, fmt.Sprintf("%s (%d)", p.Name, p.Games))
				}
				s0, s1 := "-", "-"
				if m.Scored > 0 {
					s0 = fmt.Sprintf("%s (%.0f%%)", points(m.Score[0]), 100*m.Score[0]/max(m.Score[0]+m.Score[1], 1e-9))
					s1 = fmt.Sprintf("%s (%.0f%%)", points(m.Score[1]), 100*m.Score[1]/max(m.Score[0]+m.Score[1], 1e-9))
				}
				fmt.Fprintf(w, "%s\t%d\t%s\t%s\t%s\t%s\t%s\n", m.Move, m.Games, s0, s1, m.First, m.Last, strings.Join(top, ", "))
			}
			w.Flush()
			fmt.Fprintf(c.App.Writer, "%d moves, %d games\n", len(moves), total)
			return nil
		},
	}
}
