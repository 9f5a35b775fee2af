package players

import "github.com/plateau/plateau/index/internal/gamerows"

// Share is what a game of the ruleset game with Result result scores for
// each side on one scale: each side's share of the points the game gave
// (a win 1, a draw ½, whether written 1-0, 2-0 as PDN draughts writes it,
// or 1-1), so that tables mixing 1-0 and 2-0 results rank players by
// games won, not by how the results were written. Dejarik keeps its
// points as they are (a game scores 1, 2 or 3 toward a series played to a
// total: the points are the scale). A game that gave no points (0-0)
// scores 0 each. ok is false for a result without scores ("*").
func Share(game, result string) (s0, s1 float64, ok bool) {
	s0, s1, ok = gamerows.Scores(result)
	if !ok || game == "dejarik" {
		return s0, s1, ok
	}
	if t := s0 + s1; t > 0 {
		return s0 / t, s1 / t, true
	}
	return 0, 0, true
}
