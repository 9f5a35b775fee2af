package web

import (
	"fmt"
	"net/url"
	"strconv"
)

// ListQuery selects a page of the game list.
//
// Decisions: the list's own parameters (listParams) are read here, those
// every source answers (the words, the game, the validity) and those of
// the page (its place, length, order and lines). Every other parameter is
// a database's search criterion, passed on as it came (Criteria): the
// database defines and reads them (index.ParseQuery: player, event, site,
// from, to, result, position, pattern…), so that a criterion is added
// there and in the page's form, not here.
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
	// Sort is the column the list is ordered by (see index.ListOptions:
	// id, game, white, black, result, event, site, date, plies); Desc
	// reverses it. A position or pattern list is in game and ply order.
	Sort string
	Desc bool
	// Brief asks for lines without what a database reads from the records
	// themselves (round, Elo): the page's list of the games of a position,
	// which does not show them, is read at the cost of its index rows.
	Brief bool

	// Criteria are the request's other parameters, URL-encoded in the
	// order of their names (url.Values.Encode): a database's search
	// criteria. A Collection answers ErrUnsupported when there are any.
	Criteria string
}

// listParams are the parameters ListQueryOf reads itself.
var listParams = map[string]bool{
	"q": true, "game": true, "valid": true, "offset": true, "limit": true,
	"after": true, "before": true, "sort": true, "desc": true, "brief": true,
}

// advanced reports whether q sets a criterion or an order only a
// database answers.
func (q *ListQuery) advanced() bool {
	return q.Criteria != "" || (q.Sort != "" && q.Sort != "id") || q.Desc
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

// ListQueryOf reads a list query from the parameters of /api/games: its
// own, each given at most once, and the others as its Criteria. An error
// names the parameter.
func ListQueryOf(v url.Values) (ListQuery, error) {
	rest := url.Values{}
	for name, values := range v {
		switch {
		case !listParams[name]:
			rest[name] = values
		case len(values) > 1:
			return ListQuery{}, fmt.Errorf("%s: given %d times", name, len(values))
		}
	}
	q := ListQuery{
		Text: v.Get("q"), Game: v.Get("game"), Valid: v.Get("valid"), Sort: v.Get("sort"),
		After: v.Get("after"), Before: v.Get("before"), Criteria: rest.Encode(),
	}
	if q.After != "" && q.Before != "" {
		return q, fmt.Errorf("after and before: one cursor at a time")
	}
	for name, dst := range map[string]*int{"offset": &q.Offset, "limit": &q.Limit} {
		if s := v.Get(name); s != "" {
			n, err := strconv.Atoi(s)
			if err != nil || n < 0 {
				return q, fmt.Errorf("%s: a number ≥ 0 expected, not %q", name, s)
			}
			*dst = n
		}
	}
	for name, dst := range map[string]*bool{"desc": &q.Desc, "brief": &q.Brief} {
		switch s := v.Get(name); s {
		case "", "0":
		case "1":
			*dst = true
		default:
			return q, fmt.Errorf("%s: 1 or 0 expected, not %q", name, s)
		}
	}
	switch q.Valid {
	case "", "valid", "invalid":
	case "both", "all":
		q.Valid = ""
	default:
		return q, fmt.Errorf("valid: valid, invalid or both expected, not %q", q.Valid)
	}
	return q, nil
}
