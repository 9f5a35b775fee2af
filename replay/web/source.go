package web

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// ListQuery selects a page of the game list.
type ListQuery struct {
	// Text: words that must all occur (case and accents folded) in the
	// players, event, site, date, round, game or file of a game; a
	// database source may read it as a text-index query instead.
	Text  string
	Game  string // ruleset id; "" for all
	Valid string // "valid", "invalid", or "" for both
	// Offset and Limit select the page; Limit <= 0 means DefaultLimit.
	Offset, Limit int
	// After and Before, a database's, are the cursors of the game before
	// the page (ListPage.Next of the page before) or after it (Prev of the
	// page after): the page is then read from there, whatever its depth,
	// and Offset is ignored. A source that has no cursors reads Offset.
	After, Before string

	// The criteria below are a database's (a Collection answers
	// ErrUnsupported when one is set).
	Player           string // either side's player (fuzzy, as search --player)
	Event, Site      string // substrings
	DateFrom, DateTo string // date bounds; a prefix ("2026") covers the year
	Result           string // exact Result value
	// Position is a position in the ruleset Game's notation, or moves from
	// its start: the games reaching it (main lines and variations), each
	// occurrence a line with the ply it occurs at (Summary.MatchPly).
	Position string
	// Pattern is a pattern in the syntax of search --pattern.
	Pattern string
	// Sort is the column the list is ordered by (see index.ListOptions:
	// id, game, white, black, result, event, site, date, plies); Desc
	// reverses it. A position or pattern list is in game and ply order.
	Sort string
	Desc bool
}

// ErrUnsupported is returned by a source asked for what it cannot do.
var ErrUnsupported = errors.New("not supported by this source")

// advanced reports whether q sets a criterion only a database answers.
func (q *ListQuery) advanced() bool {
	return q.Player != "" || q.Event != "" || q.Site != "" || q.DateFrom != "" || q.DateTo != "" ||
		q.Result != "" || q.Position != "" || q.Pattern != "" || (q.Sort != "" && q.Sort != "id") || q.Desc
}

// DefaultLimit and MaxLimit bound a page of the game list.
const (
	DefaultLimit = 500
	MaxLimit     = 5000
)

// PageLimit is the number of games a page of q holds at most: Limit,
// bounded by DefaultLimit (when not set) and MaxLimit.
func (q *ListQuery) PageLimit() int {
	switch {
	case q.Limit <= 0:
		return DefaultLimit
	case q.Limit > MaxLimit:
		return MaxLimit
	}
	return q.Limit
}

// ListPage is a page of the game list.
type ListPage struct {
	Games  []Summary `json:"games"`
	Total  int       `json:"total"`          // games matching the query; -1 when not counted
	More   bool      `json:"more,omitempty"` // Total is a lower bound: there are more
	Offset int       `json:"offset"`         // of the first game of the page
	// Next and Prev are the cursors of the page's last and first games
	// (ListQuery.After and Before), when there may be a page after or
	// before it; a source without cursors leaves them empty.
	Next     string   `json:"next,omitempty"`
	Prev     string   `json:"prev,omitempty"`
	Rulesets []string `json:"rulesets"` // every ruleset of the source, for the game filter
}

// A Source is what the server browses: a Collection of record files, or a
// database (package index/browse).
type Source interface {
	List(ctx context.Context, q ListQuery) (ListPage, error)
	// Detail returns game n of the list (Summary.N), or ErrNoGame.
	Detail(ctx context.Context, n int) (*Detail, error)
}

// Source is the collection as a Source.
func (c *Collection) Source() Source { return collectionSource{c} }

type collectionSource struct{ c *Collection }

func (s collectionSource) Detail(_ context.Context, n int) (*Detail, error) { return s.c.Detail(n) }

func (s collectionSource) List(_ context.Context, q ListQuery) (ListPage, error) {
	if q.advanced() {
		return ListPage{}, fmt.Errorf("a file collection filters by words, game and validity only: %w", ErrUnsupported)
	}
	words := strings.Fields(Fold(q.Text))
	page := ListPage{Games: []Summary{}, Rulesets: []string{}, Offset: max(q.Offset, 0)}
	limit := q.PageLimit()
	for _, sum := range s.c.Summaries() {
		if sum.Game != "" && !slices.Contains(page.Rulesets, sum.Game) {
			page.Rulesets = append(page.Rulesets, sum.Game)
		}
		if !sum.matches(words, q.Game, q.Valid) {
			continue
		}
		if page.Total >= page.Offset && len(page.Games) < limit {
			page.Games = append(page.Games, sum)
		}
		page.Total++
	}
	slices.Sort(page.Rulesets)
	return page, nil
}

func (s *Summary) matches(words []string, game, valid string) bool {
	if game != "" && s.Game != game {
		return false
	}
	if (valid == "valid" && !s.Valid) || (valid == "invalid" && s.Valid) {
		return false
	}
	if len(words) == 0 {
		return true
	}
	hay := Fold(strings.Join([]string{s.Players[0], s.Players[1], s.Event, s.Site, s.Date, s.Round, s.Game, s.File}, " | "))
	for _, w := range words {
		if !strings.Contains(hay, w) {
			return false
		}
	}
	return true
}

// Fold folds case and accents, as the page's filter does: "Inès" → "ines".
func Fold(s string) string {
	var b strings.Builder
	for _, r := range norm.NFD.String(s) {
		if unicode.Is(unicode.Mn, r) {
			continue
		}
		b.WriteRune(unicode.ToLower(r))
	}
	return b.String()
}
