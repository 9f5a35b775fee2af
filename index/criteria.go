package index

import (
	"net/url"

	"github.com/plateau/plateau/index/internal/criteria"
	"github.com/plateau/plateau/rules"
)

// The search criteria are defined once, in internal/criteria: the Query
// struct, the table of criteria by name (Criteria, ParseQuery) and their
// SQL. The names below are theirs.

// Query selects games. Every criterion set must hold (see the fields).
type Query = criteria.Query

// A Criterion is a search criterion as the command line takes it, a flag
// --Name, and the web API, a parameter Name (ParseQuery).
type Criterion = criteria.Criterion

// Kind is how a criterion's value is written.
type Kind = criteria.Kind

// Criterion kinds.
const (
	KindString = criteria.KindString // a text
	KindNumber = criteria.KindNumber // a whole number, 0 or more
	KindSwitch = criteria.KindSwitch // true or false (1, 0, true, false…)
	KindList   = criteria.KindList   // a text, given any number of times
)

// A CriterionError is a criterion that ParseQuery cannot read: an unknown
// name, a bad value, a value given twice, a criterion without another it
// needs. It wraps ErrQuery and the reason.
type CriterionError = criteria.CriterionError

// Criteria lists the search criteria in the order a command's help shows
// them.
func Criteria() []Criterion { return criteria.Criteria() }

// ParseQuery reads a query from criteria given by name (Criteria): the
// parameters of the web API, the flags of the command line. Each is given
// once, unless of KindList; an empty value sets nothing. A position, moves
// or a pattern needs the game. Its errors are *CriterionError.
func ParseQuery(v url.Values) (Query, error) { return criteria.ParseQuery(v) }

// Position resolves text to a position of the ruleset game: a position in
// its notation, or a list of moves from the start (move numbers allowed),
// or "" for the start.
func Position(game, text string) (rules.Position, error) { return criteria.Position(game, text) }

// PositionAfter is the position after moves (space-separated, move numbers
// allowed) from the start of the ruleset game.
func PositionAfter(game, moves string) (rules.Position, error) {
	return criteria.PositionAfter(game, moves)
}

// NormalizeDate turns a Date tag as real record files write it into PDN's
// YYYY.MM.DD, with ?? (????) for unknown parts, for the date column (search,
// sorting, the opening tree's first and last dates); the record keeps the
// tag as written. Its decisions are criteria.NormalizeDate's: a year first
// or last, two-digit years, ranges, and anything else kept as written.
func NormalizeDate(s string) string { return criteria.NormalizeDate(s) }
