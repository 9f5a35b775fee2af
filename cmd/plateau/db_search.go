package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"net/url"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/urfave/cli/v2"

	"github.com/plateau/plateau/index"
	"github.com/plateau/plateau/record"
	"github.com/plateau/plateau/rules"
)

// criteriaFlags are the flags of the search criteria (index.Criteria):
// those of games, and withPositions those of positions (position, moves,
// pattern).
func criteriaFlags(withPositions bool) []cli.Flag {
	var flags []cli.Flag
	for _, cr := range index.Criteria() {
		if cr.Positions && !withPositions {
			continue
		}
		switch cr.Kind {
		case index.KindNumber:
			flags = append(flags, &cli.IntFlag{Name: cr.Name, Aliases: cr.Aliases, Usage: cr.Usage})
		case index.KindSwitch:
			flags = append(flags, &cli.BoolFlag{Name: cr.Name, Aliases: cr.Aliases, Usage: cr.Usage})
		case index.KindList:
			flags = append(flags, &cli.StringSliceFlag{Name: cr.Name, Aliases: cr.Aliases, Usage: cr.Usage})
		default:
			flags = append(flags, &cli.StringFlag{Name: cr.Name, Aliases: cr.Aliases, Usage: cr.Usage})
		}
	}
	return flags
}

// treeCriteriaFlags are the flags of the criteria of games a tree takes
// (every one but the valid/invalid switch: a tree is of valid games).
func treeCriteriaFlags() []cli.Flag {
	var flags []cli.Flag
	for _, f := range criteriaFlags(false) {
		if f.Names()[0] != "invalid" {
			flags = append(flags, f)
		}
	}
	return flags
}

func pageFlags(defLimit int) []cli.Flag {
	return []cli.Flag{
		&cli.IntFlag{Name: "limit", Value: defLimit, Usage: "at most this many matches (-1: all)"},
		&cli.IntFlag{Name: "offset", Usage: "skip this many matches"},
		&cli.BoolFlag{Name: "count", Usage: "count every match (a pattern search then scans every game)"},
	}
}

// queryDB opens the database for reading and builds the query its
// criteria flags describe.
func queryDB(c *cli.Context) (*index.DB, index.Query, error) {
	db, err := openDB(c, true)
	if err != nil {
		return nil, index.Query{}, err
	}
	q, err := queryOf(c, db, criteriaOf(c))
	if err != nil {
		db.Close()
		return nil, index.Query{}, err
	}
	return db, q, nil
}

// criteriaOf reads the criteria flags that are set, by name.
func criteriaOf(c *cli.Context) url.Values {
	v := url.Values{}
	for _, cr := range index.Criteria() {
		if !c.IsSet(cr.Name) {
			continue
		}
		switch cr.Kind {
		case index.KindNumber:
			v.Set(cr.Name, strconv.Itoa(c.Int(cr.Name)))
		case index.KindSwitch:
			v.Set(cr.Name, strconv.FormatBool(c.Bool(cr.Name)))
		case index.KindList:
			v[cr.Name] = c.StringSlice(cr.Name)
		default:
			v.Set(cr.Name, c.String(cr.Name))
		}
	}
	return v
}

// queryOf is the query of the criteria v (index.ParseQuery). A position or
// pattern without --game is of the database's only ruleset.
func queryOf(c *cli.Context, db *index.DB, v url.Values) (index.Query, error) {
	if g := v.Get("game"); g != "" {
		if _, err := rules.Lookup(g); err != nil {
			return index.Query{}, cli.Exit(fmt.Sprintf("--game %q: unknown game%s", g, rulesHint(g)), exitUsage)
		}
	}
	if err := ambiguousSide(v.Get("game"), v.Get("side")); err != nil {
		return index.Query{}, err
	}
	if v.Get("game") == "" {
		for _, cr := range index.Criteria() {
			if cr.Positions && v.Get(cr.Name) != "" {
				g, err := db.OnlyGame(c.Context)
				if err != nil {
					return index.Query{}, exitErr(err)
				}
				v.Set("game", g)
				break
			}
		}
	}
	q, err := index.ParseQuery(v)
	var ce *index.CriterionError
	if errors.As(err, &ce) {
		return q, cli.Exit("--"+ce.Error(), exitUsage) // its name is a flag's
	}
	return q, err
}

// ambiguousSide is the usage error of a side named without --game that is
// the first side in some rulesets and the second in others (Black moves
// first in checkers and pool, second in draughts): it names both lists.
func ambiguousSide(game, side string) error {
	if game != "" || side == "" || side == "0" || side == "1" {
		return nil
	}
	var at [2][]string
	for _, g := range rules.Games() {
		for i, s := range g.Sides() {
			if strings.EqualFold(s, side) {
				at[i] = append(at[i], g.ID())
			}
		}
	}
	if len(at[0]) == 0 || len(at[1]) == 0 {
		return nil
	}
	return cli.Exit(fmt.Sprintf("--side %q: %s is the first side in %s and the second in %s: give --game, or --side 0 (first) or 1 (second)",
		side, side, strings.Join(at[0], ", "), strings.Join(at[1], ", ")), exitUsage)
}

func searchCommand() *cli.Command {
	flags := append([]cli.Flag{dbFlag()}, criteriaFlags(true)...)
	flags = append(flags, pageFlags(50)...)
	flags = append(flags, &cli.StringFlag{Name: "format", Value: "table", Usage: "table, pdn (the matching games in canonical form), json (one object per game and line, docs/json-export.md) or ids"})
	flags = append(flags, sortFlags()...)
	return &cli.Command{
		Name:  "search",
		Usage: "find games by position, pattern, player, event, site, date, result, tags",
		Flags: flags,
		Action: func(c *cli.Context) error {
			db, q, err := queryDB(c)
			if err != nil {
				return err
			}
			defer db.Close()
			q.Limit, q.Offset, q.Count = c.Int("limit"), c.Int("offset"), c.Bool("count")
			warnPartialText(c, db, q)
			if sorted(c) {
				res, err := sortedSearch(c, db, q) // searchsort.go
				if err != nil {
					return err
				}
				return printSearch(c, db, q, res)
			}
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
			return printSearch(c, db, q, res)
		},
	}
}

// printSearch writes a page of search's games: their ids, or the table
// with their openings.
func printSearch(c *cli.Context, db *index.DB, q index.Query, res index.Result) error {
	if c.String("format") == "ids" {
		for _, h := range res.Hits {
			fmt.Fprintln(c.App.Writer, h.ID)
		}
		return nil
	}
	ids := make([]int64, len(res.Hits))
	for i, h := range res.Hits {
		ids[i] = h.ID
	}
	names, err := db.GameOpenings(c.Context, ids)
	if err != nil {
		return exitErr(err)
	}
	printHits(c.App.Writer, res, q, names)
	if len(res.Hits) == 0 && q.Offset == 0 {
		explainEmpty(c, db, q) // explain.go
	}
	return nil
}

// printHits writes a page of games, with an opening column when a game
// of the page has a name (names, by game id).
func printHits(out io.Writer, res index.Result, q index.Query, names map[int64]string) {
	w := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	withPly := q.Position != nil || q.Pattern != nil
	named := ""
	if len(names) > 0 {
		named = "\topening"
	}
	if withPly {
		fmt.Fprintln(w, "id\tgame\tdate\tplayers\tresult\tevent\tply"+named)
	} else {
		fmt.Fprintln(w, "id\tgame\tdate\tplayers\tresult\tevent\tplies"+named)
	}
	for _, h := range res.Hits {
		last := fmt.Sprint(h.Plies)
		if withPly {
			last = fmt.Sprint(h.Ply)
			if h.Variation {
				last += " (variation)"
			}
		}
		if named != "" {
			last += "\t" + names[h.ID]
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
		_, err := out.Write(record.PDN(text)) // stored canonical, written PDN 3.0
		return err
	})
	return exitErr(err)
}

func dbexportCommand() *cli.Command {
	flags := append([]cli.Flag{dbFlag()}, criteriaFlags(true)...)
	flags = append(flags, pageFlags(-1)...)
	flags = append(flags, recordFormatFlag())
	return &cli.Command{
		Name:  "dbexport",
		Usage: "write the games of a query (default: every valid game) from the database in canonical form",
		Flags: flags,
		Action: func(c *cli.Context) error {
			db, q, err := queryDB(c)
			if err != nil {
				return err
			}
			defer db.Close()
			q.Limit, q.Offset = c.Int("limit"), c.Int("offset")
			switch format, err := recordFormat(c); {
			case err != nil:
				return err
			case format == "json":
				return exportQueryJSON(c, db, q)
			case format == "sgf":
				return exportQuerySGF(c, db, q)
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
		Description: "The criteria narrow the games counted: --player NAME --side S is a player's repertoire as that side,\n" +
			"--from and --to a period, --event an event, --min-elo and --max-elo a rating band (both players).",
		Flags: append([]cli.Flag{dbFlag()}, treeCriteriaFlags()...),
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
			g, err := lookupRules("game", game)
			if err != nil {
				return err
			}
			pos, err := index.Position(g.ID(), strings.Join(c.Args().Slice(), " "))
			if err != nil {
				return cli.Exit(err, exitUsage)
			}
			v := criteriaOf(c)
			v.Set("game", g.ID())
			q, err := queryOf(c, db, v)
			if err != nil {
				return err
			}
			moves, err := db.FilteredTree(c.Context, g.ID(), pos, q)
			var ce *index.CriterionError
			if errors.As(err, &ce) {
				return cli.Exit("--"+ce.Error(), exitUsage)
			}
			if err != nil {
				return exitErr(err)
			}
			here, names, err := treeNames(c, db, g.ID(), pos, moves)
			if err != nil {
				return exitErr(err)
			}
			if here != "" {
				fmt.Fprintf(c.App.Writer, "opening: %s\n", here)
			}
			sides := g.Sides()
			w := tabwriter.NewWriter(c.App.Writer, 0, 0, 2, ' ', 0)
			named := ""
			if len(names) > 0 {
				named = "\topening"
			}
			fmt.Fprintf(w, "move\tgames\t%s\t%s\t%s/draw/%s\tfirst\tlast\tplayed most by%s\n", sides[0], sides[1], sides[0], sides[1], named)
			total := 0
			for i, m := range moves {
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
				name := ""
				if len(names) > 0 {
					name = "\t" + names[i]
				}
				fmt.Fprintf(w, "%s\t%d\t%s\t%s\t%s\t%s\t%s\t%s%s\n", m.Move, m.Games, s0, s1, treeWDL(m), m.First, m.Last, strings.Join(top, ", "), name)
			}
			w.Flush()
			fmt.Fprintf(c.App.Writer, "%d moves, %d games\n", len(moves), total)
			return nil
		},
	}
}

// treeWDL is a tree move's scored games as side 0's wins, draws and side
// 1's wins, counts then shares ("2/1/1 (50/25/25%)"): a game is won by the
// side with more points (the ruleset's own scale: 2-0, Dejarik series).
// "-" when no game is scored or the aggregate (an older layout's) does not
// count wins.
func treeWDL(m index.TreeMove) string {
	if m.Scored == 0 || m.WinsUnknown {
		return "-"
	}
	draws := m.Scored - m.Wins[0] - m.Wins[1]
	pct := func(n int) int { return int(math.Round(100 * float64(n) / float64(m.Scored))) }
	return fmt.Sprintf("%d/%d/%d (%d/%d/%d%%)", m.Wins[0], draws, m.Wins[1], pct(m.Wins[0]), pct(draws), pct(m.Wins[1]))
}

// warnPartialText warns on stderr, for a text query, that the text index
// lacks games or edits (index.TextCoverage): the search answers from
// what it holds.
func warnPartialText(c *cli.Context, db *index.DB, q index.Query) {
	if q.Text == "" {
		return
	}
	cov, err := db.TextCoverage(c.Context)
	if err != nil || !cov.Partial() {
		return // a text index that cannot be read is the search's error
	}
	fmt.Fprintf(c.App.ErrWriter, "plateau: warning: %s: the text query may miss games (%s)\n", cov, index.TextAdvice)
}

// treeNames are the opening names of a tree's position (here) and of the
// position after each of its moves (by index; none when no move leads to
// a named position).
func treeNames(c *cli.Context, db *index.DB, game string, pos rules.Position, moves []index.TreeMove) (string, map[int]string, error) {
	ps := []rules.Position{pos}
	idx := []int{-1}
	for i, m := range moves {
		mv, err := pos.ParseMove(m.Move)
		if err != nil {
			continue // a move the tree stores is the rules' own: it parses
		}
		next := pos.Clone()
		next.Play(mv)
		ps, idx = append(ps, next), append(idx, i)
	}
	found, err := db.PositionNames(c.Context, game, ps)
	if err != nil {
		return "", nil, err
	}
	names := map[int]string{}
	for k, name := range found {
		if idx[k] >= 0 {
			names[idx[k]] = name
		}
	}
	return found[0], names, nil
}
