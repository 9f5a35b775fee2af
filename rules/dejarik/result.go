package dejarik

import (
	"fmt"
	"strings"

	"github.com/plateau/plateau/rules"
)

// CheckResult accepts exactly the result of a finished game, and only "*"
// for an unfinished one: the text knows no resignation nor agreed result.
func (p *Position) CheckResult(result string) error {
	r := strings.TrimSpace(result)
	o := p.Outcome()
	if o.Over {
		if r != o.Result {
			return fmt.Errorf("%w: the game ended by %s (%s), not %q", rules.ErrResult, o.Reason, o.Result, r)
		}
		return nil
	}
	if r != "*" {
		return fmt.Errorf("%w: the game is not over, so its result is \"*\", not %q (Dejarik has no resignation)", rules.ErrResult, r)
	}
	return nil
}

// Target is the number of points that wins a series of games, as the
// Wookiees played it.
const Target = 12

// Points reads a Dejarik result: the points of White and Black. ok is false
// for "*" and for anything a Dejarik game cannot score (3-0, 0-3, 1-0, 0-1,
// 2-0, 0-2, 1-1, 0-0 are the possible results).
func Points(result string) (white, black int, ok bool) {
	switch strings.TrimSpace(result) {
	case "3-0":
		return 3, 0, true
	case "0-3":
		return 0, 3, true
	case "2-0":
		return 2, 0, true
	case "0-2":
		return 0, 2, true
	case "1-0":
		return 1, 0, true
	case "0-1":
		return 0, 1, true
	case "1-1":
		return 1, 1, true
	case "0-0":
		return 0, 0, true
	}
	return 0, 0, false
}

// Series totals the points of a series of games between the same players
// (who may change colours from game to game).
type Series struct {
	Points map[string]int // by player name
	Games  int            // games counted (unfinished ones are not)
	// Winner is the first player to reach Target points, "" until then;
	// WinnerGame is the number of games it took.
	Winner     string
	WinnerGame int
}

// Add counts one game; it reports false (and counts nothing) when the
// result scores no points ("*" or not a Dejarik result).
func (s *Series) Add(white, black, result string) bool {
	w, b, ok := Points(result)
	if !ok {
		return false
	}
	if s.Points == nil {
		s.Points = map[string]int{}
	}
	s.Points[white] += w
	s.Points[black] += b
	s.Games++
	if s.Winner == "" {
		// Both may pass the target in one game (1-1 at 11–11): the higher
		// total wins, and a tie waits for the next game.
		pw, pb := s.Points[white], s.Points[black]
		switch {
		case pw >= Target && pw > pb:
			s.Winner, s.WinnerGame = white, s.Games
		case pb >= Target && pb > pw:
			s.Winner, s.WinnerGame = black, s.Games
		}
	}
	return true
}
