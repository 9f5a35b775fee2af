package criteria

import (
	"slices"
	"strconv"
)

// A Criterion is a search criterion as the command line takes it, a flag
// --Name, and the web API, a parameter Name (ParseQuery).
type Criterion struct {
	Name    string
	Aliases []string // other names of the flag and parameter
	Usage   string
	Kind    Kind
	// Positions marks the criteria of positions (position, moves,
	// pattern): they need the game, and only Search answers them (not
	// List, Count, Crosstable).
	Positions bool
	set       func(r *queryReader, value string) error
}

// Kind is how a criterion's value is written.
type Kind int

const (
	KindString Kind = iota // a text
	KindNumber             // a whole number, 0 or more
	KindSwitch             // true or false (1, 0, true, false…)
	KindList               // a text, given any number of times
)

// Criteria lists the search criteria in the order a command's help shows
// them.
func Criteria() []Criterion { return slices.Clone(criteriaTable) }

// criteriaTable defines each criterion's name and how its value sets a
// Query. Those that depend on each other (the players and the side, the
// dates, the positions and the game) are put together by queryReader.finish.
var criteriaTable = []Criterion{
	{Name: "game", Usage: "ruleset (ogi, dames, draughts, …)",
		set: func(r *queryReader, v string) error { r.q.Game = v; return nil }},
	{Name: "player", Usage: "player name (fuzzy, prefix, accent-insensitive)",
		set: func(r *queryReader, v string) error { r.player = v; return nil }},
	{Name: "side", Usage: "with --player: only games where the player had this side (side name or 0/1)",
		set: func(r *queryReader, v string) error { r.side = v; return nil }},
	{Name: "opponent", Usage: "the other player's name (fuzzy)",
		set: func(r *queryReader, v string) error { r.opponent = v; return nil }},
	{Name: "event", Usage: "event (substring, case-insensitive)",
		set: func(r *queryReader, v string) error { r.q.Event = v; return nil }},
	{Name: "site", Usage: "site (substring, case-insensitive)",
		set: func(r *queryReader, v string) error { r.q.Site = v; return nil }},
	{Name: "date", Usage: "date or date prefix (2026, 2026.07)",
		set: func(r *queryReader, v string) error { r.date = v; return nil }},
	{Name: "from", Usage: "first date (prefix allowed)",
		set: func(r *queryReader, v string) error { r.q.DateFrom = v; return nil }},
	{Name: "to", Usage: "last date (prefix allowed)",
		set: func(r *queryReader, v string) error { r.q.DateTo = v; return nil }},
	{Name: "result", Usage: "Result value (1-0, 2-0, 3-0, 1/2-1/2, *)",
		set: func(r *queryReader, v string) error { r.q.Result = v; return nil }},
	{Name: "termination", Usage: "termination (substring)",
		set: func(r *queryReader, v string) error { r.q.Termination = v; return nil }},
	{Name: "min-plies", Kind: KindNumber, Usage: "at least this many plies",
		set: func(r *queryReader, v string) error { return count(v, &r.q.MinPlies) }},
	{Name: "max-plies", Kind: KindNumber, Usage: "at most this many plies",
		set: func(r *queryReader, v string) error { return count(v, &r.q.MaxPlies) }},
	{Name: "min-elo", Kind: KindNumber, Usage: "both players rated at least this (their <Side>Elo tags)",
		set: func(r *queryReader, v string) error { return count(v, &r.q.MinElo) }},
	{Name: "max-elo", Kind: KindNumber, Usage: "both players rated at most this (their <Side>Elo tags)",
		set: func(r *queryReader, v string) error { return count(v, &r.q.MaxElo) }},
	{Name: "tag", Kind: KindList, Usage: "Name=Value, any tag (repeatable)", set: (*queryReader).tag},
	{Name: "opening", Usage: "opening name or its beginning (\"Sicilian\" finds \"Sicilian, Najdorf\"), from the names imported by plateau openings import",
		set: func(r *queryReader, v string) error { r.q.Opening = v; return nil }},
	{Name: "text", Usage: "full-text query on names, event, site, annotator, comments (Bleve query syntax; a \"quoted phrase\" finds its words in one field, in any order)",
		set: func(r *queryReader, v string) error { r.q.Text = v; return nil }},
	{Name: "id", Kind: KindList, Usage: "this game, by its id (repeatable)", set: (*queryReader).id},
	{Name: "invalid", Kind: KindSwitch, Usage: "search the invalid games instead of the valid ones",
		set: func(r *queryReader, v string) (err error) { r.q.Invalid, err = strconv.ParseBool(v); return err }},
	{Name: "position", Aliases: []string{"fen"}, Positions: true, Usage: "exact position, in the game's notation or as moves from the start",
		set: func(r *queryReader, v string) error { r.position = v; return nil }},
	{Name: "moves", Positions: true, Usage: "exact position after these moves from the start",
		set: func(r *queryReader, v string) error { r.moves = v; return nil }},
	{Name: "pattern", Positions: true, Usage: "pattern: '[SIDE:][+|-]K@SQ,SQ  empty@SQ  [SIDE:]K@hand>=N  [SIDE:]K<=N' (every term must hold)",
		set: func(r *queryReader, v string) (err error) { r.q.Pattern, err = ParsePattern(v); return err }},
}
