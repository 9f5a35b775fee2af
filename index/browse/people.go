package browse

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/plateau/plateau/index"
	"github.com/plateau/plateau/replay/web"
)

var _ web.People = (*Source)(nil)

// peopleCache keeps players' pages, crosstables and the statistics as
// JSON while the database does not grow: the statistics read the whole
// games table, a crosstable every game of its selection.
type peopleCache struct {
	once sync.Once
	lru  *lru[string, []byte]
}

// maxPeople bounds the answers kept.
const maxPeople = 256

// cached answers key from the cache, or makes it.
func (s *Source) cached(ctx context.Context, key string, make func() (any, error)) ([]byte, error) {
	s.people.once.Do(func() { s.people.lru = newLRU[string, []byte](maxPeople) })
	last, err := s.gen(ctx)
	if err != nil {
		return nil, err
	}
	if b, ok := s.people.lru.get(key, last); ok {
		return b, nil
	}
	v, err := make()
	if err != nil {
		return nil, err
	}
	b, err := encode(v)
	if err != nil {
		return nil, err
	}
	s.people.lru.put(key, last, b)
	return b, nil
}

// PlayerJSON is the page of the player name over the games dated from
// to to (index.DB.Player; empty: no bound).
func (s *Source) PlayerJSON(ctx context.Context, name, from, to string) ([]byte, error) {
	return s.cached(ctx, "player\x00"+name+"\x00"+from+"\x00"+to, func() (any, error) {
		p, err := s.db.Player(ctx, name, index.Period{From: from, To: to})
		if errors.Is(err, index.ErrNotFound) {
			return nil, fmt.Errorf("%w: %w", web.ErrNoPlayer, err)
		}
		return p, err
	})
}

// StatsJSON is the database's statistics (index.DB.Overview).
func (s *Source) StatsJSON(ctx context.Context) ([]byte, error) {
	return s.cached(ctx, "stats", func() (any, error) { return s.db.Overview(ctx) })
}

// PlayedJSON is the most played named openings of the games of the list
// q (its criteria and game; valid games only), by ruleset
// (index.DB.PlayedOpenings).
func (s *Source) PlayedJSON(ctx context.Context, q web.ListQuery) ([]byte, error) {
	iq, err := s.query(q)
	if err != nil {
		return nil, err
	}
	key := fmt.Sprintf("played\x00%s\x00%s\x00%s", q.Criteria, q.Game, q.Text)
	return s.cached(ctx, key, func() (any, error) {
		named, err := s.db.PlayedOpenings(ctx, iq)
		if err != nil {
			return nil, badQuery(err)
		}
		return named, nil
	})
}

// CrosstableJSON is a page of the crosstable of the games of the list q
// (its criteria and game; valid games only), q.PageLimit players from
// q.Offset, each against the players of the page (the cells of the page
// only: a table of thousands of players is millions of cells).
func (s *Source) CrosstableJSON(ctx context.Context, q web.ListQuery) ([]byte, error) {
	iq, err := s.query(q)
	if err != nil {
		return nil, err
	}
	iq.Invalid = false
	key := fmt.Sprintf("cross\x00%s\x00%s\x00%s\x00%d\x00%d", q.Criteria, q.Game, q.Text, q.Offset, q.PageLimit())
	return s.cached(ctx, key, func() (any, error) {
		offset := max(q.Offset, 0)
		rows, n, err := s.db.CrosstablePage(ctx, iq, offset, q.PageLimit(), nil)
		if err != nil {
			return nil, badQuery(err)
		}
		t := web.Crosstable{Players: n, Offset: offset, Lines: []web.CrossLine{}}
		for i, r := range rows {
			t.Lines = append(t.Lines, web.CrossLine{Rank: offset + i + 1, Player: r.Player, Games: r.Games,
				Score: r.Norm, Points: r.Score, Against: r.NormAgainst, Met: r.Met})
		}
		return t, nil
	})
}
