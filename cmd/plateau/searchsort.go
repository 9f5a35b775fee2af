package main

import (
	"fmt"

	"github.com/plateau/plateau/index"
	"github.com/urfave/cli/v2"
)

// sortFlags are search's order flags: the game list's sort columns
// (index.ListOptions.Sort), as the web page's list sorts.
func sortFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "sort", Usage: "list in the order of: id (default), game, white (the first side's player), black (the second's), result, event, site, date, plies, opening (by name, case and accents aside; games without an opening last); not with a position or pattern"},
		&cli.BoolFlag{Name: "desc", Usage: "with --sort: in descending order"},
	}
}

// sorted reports whether search is asked for an order of its own.
func sorted(c *cli.Context) bool { return c.IsSet("sort") || c.Bool("desc") }

// sortedSearch is the page of q's games in the order of --sort and --desc
// (index.DB.List), counted when q asks. A position or pattern search is in
// game and ply order: asking it for another order is a usage error, and so
// is an export (pdn, json: in id order).
func sortedSearch(c *cli.Context, db *index.DB, q index.Query) (index.Result, error) {
	if q.Position != nil || q.Pattern != nil {
		return index.Result{}, cli.Exit("--sort: a position or pattern search lists its games in game and ply order", exitUsage)
	}
	if f := c.String("format"); f != "table" && f != "ids" {
		return index.Result{}, cli.Exit(fmt.Sprintf("--sort: --format %s writes the games in id order (--sort is for table and ids)", f), exitUsage)
	}
	o := index.ListOptions{Sort: c.String("sort"), Desc: c.Bool("desc")}
	hits, _, err := db.List(c.Context, q, o)
	if err != nil {
		return index.Result{}, exitErr(err)
	}
	res := index.Result{Total: -1}
	for _, h := range hits {
		res.Hits = append(res.Hits, h.Hit)
	}
	if q.Count {
		if res.Total, err = db.Count(c.Context, q, o); err != nil {
			return res, exitErr(err)
		}
	}
	return res, nil
}
