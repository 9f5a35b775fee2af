package bench

import (
	"context"
	"fmt"
	"slices"
	"strconv"

	"github.com/plateau/plateau/index"
	"github.com/plateau/plateau/rules"
)

// maxPlayerGames bounds the games of the players whose trees are measured
// (issue 44: a player's tree of up to 10,000 games).
const maxPlayerGames = 10_000

// treePlayer is a player whose games' tree is measured, with their games.
type treePlayer struct {
	name  string
	games int
}

// filteredTrees measures opening trees of some of the games: a player's
// games as one side (their repertoire), the first tree at the start and
// the next ones down their most played line, then in a period of twenty
// years, and ten-year periods at the start.
func (r *run) filteredTrees(ctx context.Context, db *index.DB, smp *sampler, start rules.Position) error {
	rep := r.rep
	game := rep.Game
	r.logf("filtered opening trees…")
	players, err := treePlayers(ctx, db, game, smp.names, 5)
	if err != nil {
		return err
	}
	tree := func(x filteredQuery) error {
		_, err := db.FilteredTree(ctx, game, x.pos, x.q)
		return err
	}
	var firsts []filteredQuery
	for _, p := range players {
		for side := range 2 {
			var q index.Query
			q.Players[side] = p.name
			firsts = append(firsts, filteredQuery{start, q})
		}
	}
	var note string
	if len(players) > 0 {
		note = fmt.Sprintf("the %d players of most games up to %s (%s–%s games) as each side", len(players),
			thousands(maxPlayerGames), thousands(players[len(players)-1].games), thousands(players[0].games))
	}
	if err := latency(rep, "opening tree, a player as one side (first tree)", note+"; at the start, each once: their games' lines read (player_lines)", firsts, tree); err != nil {
		return err
	}
	var next []filteredQuery
	for _, f := range firsts {
		line, err := mainLine(ctx, db, game, f, 8)
		if err != nil {
			return err
		}
		next = append(next, line...)
	}
	if err := latency(rep, "opening tree, a player as one side (next trees)", note+"; 8 plies down their most played line, after the first tree", next, tree); err != nil {
		return err
	}
	var periods []filteredQuery
	for _, f := range firsts {
		f.q.DateFrom, f.q.DateTo = "1990", "2009"
		periods = append(periods, f)
	}
	if err := latency(rep, "opening tree, a player as one side in twenty years (first tree)", note+"; --from 1990 --to 2009, at the start, each once", periods, tree); err != nil {
		return err
	}
	if err := criteriaTrees(ctx, rep, db, game, start, firsts, note, tree); err != nil {
		return err
	}
	var decades []filteredQuery
	for i := range 20 {
		from := 1975 + (i*7)%41
		decades = append(decades, filteredQuery{start, index.Query{DateFrom: strconv.Itoa(from), DateTo: strconv.Itoa(from + 9)}})
	}
	return latency(rep, "opening tree, ten years (start)", "--from Y --to Y+9, Y from 1975 to 2015 (the collection's dates: 1975–2025)", decades, tree)
}

// filteredQuery is a tree of a position in some of the games.
type filteredQuery struct {
	pos rules.Position
	q   index.Query
}

// mainLine is the trees of the positions of f's most played line after
// f's position, up to plies plies.
func mainLine(ctx context.Context, db *index.DB, game string, f filteredQuery, plies int) ([]filteredQuery, error) {
	var out []filteredQuery
	pos := f.pos.Clone()
	for range plies {
		moves, err := db.FilteredTree(ctx, game, pos, f.q)
		if err != nil || len(moves) == 0 {
			return out, err
		}
		m, err := pos.ParseMove(moves[0].Move)
		if err != nil {
			return out, err
		}
		pos.Play(m)
		out = append(out, filteredQuery{pos.Clone(), f.q})
	}
	return out, nil
}

// treePlayers picks among names the n players of most games (either side,
// as their name matches) up to maxPlayerGames, most games first.
func treePlayers(ctx context.Context, db *index.DB, game string, names []string, n int) ([]treePlayer, error) {
	var out []treePlayer
	seen := map[string]bool{}
	for _, name := range names {
		if seen[name] {
			continue
		}
		seen[name] = true
		res, err := db.Search(ctx, index.Query{Game: game, Player: name, Count: true, Limit: 1})
		if err != nil {
			return nil, err
		}
		if res.Total <= maxPlayerGames {
			out = append(out, treePlayer{name, res.Total})
		}
	}
	slices.SortFunc(out, func(a, b treePlayer) int { return b.games - a.games })
	return out[:min(n, len(out))], nil
}
