package bench

import (
	"context"
	"fmt"

	"github.com/plateau/plateau/index"
	"github.com/plateau/plateau/rules"
)

// criteriaTrees measures the first tree of each of players' games as one
// side (firsts, the start position) narrowed by one more criterion, and
// by all of them: the opponent of their last game, the event of their
// last game, a rating band, a result.
func criteriaTrees(ctx context.Context, rep *Report, db *index.DB, game string, start rules.Position, firsts []filteredQuery, note string, tree func(filteredQuery) error) error {
	var opp, event, elo, result, all []filteredQuery
	for _, f := range firsts {
		side := 0
		if f.q.Players[0] == "" {
			side = 1
		}
		name := f.q.Players[side]
		res, err := db.Search(ctx, index.Query{Game: game, Players: f.q.Players, Limit: 1})
		if err != nil {
			return err
		}
		if len(res.Hits) == 0 {
			continue
		}
		h := res.Hits[0]
		opp = append(opp, filteredQuery{start, index.Query{Player: name, Opponent: h.Players[1-side]}})
		q := f.q
		q.Event = h.Event
		event = append(event, filteredQuery{start, q})
		q = f.q
		q.MinElo, q.MaxElo = 1800, 2200
		elo = append(elo, filteredQuery{start, q})
		q = f.q
		q.Result = "1-0"
		result = append(result, filteredQuery{start, q})
		q.Event, q.MinElo, q.MaxElo = h.Event, 1800, 2400
		all = append(all, filteredQuery{start, q})
	}
	for _, c := range []struct {
		name, what string
		qs         []filteredQuery
	}{
		{"with an opponent", "--player P --opponent O, O of P's last game", opp},
		{"in an event", "--event E, E of the player's last game", event},
		{"in a rating band", "--min-elo 1800 --max-elo 2200", elo},
		{"with a result", "--result 1-0", result},
		{"with every criterion", "--event E --min-elo 1800 --max-elo 2400 --result 1-0", all},
	} {
		err := latency(rep, fmt.Sprintf("opening tree, a player as one side %s (first tree)", c.name), note+"; "+c.what+", at the start, each once", c.qs, tree)
		if err != nil {
			return err
		}
	}
	return nil
}
