package web

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode"

	"github.com/plateau/plateau/rules"
	"golang.org/x/text/unicode/norm"
)

// ErrUnsupported is returned by a source asked for what it cannot do.
var ErrUnsupported = errors.New("not supported by this source")

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
	// Notice says why the page may lack games: a text query answered
	// from a text index that lacks some (index.TextCoverage).
	Notice string `json:"notice,omitempty"`
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
	game, err := gameFilter(q.Game)
	if err != nil {
		return ListPage{}, err
	}
	words := strings.Fields(Fold(q.Text))
	page := ListPage{Games: []Summary{}, Rulesets: []string{}, Offset: max(q.Offset, 0)}
	limit := q.PageLimit()
	for _, sum := range s.c.Summaries() {
		if sum.Game != "" && !slices.Contains(page.Rulesets, sum.Game) {
			page.Rulesets = append(page.Rulesets, sum.Game)
		}
		if !sum.matches(words, game, q.Valid) {
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

// gameFilter is the ruleset id a game filter names (by id or alias), or
// an error when it names none: a filter that cannot match is a mistake
// to say, not an empty list.
func gameFilter(game string) (string, error) {
	if game == "" {
		return "", nil
	}
	g, err := rules.Lookup(game)
	if err != nil {
		return "", BadQuery(fmt.Errorf("game %q: %w (plateau games lists them)", game, err))
	}
	return g.ID(), nil
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
