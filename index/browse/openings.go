package browse

import (
	"context"
	"fmt"
	"strings"

	"github.com/plateau/plateau/index"
	"github.com/plateau/plateau/replay/web"
	"github.com/plateau/plateau/rules"
)

var _ web.OpeningLister = (*Source)(nil)

// nameMoves sets the name of the position each move of a tree of pos
// leads to, where it has one.
func (s *Source) nameMoves(ctx context.Context, game string, pos rules.Position, moves []web.TreeMove) error {
	var ps []rules.Position
	var idx []int
	for i, m := range moves {
		mv, err := pos.ParseMove(m.Move)
		if err != nil {
			continue // the tree's moves are the rules' own: they parse
		}
		next := pos.Clone()
		next.Play(mv)
		ps, idx = append(ps, next), append(idx, i)
	}
	names, err := s.db.PositionNames(ctx, game, ps)
	if err != nil {
		return err
	}
	for k, name := range names {
		moves[idx[k]].Opening = name
		moves[idx[k]].OpeningECO, _ = index.SplitOpeningCode(name)
	}
	return nil
}

// Openings lists the named positions of the ruleset game ("": every
// ruleset), or with a position (its notation or moves from the start) the
// name of that one, each with its position in the game's notation (and
// with games its games).
func (s *Source) Openings(ctx context.Context, game, position string, games bool) ([]web.Opening, error) {
	if game != "" {
		g, err := rules.Lookup(game)
		if err != nil {
			return nil, fmt.Errorf("%w: %w", web.ErrBadQuery, err)
		}
		game = g.ID()
	}
	var want *uint64
	if strings.TrimSpace(position) != "" {
		pos, err := index.Position(game, position)
		if err != nil {
			return nil, badQuery(err)
		}
		k := pos.Key()
		want = &k
	}
	list, err := s.db.Openings(ctx, game)
	if err != nil {
		return nil, err
	}
	var counts map[int64]int
	if games {
		if counts, err = s.db.OpeningGames(ctx, game); err != nil {
			return nil, err
		}
	}
	out := []web.Opening{}
	for _, o := range list {
		pos, err := index.PositionAfter(o.Game, o.Moves)
		if err != nil || want != nil && pos.Key() != *want {
			continue // a name of a ruleset this program plays otherwise now
		}
		op := web.Opening{Game: o.Game, Name: o.Name, Ply: o.Ply, Moves: o.Moves, FEN: pos.String()}
		op.ECO, _ = index.SplitOpeningCode(o.Name)
		if counts != nil {
			n := counts[o.ID]
			op.Games = &n
		}
		out = append(out, op)
	}
	return out, nil
}

// setOpening sets s's opening: the listed name that names the game
// ("" when none does) and the ECO-style code it begins with. Before
// s.SetOwnOpening, which gives the record's own tags only without a name.
func setOpening(s *web.Summary, name string) {
	s.Opening = name
	s.OpeningECO, _ = index.SplitOpeningCode(name)
}
