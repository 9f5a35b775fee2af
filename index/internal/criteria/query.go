package criteria

import (
	"errors"
	"reflect"

	"github.com/plateau/plateau/index/internal/pattern"
	"github.com/plateau/plateau/record"
	"github.com/plateau/plateau/rules"
)

// ErrQuery: a search criterion cannot be understood.
var ErrQuery = errors.New("bad query")

// Query selects games. Every criterion set must hold.
//
// The criteria are defined once, here: the fields below, their SQL
// (where.go), and the table of their names (criteriaTable), from which
// the command line makes its flags and the web API reads its parameters
// (ParseQuery). A criterion is a field and a row of the table; HasCriteria
// counts every field but the last four without being told.
type Query struct {
	Game string // ruleset id ("ogi", "draughts", …)
	// Player is matched against either side's name, Players against one side
	// each (side 0 first); names match fuzzily (see MatchPlayers).
	Player  string
	Players [2]string
	// Opponent, with Player: games of Player against Opponent, either way round.
	Opponent string
	Event    string // case-insensitive substring
	Site     string // case-insensitive substring
	// DateFrom and DateTo bound the Date tag; a prefix such as "2026" or
	// "2026.07" covers the whole year or month.
	DateFrom, DateTo   string
	Result             string // exact Result value
	Termination        string // case-insensitive substring
	MinPlies, MaxPlies int    // 0 means no bound
	// MinElo and MaxElo bound both players' ratings (the <Side>Elo tags of
	// the game's sides); 0 means no bound. A game with a side unrated, or
	// rated otherwise than as a whole number, matches no bound.
	MinElo, MaxElo int
	Tags           []record.Tag
	Text           string // a Bleve query string over names, event, site, annotator, comments
	// Position is an exact position: games where it occurs (main line or
	// variation), with the ply of each occurrence.
	Position rules.Position
	Pattern  *pattern.Pattern
	// IDs restricts to these games.
	IDs []int64
	// Opening is a prefix of the name of the games' opening, both folded
	// as player names are (case and accents aside, in every script):
	// "sicilian" finds "Sicilian, Najdorf" (internal/openings.MatchSQL).
	Opening string

	// Invalid selects invalid games instead of valid ones.
	Invalid       bool
	Limit, Offset int // Limit 0 means 50; negative means no limit
	// Count asks for the total number of matches (a pattern search then
	// scans every candidate game).
	Count bool
}

// HasCriteria reports whether q narrows the games: whether any field is
// set but the valid/invalid switch (Invalid), the page (Limit, Offset)
// and Count. It reads every other field, so that a criterion added to
// Query counts without being named here (a delete that forgot one would
// take a query of it for no criterion).
func (q *Query) HasCriteria() bool {
	c := *q
	c.Invalid, c.Limit, c.Offset, c.Count = false, 0, 0, false
	return !reflect.ValueOf(c).IsZero()
}

// PageLimit is the number of hits of the page q asks for: 50 for Limit 0,
// no limit (1<<62) for a negative one.
func (q *Query) PageLimit() int {
	switch {
	case q.Limit == 0:
		return 50
	case q.Limit < 0:
		return 1 << 62
	}
	return q.Limit
}
