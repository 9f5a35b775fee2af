package criteria

import (
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/plateau/plateau/record"
	"github.com/plateau/plateau/rules"
)

// A CriterionError is a criterion that ParseQuery cannot read: an unknown
// name, a bad value, a value given twice, a criterion without another it
// needs. It wraps ErrQuery and the reason.
type CriterionError struct {
	Name  string // the criterion's name as given
	Value string // the value at fault, if one is
	Err   error
}

func (e *CriterionError) Error() string {
	if e.Value != "" {
		return fmt.Sprintf("%s %q: %v", e.Name, record.Clip(e.Value, 80), e.Err)
	}
	return e.Name + ": " + e.Err.Error()
}

func (e *CriterionError) Unwrap() []error { return []error{ErrQuery, e.Err} }

// errUnknownCriterion: no criterion has the name.
var errUnknownCriterion = errors.New("no such criterion (see plateau search --help)")

// ParseQuery reads a query from criteria given by name (criteriaTable):
// the parameters of the web API, the flags of the command line. Each is
// given once, unless of KindList; an empty value sets nothing. A position,
// moves or a pattern needs the game. Its errors are *CriterionError.
func ParseQuery(v url.Values) (Query, error) {
	var r queryReader
	names := make([]string, 0, len(v))
	for name := range v {
		names = append(names, name)
	}
	slices.Sort(names) // the same error for the same query
	given := map[string]string{}
	for _, name := range names {
		c := criterion(name)
		if c == nil {
			return Query{}, &CriterionError{Name: name, Err: errUnknownCriterion}
		}
		if other, ok := given[c.Name]; ok || (c.Kind != KindList && len(v[name]) > 1) {
			if !ok {
				other = name
			}
			return Query{}, &CriterionError{Name: name, Err: fmt.Errorf("given more than once (%s)", other)}
		}
		given[c.Name] = name
		for _, value := range v[name] {
			if value == "" {
				continue
			}
			if err := c.set(&r, value); err != nil {
				if errors.Is(err, ErrQuery) {
					value = "" // the error says it
				}
				return Query{}, &CriterionError{Name: name, Value: value, Err: err}
			}
		}
	}
	return r.finish()
}

// criterion is the criterion of a name or alias, or nil.
func criterion(name string) *Criterion {
	for i, c := range criteriaTable {
		if c.Name == name || slices.Contains(c.Aliases, name) {
			return &criteriaTable[i]
		}
	}
	return nil
}

// queryReader is a query being read, with the criteria that are put
// together at its end.
type queryReader struct {
	q                      Query
	player, side, opponent string
	date, position, moves  string
}

// count reads a number of 0 or more into n.
func count(v string, n *int) error {
	i, err := strconv.Atoi(v)
	if err != nil || i < 0 {
		return errors.New("a whole number, 0 or more, expected")
	}
	*n = i
	return nil
}

// tag reads a Name=Value tag.
func (r *queryReader) tag(v string) error {
	name, value, ok := strings.Cut(v, "=")
	if !ok || name == "" {
		return errors.New("want Name=Value")
	}
	r.q.Tags = append(r.q.Tags, record.Tag{Name: name, Value: value})
	return nil
}

// id reads a game id (12, or #12 as the commands print them).
func (r *queryReader) id(v string) error {
	id, err := strconv.ParseInt(strings.TrimPrefix(v, "#"), 10, 64)
	if err != nil || id <= 0 {
		return errors.New("a game id (a number) expected")
	}
	r.q.IDs = append(r.q.IDs, id)
	return nil
}

// finish puts together the criteria that depend on each other.
func (r *queryReader) finish() (Query, error) {
	for _, stage := range []func() error{r.players, r.dates, r.ratings, r.positions} {
		if err := stage(); err != nil {
			return Query{}, err
		}
	}
	return r.q, nil
}

// players sets the players: without a side, the player on either side (and
// the opponent either way round; an opponent alone is a player); with a
// side, the player on it and the opponent on the other.
func (r *queryReader) players() error {
	if r.side == "" {
		r.q.Player, r.q.Opponent = r.player, r.opponent
		if r.player == "" {
			r.q.Player, r.q.Opponent = r.opponent, ""
		}
		return nil
	}
	if r.player == "" {
		return &CriterionError{Name: "side", Value: r.side, Err: errors.New("needs player")}
	}
	s, err := sideIndex(r.q.Game, r.side)
	if err != nil {
		return &CriterionError{Name: "side", Value: r.side, Err: err}
	}
	r.q.Players[s], r.q.Players[1-s] = r.player, r.opponent
	return nil
}

// dates sets a date (or a prefix of one) as both bounds.
func (r *queryReader) dates() error {
	if r.date == "" {
		return nil
	}
	if r.q.DateFrom != "" || r.q.DateTo != "" {
		return &CriterionError{Name: "date", Value: r.date, Err: errors.New("give date, or from and to, not both")}
	}
	r.q.DateFrom, r.q.DateTo = r.date, r.date
	return nil
}

// ratings checks that the rating band is one.
func (r *queryReader) ratings() error {
	if r.q.MaxElo > 0 && r.q.MinElo > r.q.MaxElo {
		return &CriterionError{Name: "min-elo", Value: strconv.Itoa(r.q.MinElo),
			Err: fmt.Errorf("above max-elo %d", r.q.MaxElo)}
	}
	return nil
}

// positions reads the position (or the moves that lead to it) in the
// notation of the game, which a position or a pattern needs.
func (r *queryReader) positions() error {
	if r.position != "" && r.moves != "" {
		return &CriterionError{Name: "moves", Err: errors.New("give position or moves, not both")}
	}
	if r.position == "" && r.moves == "" && r.q.Pattern == nil {
		return nil
	}
	if r.q.Game == "" {
		name := "pattern"
		if r.position != "" || r.moves != "" {
			name = "position"
		}
		return &CriterionError{Name: name, Err: errors.New("needs the game (ruleset): positions and patterns are of one game")}
	}
	g, err := rules.Lookup(r.q.Game)
	if err != nil {
		return &CriterionError{Name: "game", Value: r.q.Game, Err: err}
	}
	switch {
	case r.position != "":
		r.q.Position, err = positionText(g, r.position)
		if err != nil {
			return &CriterionError{Name: "position", Err: err}
		}
	case r.moves != "":
		r.q.Position, err = positionAfter(g, r.moves)
		if err != nil {
			return &CriterionError{Name: "moves", Err: err}
		}
	}
	return nil
}

// sideIndex reads a side given as 0/1 or as a side's name in the game (in
// any game when game is "").
func sideIndex(game, side string) (int, error) {
	switch side {
	case "0", "1":
		return int(side[0] - '0'), nil
	}
	games := rules.Games()
	if game != "" {
		g, err := rules.Lookup(game)
		if err != nil {
			return 0, err
		}
		games = []rules.Game{g}
	}
	found := -1
	for _, g := range games {
		for i, s := range g.Sides() {
			if strings.EqualFold(s, side) {
				if found >= 0 && found != i {
					return 0, fmt.Errorf("side %q is side %d in one game and %d in another: give the game", side, found, i)
				}
				found = i
			}
		}
	}
	if found < 0 {
		return 0, fmt.Errorf("no side named %q", side)
	}
	return found, nil
}
