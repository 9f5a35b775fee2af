// Package browse serves a Plateau database to the web page of
// `plateau serve` (replay/web): the game list is a database search and a
// game is its stored record, replayed for every position.
//
// Decisions: a game's number in the page is its database id. The list's
// words are a text-index query (players, event, site, annotator, comments;
// index.Query.Text), not the substring filter of a file collection. The
// validity filter is valid, invalid or both (ListQuery.Valid ""); a
// position or pattern search looks at valid games unless asked for invalid
// ones. A page's round and Elo columns are read from the stored records
// (the games table has no column for them). Counts are cached by the
// database while it does not grow; a position's occurrences are counted up
// to maxPositionCount (1,000), and a pattern list is not counted (a pattern count
// scans every candidate game). Records come back in canonical form, so the
// file and line of the page are the database's, not those of the imported
// file.
package browse

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

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
	trees  *lru[treeKey, []byte] // explore.go
	pages  *lru[web.ListQuery, []byte]
	found  *lru[web.ListQuery, []byte] // pages of a position or pattern search
	// indexes are the page indexes of lists (seek.go); indexing holds a
	// token while one is being made.
	indexes  *lru[web.ListQuery, *pageIndex]
	indexing chan struct{}
	// every and from are indexEvery and indexFrom (tests make them small).
	every, from int
	last        lastVersion
	people      peopleCache  // people.go
	edits       atomic.Int64 // writes made through the source (edit.go)
}

// gen is the generation of the caches: the database's version (which a
// save, an add or a delete changes, index.DB.Version) and the writes made
// through the source, so that a game saved through the source is not
// served from a cache made before, even within lastVersionTTL.
func (s *Source) gen(ctx context.Context) (int64, error) {
	last, err := s.version(ctx)
	return last + s.edits.Load()<<40, err
}

// lastVersion keeps the database's version (index.DB.Version: it changes
// with every commit by any process: an import's, a save, an add, a delete,
// a reindex's), which every request
// reads to know whether its caches still hold (a query of its own, a
// visible share of a loaded server's work: docs/queries.md), for
// lastVersionTTL: a game imported or saved meanwhile shows up that much
// later. A database being filled by the server itself (Load) is read
// every time.
type lastVersion struct {
	mu   sync.Mutex
	ttl  time.Duration
	at   time.Time
	last int64
}

const lastVersionTTL = 250 * time.Millisecond

// version is the database's version, read at most every lastVersionTTL.
func (s *Source) version(ctx context.Context) (int64, error) {
	s.last.mu.Lock()
	if s.last.ttl > 0 && time.Since(s.last.at) < s.last.ttl {
		defer s.last.mu.Unlock()
		return s.last.last, nil
	}
	s.last.mu.Unlock()
	last, err := s.db.Version(ctx)
	if err != nil {
		return 0, err
	}
	s.last.mu.Lock()
	s.last.at, s.last.last = time.Now(), last
	s.last.mu.Unlock()
	return last, nil
}

// New returns the source of db; records are replayed with opts. The
// counts of the list (rulesets, totals) are made apart from any request
// and cached (counts.go).
func New(db *index.DB, opts replay.Options) *Source {
	return &Source{db: db, opts: opts, counts: counts{db: db},
		trees: newLRU[treeKey, []byte](maxTrees), pages: newLRU[web.ListQuery, []byte](maxPages),
		found: newLRU[web.ListQuery, []byte](maxFound), indexes: newLRU[web.ListQuery, *pageIndex](maxIndexes),
		indexing: make(chan struct{}, 1), every: indexEvery, from: indexFrom, last: lastVersion{ttl: lastVersionTTL}}
}

var (
	_ web.Source      = (*Source)(nil)
	_ web.JSONLister  = (*Source)(nil)
	_ web.JSONTreeMap = (*Source)(nil)
	_ web.Noticer     = (*Source)(nil)
)

// List is a page of the database's games: by default in id order; a
// position or pattern list in game and ply order, a line per occurrence.
// Pages are cached while the database does not grow (see lru), as JSON
// (ListJSON).
func (s *Source) List(ctx context.Context, q web.ListQuery) (web.ListPage, error) {
	b, err := s.ListJSON(ctx, q)
	if err != nil {
		return web.ListPage{}, err
	}
	var p web.ListPage
	err = json.Unmarshal(b, &p)
	return p, err
}

// ListJSON is List's page as the server writes it: a cached page is
// served as it was encoded.
func (s *Source) ListJSON(ctx context.Context, q web.ListQuery) ([]byte, error) {
	iq, err := s.query(q)
	if err != nil {
		return nil, err
	}
	version, err := s.version(ctx)
	if err != nil {
		return nil, err
	}
	last := version + s.edits.Load()<<40 // s.gen
	cache, key := s.pages, q
	if iq.Position != nil || iq.Pattern != nil {
		cache = s.found
		key.Criteria = positionKey(q.Criteria, iq.Position)
	}
	if b, ok := cache.get(key, last); ok {
		return b, nil
	}
	p, counted, err := s.list(ctx, q, iq)
	if err != nil {
		return nil, err
	}
	b, err := encode(p)
	// A page made with counts (its rulesets, its total) of an earlier
	// version, while they are counted again, is not kept: it would
	// outlive them.
	if err == nil && len(p.Games) <= maxCachedPage && counted == version {
		cache.put(key, last, b)
	}
	return b, err
}

// positionKey is criteria with its position, however written (a
// transposition's move number, moves from the start), as its key: one
// cached page for a position.
func positionKey(criteria string, pos rules.Position) string {
	v, err := url.ParseQuery(criteria)
	if err != nil || pos == nil {
		return criteria
	}
	v.Del("fen")
	v.Del("moves")
	v.Set("position", fmt.Sprintf("key %x", pos.Key()))
	return v.Encode()
}

// encode writes v as the server does (web.writeJSON: a line of JSON).
func encode(v any) ([]byte, error) {
	b, err := json.Marshal(v)
	return append(b, '\n'), err
}

// The caches of pages: the first pages of a list and the games of the
// positions every reader passes through (the first moves) are asked for
// again and again. They keep the pages' JSON (encoding a page of 100
// games is most of the work of serving it from the cache), some 400
// bytes a game; the page asks for 100 games of a list, 10 of a position.
const (
	maxPages      = 256  // pages of a game list: 256 × 100 games, some 10 MB
	maxFound      = 4096 // pages of a position's or pattern's games: 4096 × 10 games, some 16 MB
	maxCachedPage = 200
)

// list reads the page of q, whose database query is iq (query); counted
// is the database version of the counts it took.
func (s *Source) list(ctx context.Context, q web.ListQuery, iq index.Query) (page web.ListPage, counted int64, err error) {
	games, counted, err := s.counts.get(ctx)
	if err != nil {
		return web.ListPage{}, 0, err
	}
	rulesets := make([]string, 0, len(games))
	for _, c := range games {
		rulesets = append(rulesets, c.Game)
	}
	page = web.ListPage{Games: []web.Summary{}, Offset: iq.Offset, Rulesets: rulesets}
	var hits []index.ListHit
	if iq.Position != nil || iq.Pattern != nil {
		hits, err = s.searched(ctx, iq, &page)
	} else {
		hits, err = s.listed(ctx, q, iq, games, &page)
	}
	if err != nil {
		return page, counted, err
	}
	page.Games, err = s.summaries(ctx, hits, !q.Brief)
	if err == nil && iq.Text != "" {
		page.Notice = s.Notice(ctx)
	}
	return page, counted, err
}

// Notice says that the text index lacks games or edits
// (index.TextCoverage), "" when it does not or cannot be read (a text
// query then fails with its error).
func (s *Source) Notice(ctx context.Context) string {
	cov, err := s.db.TextCoverage(ctx)
	if err != nil || !cov.Partial() {
		return ""
	}
	return cov.String() + ": text queries may miss games (" + index.TextAdvice + ")"
}

// searched reads the hits of a position or pattern list and counts them
// into page: a pattern list is not counted (it tells whether there is a
// next page), a position's occurrences up to maxPositionCount.
func (s *Source) searched(ctx context.Context, iq index.Query, page *web.ListPage) ([]index.ListHit, error) {
	if iq.Pattern != nil {
		iq.Limit++ // one more tells whether there is a next page
	}
	res, err := s.db.Search(ctx, iq)
	if err != nil {
		return nil, badQuery(err)
	}
	var hits []index.ListHit
	for _, h := range res.Hits {
		hits = append(hits, index.ListHit{Hit: h, Valid: !iq.Invalid})
	}
	switch {
	case iq.Pattern != nil:
		// A pattern count scans every candidate game: not counted.
		page.Total = -1
		if len(hits) == iq.Limit {
			hits, page.More = hits[:len(hits)-1], true
		}
	case len(hits) < iq.Limit && (len(hits) > 0 || iq.Offset == 0):
		// The last page: the count is known without counting (the page
		// of most positions, which few games reach).
		page.Total = iq.Offset + len(hits)
	default:
		page.Total, page.More, err = s.db.PositionCount(ctx, iq, maxPositionCount)
	}
	return hits, err
}

// listed reads a page of the game list (from its cursor or offset), sets
// page's cursors and counts the list (with the cached counts of games when
// it is filtered by ruleset and validity alone).
func (s *Source) listed(ctx context.Context, q web.ListQuery, iq index.Query, games []index.GameCount, page *web.ListPage) ([]index.ListHit, error) {
	o := index.ListOptions{Sort: q.Sort, Desc: q.Desc, AnyValidity: q.Valid == ""}
	if err := s.seek(ctx, q, &iq, &o); err != nil {
		return nil, err
	}
	want := iq.Limit
	iq.Limit++ // one more tells whether there is a page after (before)
	hits, cursors, err := s.db.List(ctx, iq, o)
	if err != nil {
		return nil, badQuery(err)
	}
	more, back := len(hits) > want, o.Before != nil
	switch {
	case more && back:
		hits, cursors = hits[1:], cursors[1:]
	case more:
		hits, cursors = hits[:want], cursors[:want]
	}
	if n := len(cursors); n > 0 {
		if (back && more) || (!back && (iq.Offset > 0 || o.After != nil)) {
			page.Prev = cursors[0].String()
		}
		if back || more {
			page.Next = cursors[n-1].String()
		}
	}
	if !plain(q) {
		page.Total, err = s.db.Count(ctx, iq, o)
		return hits, err
	}
	// Filtered by ruleset and validity alone: the cached counts.
	game := q.Game
	if g, err := rules.Lookup(game); err == nil {
		game = g.ID()
	}
	switch q.Valid {
	case "":
		page.Total = total(games, game, false) + total(games, game, true)
	default:
		page.Total = total(games, game, q.Valid == "invalid")
	}
	return hits, nil
}

// summaries are the list lines of hits, with their warnings and errors,
// and with heads their round and Elo, read from the records (a page of
// games from all over the database decodes a text block for each).
func (s *Source) summaries(ctx context.Context, hits []index.ListHit, heads bool) ([]web.Summary, error) {
	ids := make([]int64, len(hits))
	for i, h := range hits {
		ids[i] = h.ID
	}
	var tags map[int64]map[string]string
	var err error
	if heads {
		if tags, err = s.db.Headers(ctx, ids, headerTags...); err != nil {
			return nil, err
		}
	}
	warns, err := s.db.GameWarnings(ctx, ids)
	if err != nil {
		return nil, err
	}
	errs, err := s.db.GameErrors(ctx, ids)
	if err != nil {
		return nil, err
	}
	names, err := s.db.GameOpenings(ctx, ids)
	if err != nil {
		return nil, err
	}
	out := make([]web.Summary, 0, len(hits))
	for _, h := range hits {
		sum := web.Summary{
			Warnings: strings.Join(warns[h.ID], "; "),
			N:        int(h.ID), File: "database", Index: int(h.ID), Game: h.Game, Players: h.Players,
			Event: h.Event, Site: h.Site, Date: h.Date, Result: h.Result, Plies: h.Plies, Valid: h.Valid,
		}
		setOpening(&sum, names[h.ID])
		if e, ok := errs[h.ID]; ok {
			sum.Valid, sum.Error, sum.ErrorLine = false, e.Err, e.Line
		}
		head := tags[h.ID]
		sum.Round = head["Round"]
		sum.SetOwnOpening(func(name string) string { return head[name] })
		if g, err := rules.Lookup(h.Game); err == nil {
			sum.GameName, sum.Sides = g.Name(), g.Sides()
			for i, side := range sum.Sides {
				sum.Elo[i] = head[side+"Elo"]
			}
		}
		if h.Ply >= 0 {
			ply := h.Ply
			sum.MatchPly, sum.Variation = &ply, h.Variation
		}
		out = append(out, sum)
	}
	return out, nil
}

// plain reports whether q filters by ruleset and validity alone.
func plain(q web.ListQuery) bool {
	return q.Text == "" && q.Criteria == ""
}

// maxPositionCount bounds the count of a position's occurrences: the page
// says "1000+" beyond. Decision, as the lichess explorer and ChessBase's
// tree do: the number of games of a popular position is the opening
// tree's (its total, from the aggregate, shown above the list: "12 moves,
// 1,000,000 games"), while the list of the games reaching it is paged, not
// counted to the end. Counting a position's occurrences visits each (the
// start position occurs in every game), so a count stops at 1,000 — a
// figure that still tells a rare position from a common one, at the cost
// of a short list page (docs/queries.md).
const maxPositionCount = 1000

// headerTags are the tags a list line reads from the stored record: the
// round, the record's own opening tags (web.Summary.SetOwnOpening) and
// every ruleset's Elo tags.
var headerTags = func() []string {
	names := []string{"Round", "Opening", "Variation", "ECO"}
	for _, g := range rules.Games() {
		for _, side := range g.Sides() {
			if !slices.Contains(names, side+"Elo") {
				names = append(names, side+"Elo")
			}
		}
	}
	return names
}()

// query turns a list query into a database query: its criteria are the
// database's (index.ParseQuery), with the list's words as the text query
// and its game. The validity is the list's Valid: both (""), a list reads
// the valid and invalid games (ListOptions.AnyValidity), a position or
// pattern list the valid ones, the only ones whose positions are indexed
// to the end.
func (s *Source) query(q web.ListQuery) (index.Query, error) {
	v, err := url.ParseQuery(q.Criteria)
	if err != nil {
		return index.Query{}, web.BadQuery(fmt.Errorf("criteria: %w", err))
	}
	if v.Has("invalid") {
		return index.Query{}, web.BadQuery(errors.New("invalid: a list's validity is its parameter valid (valid, invalid or both)"))
	}
	for name, value := range map[string]string{"text": q.Text, "game": q.Game} {
		if value == "" {
			continue
		}
		if v.Has(name) {
			return index.Query{}, web.BadQuery(fmt.Errorf("%s: given twice (the list's words are its text query)", name))
		}
		v.Set(name, value)
	}
	iq, err := index.ParseQuery(v)
	if err != nil {
		return iq, badQuery(err)
	}
	iq.Invalid = q.Valid == "invalid"
	iq.Offset, iq.Limit = max(q.Offset, 0), q.PageLimit()
	return iq, nil
}

// badQuery marks the database's query errors as the request's.
func badQuery(err error) error {
	if errors.Is(err, index.ErrQuery) {
		return web.BadQuery(err)
	}
	return err
}

// Detail replays the stored record of game n.
func (s *Source) Detail(ctx context.Context, n int) (*web.Detail, error) {
	var rec *record.Game
	var rerr error
	err := s.db.WithText(ctx, int64(n), func(text []byte) error {
		// The record is read here: text is not kept.
		rec, rerr = record.NewReader(bytes.NewReader(text), "database").Next()
		return nil
	})
	if errors.Is(err, index.ErrNotFound) {
		return nil, fmt.Errorf("game %d: %w", n, web.ErrNoGame)
	}
	if err != nil {
		return nil, err
	}
	err = rerr
	if err != nil && rec == nil {
		return nil, fmt.Errorf("game %d: stored record unreadable: %w", n, err)
	}
	d := web.DetailOf(rec, s.opts, n, "database", n)
	if err != nil {
		d.Valid, d.Error = false, err.Error()
	}
	names, err := s.db.GameOpenings(ctx, []int64{int64(n)})
	if err != nil {
		return nil, err
	}
	setOpening(&d.Summary, names[int64(n)])
	d.SetOwnOpening(rec.Tag)
	return d, nil
}
