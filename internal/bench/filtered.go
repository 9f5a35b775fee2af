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
// games as one side (their repertoire) at the start and at the sampled
// openings, and ten-year periods at the start.
func (r *run) filteredTrees(ctx context.Context, db *index.DB, smp *sampler, start rules.Position) error {
	rep := r.rep
	game := rep.Game
	r.logf("filtered opening trees…")
	players, err := treePlayers(ctx, db, game, smp.names, 5)
	if err != nil {
		return err
	}
	type query struct {
		pos rules.Position
		q   index.Query
	}
	tree := func(x query) error {
		_, err := db.FilteredTree(ctx, game, x.pos, x.q)
		return err
	}
	side := func(i int) index.Query {
		p := players[i%len(players)]
		var q index.Query
		q.Players[(i/len(players))%2] = p.name
		return q
	}
	var note string
	var atStart, atOpenings []query
	if len(players) > 0 {
		note = fmt.Sprintf("the %d players of most games up to %s (%s–%s games) as each side", len(players),
			thousands(maxPlayerGames), thousands(players[len(players)-1].games), thousands(players[0].games))
		for i := range 4 * len(players) {
			atStart = append(atStart, query{start, side(i)})
		}
		for i, pos := range smp.openings {
			atOpenings = append(atOpenings, query{pos, side(i)})
		}
	}
	if err := latency(rep, "opening tree, a player as one side (start)", note, atStart, tree); err != nil {
		return err
	}
	if err := latency(rep, "opening tree, a player as one side (ply 1–8)", note+"; the sampled openings", atOpenings, tree); err != nil {
		return err
	}
	var decades []query
	for i := range 20 {
		from := 1975 + (i*7)%41
		decades = append(decades, query{start, index.Query{DateFrom: strconv.Itoa(from), DateTo: strconv.Itoa(from + 9)}})
	}
	return latency(rep, "opening tree, ten years (start)", "--from Y --to Y+9, Y from 1975 to 2015 (the collection's dates: 1975–2025)", decades, tree)
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
