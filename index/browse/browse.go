// Package browse serves a Plateau database to the web page of
// `plateau serve` (replay/web): the game list is a database search and a
// game is its stored record, replayed for every position.
//
// Decisions: a game's number in the page is its database id. The list's
// words are a text-index query (players, event, site, annotator, comments;
// index.Query.Text), not the substring filter of a file collection. Valid
// games are listed unless the page asks for invalid ones: a database search
// selects one or the other, and a collection of millions would be no easier
// to read with both. Records come back in canonical form, so the file and
// line of the page are the database's, not those of the imported file.
package browse

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/plateau/plateau/index"
	"github.com/plateau/plateau/record"
	"github.com/plateau/plateau/replay"
	"github.com/plateau/plateau/replay/web"
	"github.com/plateau/plateau/rules"
)

// Source is a database as a web.Source.
type Source struct {
	db     *index.DB
	opts   replay.Options
	counts counts
}

// New returns the source of db; records are replayed with opts. The
// counts of the list (rulesets, totals) are made apart from any request
// and cached (counts.go).
func New(db *index.DB, opts replay.Options) *Source {
	return &Source{db: db, opts: opts, counts: counts{db: db}}
}

var _ web.Source = (*Source)(nil)

// List is a page of the database's games, in id order.
func (s *Source) List(ctx context.Context, q web.ListQuery) (web.ListPage, error) {
	games, err := s.counts.get(ctx)
	if err != nil {
		return web.ListPage{}, err
	}
	rulesets := make([]string, 0, len(games))
	for _, c := range games {
		rulesets = append(rulesets, c.Game)
	}
	// Without words the total is the cached count of the ruleset.
	counted := q.Text == ""
	res, err := s.db.Search(ctx, index.Query{
		Game: q.Game, Text: q.Text, Invalid: q.Valid == "invalid",
		Offset: max(q.Offset, 0), Limit: q.PageLimit(), Count: !counted,
	})
	if errors.Is(err, index.ErrQuery) {
		return web.ListPage{}, web.BadQuery(err)
	}
	if err != nil {
		return web.ListPage{}, err
	}
	if counted {
		game := q.Game
		if g, err := rules.Lookup(game); err == nil {
			game = g.ID()
		}
		res.Total = total(games, game, q.Valid == "invalid")
	}
	page := web.ListPage{Games: make([]web.Summary, 0, len(res.Hits)), Total: res.Total, Offset: max(q.Offset, 0), Rulesets: rulesets}
	ids := make([]int64, len(res.Hits))
	for i, h := range res.Hits {
		ids[i] = h.ID
	}
	warns, err := s.db.GameWarnings(ctx, ids)
	if err != nil {
		return web.ListPage{}, err
	}
	for _, h := range res.Hits {
		sum := web.Summary{
			Warnings: strings.Join(warns[h.ID], "; "),
			N:        int(h.ID), File: "database", Index: int(h.ID), Game: h.Game, Players: h.Players,
			Event: h.Event, Site: h.Site, Date: h.Date, Result: h.Result, Plies: h.Plies, Valid: q.Valid != "invalid",
		}
		if g, err := rules.Lookup(h.Game); err == nil {
			sum.GameName, sum.Sides = g.Name(), g.Sides()
		}
		page.Games = append(page.Games, sum)
	}
	return page, nil
}

// Detail replays the stored record of game n.
func (s *Source) Detail(ctx context.Context, n int) (*web.Detail, error) {
	text, err := s.db.Text(ctx, int64(n))
	if errors.Is(err, index.ErrNotFound) {
		return nil, fmt.Errorf("game %d: %w", n, web.ErrNoGame)
	}
	if err != nil {
		return nil, err
	}
	rec, err := record.NewReader(bytes.NewReader(text), "database").Next()
	if err != nil && rec == nil {
		return nil, fmt.Errorf("game %d: stored record unreadable: %w", n, err)
	}
	sum := web.Summarize(rec, s.opts, n, "database", n)
	if err != nil {
		sum.Valid, sum.Error = false, err.Error()
	}
	return web.NewDetail(sum, rec, s.opts), nil
}
