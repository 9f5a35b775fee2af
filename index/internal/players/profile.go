package players

import (
	"cmp"
	"slices"
	"strings"

	"github.com/plateau/plateau/index/internal/gamerows"
)

// ProfileGame is one game of a player, as a profile counts it.
type ProfileGame struct {
	Game     string // ruleset id
	Side     int    // the player's side, in result order
	Opponent string // "" when the record names none
	Date     string // as stored ("2024.05.01", "2024.??.??", "")
	Result   string
	// Opening is the first moves of the game (OpeningPlies of them, or
	// fewer in a shorter game), in the game's notation.
	Opening []string
	// Named is the name of the game's opening ("" when it has none).
	Named string
}

// OpeningPlies is how many first plies name a game's opening on a
// player's page: each side's first move (a player's choice as White and
// their answer as Black), the level at which a repertoire starts to show.
const OpeningPlies = 2

// Tally is a player's results over some games: Wins, Draws and Losses
// compare the two sides' points (Dejarik's too), Score is Wins + Draws/2,
// and Points the player's points as the Results write them.
type Tally struct {
	Games  int     `json:"games"`
	Scored int     `json:"scored"`
	Wins   int     `json:"wins"`
	Draws  int     `json:"draws"`
	Losses int     `json:"losses"`
	Score  float64 `json:"score"`
	Points float64 `json:"points"`
}

func (t *Tally) add(g ProfileGame) {
	t.Games++
	s0, s1, ok := gamerows.Scores(g.Result)
	if !ok {
		return
	}
	me, them := s0, s1
	if g.Side == 1 {
		me, them = s1, s0
	}
	t.Scored++
	t.Points += me
	switch {
	case me > them:
		t.Wins++
		t.Score++
	case me == them:
		t.Draws++
		t.Score += 0.5
	default:
		t.Losses++
	}
}

// SideTally is a player's results on one side of one ruleset.
type SideTally struct {
	Game string `json:"game"`
	Side int    `json:"side"`
	Tally
}

// YearTally is a player's results in one year ("" for undated games).
type YearTally struct {
	Year string `json:"year"`
	Tally
}

// OpeningTally is how often a player began a game of a ruleset on a side
// with a line of first moves, and how it went.
type OpeningTally struct {
	Game  string   `json:"game"`
	Side  int      `json:"side"`
	Moves []string `json:"moves"`
	Tally
}

// OpponentTally is a player's results against one opponent.
type OpponentTally struct {
	Name string `json:"name"`
	Tally
}

// Profile is what a player's page shows: every count over the player's
// valid games.
type Profile struct {
	Name string `json:"name"`
	// From and To are the period the page counts (index.Period), empty
	// for no bound.
	From      string          `json:"from,omitempty"`
	To        string          `json:"to,omitempty"`
	First     string          `json:"first,omitempty"` // the earliest and latest dates
	Last      string          `json:"last,omitempty"`
	Total     Tally           `json:"total"`
	Sides     []SideTally     `json:"sides"`     // by ruleset, then side
	Years     []YearTally     `json:"years"`     // by year; undated last
	Openings  []OpeningTally  `json:"openings"`  // the most played lines of each ruleset and side, most played first
	Named     []NamedTally    `json:"named"`     // the most played named openings of each ruleset and side, most played first
	Opponents []OpponentTally `json:"opponents"` // the most met opponents, most met first
}

// MaxOpenings and MaxOpponents bound the lines a profile lists: the
// openings of each ruleset and side, and the opponents.
const (
	MaxOpenings  = 8
	MaxOpponents = 20
)

// NewProfile counts the games of the player name.
//
// Decisions: a year is the first four characters of the date when they
// are digits; lines of openings and opponents are ranked by games, then
// by score, then by text, so that the page is stable.
func NewProfile(name string, games []ProfileGame) Profile {
	p := Profile{Name: name, Sides: []SideTally{}, Years: []YearTally{}, Openings: []OpeningTally{}, Opponents: []OpponentTally{}}
	sides := map[[2]string]*SideTally{}
	years := map[string]*YearTally{}
	openings := map[string]*OpeningTally{}
	opponents := map[string]*OpponentTally{}
	for _, g := range games {
		p.Total.add(g)
		side := [2]string{g.Game, string(rune('0' + g.Side))}
		if sides[side] == nil {
			sides[side] = &SideTally{Game: g.Game, Side: g.Side}
		}
		sides[side].add(g)
		y := year(g.Date)
		if years[y] == nil {
			years[y] = &YearTally{Year: y}
		}
		years[y].add(g)
		if len(g.Opening) > 0 {
			k := g.Game + "\x00" + side[1] + "\x00" + strings.Join(g.Opening, " ")
			if openings[k] == nil {
				openings[k] = &OpeningTally{Game: g.Game, Side: g.Side, Moves: g.Opening}
			}
			openings[k].add(g)
		}
		if g.Opponent != "" {
			if opponents[g.Opponent] == nil {
				opponents[g.Opponent] = &OpponentTally{Name: g.Opponent}
			}
			opponents[g.Opponent].add(g)
		}
		if d := dated(g.Date); d != "" {
			if p.First == "" || d < p.First {
				p.First = d
			}
			p.Last = max(p.Last, d)
		}
	}
	for _, s := range sides {
		p.Sides = append(p.Sides, *s)
	}
	slices.SortFunc(p.Sides, func(a, b SideTally) int {
		return cmp.Or(strings.Compare(a.Game, b.Game), a.Side-b.Side)
	})
	for _, y := range years {
		p.Years = append(p.Years, *y)
	}
	slices.SortFunc(p.Years, func(a, b YearTally) int {
		if (a.Year == "") != (b.Year == "") {
			return map[bool]int{true: 1, false: -1}[a.Year == ""]
		}
		return strings.Compare(a.Year, b.Year)
	})
	p.Openings = topOpenings(openings)
	p.Named = namedOpenings(games)
	for _, o := range opponents {
		p.Opponents = append(p.Opponents, *o)
	}
	slices.SortFunc(p.Opponents, func(a, b OpponentTally) int {
		return cmp.Or(b.Games-a.Games, cmp.Compare(b.Score, a.Score), strings.Compare(a.Name, b.Name))
	})
	if len(p.Opponents) > MaxOpponents {
		p.Opponents = p.Opponents[:MaxOpponents]
	}
	return p
}

// topOpenings are the MaxOpenings most played lines of each ruleset and
// side, by ruleset and side, then most played first.
func topOpenings(m map[string]*OpeningTally) []OpeningTally {
	out := []OpeningTally{}
	for _, o := range m {
		out = append(out, *o)
	}
	slices.SortFunc(out, func(a, b OpeningTally) int {
		return cmp.Or(strings.Compare(a.Game, b.Game), a.Side-b.Side, b.Games-a.Games,
			cmp.Compare(b.Score, a.Score), slices.Compare(a.Moves, b.Moves))
	})
	return keepTop(out, func(o OpeningTally) (string, int) { return o.Game, o.Side })
}

// keepTop keeps the first MaxOpenings of each ruleset and side of out,
// sorted by ruleset and side first; group gives an entry's ruleset and
// side.
func keepTop[T any](out []T, group func(T) (string, int)) []T {
	kept := []T{}
	for i, t := range out {
		if i >= MaxOpenings {
			g0, s0 := group(out[i-MaxOpenings])
			if g, s := group(t); g0 == g && s0 == s {
				continue
			}
		}
		kept = append(kept, t)
	}
	return kept
}

// year is the year of a stored date, "" when it has none.
func year(date string) string {
	if len(date) < 4 {
		return ""
	}
	for _, c := range date[:4] {
		if c < '0' || c > '9' {
			return ""
		}
	}
	return date[:4]
}

// dated is a date whose year is known, "" otherwise.
func dated(date string) string {
	if year(date) == "" {
		return ""
	}
	return date
}
