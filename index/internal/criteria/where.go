package criteria

import (
	"fmt"
	"strings"

	"github.com/plateau/plateau/index/internal/openings"
	"github.com/plateau/plateau/record"
	"github.com/plateau/plateau/rules"
)

// Where is the SQL condition of a query's criteria over the games table
// g: conditions that must all hold, each with its arguments. The
// criteria that name what the database looks up (players, ids, a text
// query) are added by the database, the others by Base and Columns.
type Where struct {
	conds []string
	args  []any
	nargs []int // the number of args of each condition
}

// Base is the condition every query starts with: valid games (invalid
// ones for q.Invalid), of q's ruleset if it names one. Its first
// condition is always g.valid (see Without).
func Base(q *Query) Where {
	var w Where
	w.Add("g.valid = ?", !q.Invalid)
	if q.Game != "" {
		w.Add("g.game = ?", GameID(q.Game))
	}
	return w
}

// Add adds a condition and its arguments.
func (w *Where) Add(cond string, args ...any) {
	w.conds = append(w.conds, cond)
	w.args = append(w.args, args...)
	w.nargs = append(w.nargs, len(args))
}

// Len is the number of conditions: the index of the next one Add adds.
func (w *Where) Len() int { return len(w.conds) }

// String is the conditions joined by AND ("1" when there is none).
func (w *Where) String() string {
	if len(w.conds) == 0 {
		return "1"
	}
	return strings.Join(w.conds, " AND ")
}

// Args are the arguments of String, in order; the caller does not change
// them.
func (w *Where) Args() []any { return w.args }

// From returns the conditions from the i-th on and their arguments.
func (w *Where) From(i int) (string, []any) {
	a := 0
	for _, n := range w.nargs[:min(i, len(w.nargs))] {
		a += n
	}
	if i >= len(w.conds) {
		return "1", nil
	}
	return strings.Join(w.conds[i:], " AND "), w.args[a:]
}

// Without returns the conditions and their arguments but the i-th.
func (w *Where) Without(i int) (string, []any) {
	var conds []string
	var args []any
	a := 0
	for k, c := range w.conds {
		n := w.nargs[k]
		if k != i {
			conds = append(conds, c)
			args = append(args, w.args[a:a+n]...)
		}
		a += n
	}
	if len(conds) == 0 {
		return "1", nil
	}
	return strings.Join(conds, " AND "), args
}

// OnlyValidGame reports conditions that every game with stored position
// occurrences meets: valid, of the position's ruleset (its stored key holds
// the ruleset).
func (w *Where) OnlyValidGame() bool {
	switch {
	case len(w.conds) == 0 || len(w.conds) > 2 || w.conds[0] != "g.valid = ?" || w.args[0] != true:
		return false
	case len(w.conds) == 2:
		return w.conds[1] == "g.game = ?"
	}
	return true
}

// GameID is the id of a ruleset given by any of its names; an unknown one
// as given (it matches no game).
func GameID(game string) string {
	if g, err := rules.Lookup(game); err == nil {
		return g.ID()
	}
	return game
}

// Contains is the condition that column col (of text) holds the text of
// its argument (ContainsArg), as the criteria Event, Site and Termination
// compare them: folded as the names are.
func Contains(col string) string { return "instr(plateau_fold(" + col + "), ?) > 0" }

// ContainsArg is Contains's argument for text.
func ContainsArg(text string, fold func(string) string) string { return strings.TrimSpace(fold(text)) }

// Columns adds the criteria on the games table's own columns, then the
// tags. fold is the function the database registers as the SQL
// function plateau_fold (see the package doc).
func (w *Where) Columns(q *Query, fold func(string) string) {
	contains := func(col, text string) { w.Add(Contains(col), ContainsArg(text, fold)) }
	if q.Event != "" {
		contains("g.event", q.Event)
	}
	if q.Site != "" {
		contains("g.site", q.Site)
	}
	if q.DateFrom != "" {
		w.Add("g.date >= ?", QueryDate(q.DateFrom))
	}
	if q.DateTo != "" {
		w.Add("g.date <= ?", QueryDate(q.DateTo)+"~")
	}
	if q.Result != "" {
		w.Add("g.result = ?", q.Result)
	}
	if q.Termination != "" {
		contains("g.termination", q.Termination)
	}
	if q.MinPlies > 0 {
		w.Add("g.plies >= ?", q.MinPlies)
	}
	if q.MaxPlies > 0 {
		w.Add("g.plies <= ?", q.MaxPlies)
	}
	if q.Opening != "" {
		cond, args := openings.MatchSQL(strings.TrimSpace(q.Opening))
		w.Add(cond, args...)
	}
	w.elo(q)
	w.tags(q)
}

// tags adds Query.Tags: a tag with a column of its own is that column's
// exact value, another one the tags table's (or a side's player).
func (w *Where) tags(q *Query) {
	for _, t := range q.Tags {
		t.Name = TagName(q.Game, t.Name) // names in any case
		switch t.Name {
		case "Date":
			w.Add("g.date = ?", QueryDate(t.Value))
		case "Event", "Site", "Result", "Termination":
			w.Add("g."+strings.ToLower(t.Name)+" = ?", t.Value)
		case "Game":
			w.Add("g.game = ?", strings.ToLower(t.Value))
		default:
			w.tag(q.Game, t)
		}
	}
}

// tag adds the condition of a tag that has no column of its own. A tag that
// names a side of the game's rules (Sente, White…) is that side's player
// column; the tags table holds the other tags.
func (w *Where) tag(game string, t record.Tag) {
	var gs []rules.Game
	if g, err := rules.Lookup(game); err == nil {
		gs = []rules.Game{g}
	} else if game == "" {
		gs = rules.Games()
	}
	var sideOf [2][]any // rulesets where the tag names side 0, side 1
	var notSide []any   // known rulesets where it names no side
	for _, g := range gs {
		switch sides := g.Sides(); {
		case strings.EqualFold(t.Name, sides[0]):
			sideOf[0] = append(sideOf[0], g.ID())
		case strings.EqualFold(t.Name, sides[1]):
			sideOf[1] = append(sideOf[1], g.ID())
		default:
			notSide = append(notSide, g.ID())
		}
	}
	in := func(ids []any) string { return "g.game IN (?" + strings.Repeat(",?", len(ids)-1) + ")" }
	var conds []string
	var args []any
	for side, ids := range sideOf {
		if len(ids) > 0 {
			conds = append(conds, fmt.Sprintf("(%s AND g.p%d IN (SELECT id FROM players WHERE name = ?))", in(ids), side))
			args = append(append(args, ids...), t.Value)
		}
	}
	tagged := "EXISTS (SELECT 1 FROM tags t JOIN tag_names n ON n.id = t.tag WHERE n.name = ? COLLATE NOCASE AND t.value = ? AND t.game = g.id)"
	switch {
	case len(conds) == 0:
		w.Add(tagged, t.Name, t.Value)
		return
	case len(notSide) > 0 && game == "":
		// Other rulesets, and games whose ruleset this program does not know.
		conds = append(conds, "(NOT "+in(append(append([]any{}, sideOf[0]...), sideOf[1]...))+" AND "+tagged+")")
		args = append(append(append(args, sideOf[0]...), sideOf[1]...), t.Name, t.Value)
	}
	w.Add("("+strings.Join(conds, " OR ")+")", args...)
}

// knownTags are written in this case whatever case they are given in.
var knownTags = []string{"Game", "GameType", "Event", "Site", "Date", "Round", "Result", "Termination",
	"Annotator", "FEN", "SetUp", "TimeControl", "Time", "Opening", "ECO", "WhiteElo", "BlackElo"}

// TagName is the canonical spelling of a tag name given in any case: a
// known tag, a side name of the game's rules, else as given.
func TagName(game, name string) string {
	names := knownTags
	if g, err := rules.Lookup(game); err == nil {
		s := g.Sides()
		names = append(append([]string{}, names...), s[0], s[1])
	}
	for _, n := range names {
		if strings.EqualFold(n, name) {
			return n
		}
	}
	return name
}
