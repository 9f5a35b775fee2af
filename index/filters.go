package index

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/plateau/plateau/record"
	"github.com/plateau/plateau/rules"
)

type where struct {
	conds []string
	args  []any
	nargs []int // the number of args of each condition
	// players are the ids Query.Player matched (without an Opponent): a
	// page of their games is read player by player (see playerPage);
	// playerCond is the index of their condition in conds.
	players    []int64
	playerCond int
	// pageWords, when not nil, are the name words (names.go) the page is
	// read by instead.
	pageWords []string
	// scanPlayers: the player indexes are out (bulk.go) and the page is
	// not read by word: the games table is scanned in id order.
	scanPlayers bool
}

// without returns the conditions and their arguments but the i-th.
func (w *where) without(i int) (string, []any) {
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

func (w *where) add(cond string, args ...any) {
	w.conds = append(w.conds, cond)
	w.args = append(w.args, args...)
	w.nargs = append(w.nargs, len(args))
}

func (w *where) String() string {
	if len(w.conds) == 0 {
		return "1"
	}
	return strings.Join(w.conds, " AND ")
}

// onlyValidGame reports conditions that every game with stored position
// occurrences meets: valid, of the position's ruleset (its stored key holds
// the ruleset).
func (w *where) onlyValidGame() bool {
	switch {
	case len(w.conds) == 0 || len(w.conds) > 2 || w.conds[0] != "g.valid = ?" || w.args[0] != true:
		return false
	case len(w.conds) == 2:
		return w.conds[1] == "g.game = ?"
	}
	return true
}

func jsonIDs(ids []int64) string {
	b, _ := json.Marshal(ids)
	return string(b)
}

// filters turns the game-level criteria into SQL on games g. empty reports
// that no game can match (an unknown player, a text query without match).
// Its first condition is always g.valid (listWhere drops it).
func (db *DB) filters(ctx context.Context, q *Query) (w where, empty bool, err error) {
	w.add("g.valid = ?", !q.Invalid)
	if q.Game != "" {
		w.add("g.game = ?", gameID(q.Game))
	}
	for _, stage := range []func(context.Context, *Query, *where) (bool, error){
		db.playerFilter, db.sideFilters, columnFilters, tagFilters, db.idFilters,
	} {
		if empty, err := stage(ctx, q, &w); empty || err != nil {
			return w, empty, err
		}
	}
	return w, false, nil
}

// gameID is the id of a ruleset given by any of its names; an unknown one
// as given (it matches no game).
func gameID(game string) string {
	if g, err := rules.Lookup(game); err == nil {
		return g.ID()
	}
	return game
}

// playerFilter adds Query.Player, alone (either side) or with Opponent
// (either way round). A player alone is read player by player (playerPage):
// the matched ids, and the name words when the name index can serve them.
func (db *DB) playerFilter(ctx context.Context, q *Query, w *where) (bool, error) {
	if q.Player == "" {
		return false, nil
	}
	m, err := db.matchNames(ctx, q.Player)
	if err != nil || len(m.players) == 0 {
		return err == nil, err
	}
	j := jsonIDs(m.players)
	if q.Opponent != "" {
		opp, err := db.MatchPlayers(ctx, q.Opponent)
		if err != nil || len(opp) == 0 {
			return err == nil, err
		}
		o := jsonIDs(opp)
		w.add(`((g.p0 IN (SELECT value FROM json_each(?)) AND g.p1 IN (SELECT value FROM json_each(?)))
				OR (g.p1 IN (SELECT value FROM json_each(?)) AND g.p0 IN (SELECT value FROM json_each(?))))`, j, o, j, o)
		return false, nil
	}
	w.playerCond = len(w.conds)
	w.add("(g.p0 IN (SELECT value FROM json_each(?)) OR g.p1 IN (SELECT value FROM json_each(?)))", j, j)
	w.players = m.players
	// A bulk import leaves the player indexes out while it runs (bulk.go):
	// the page is then read by word, or scanned.
	byPlayer, err := db.playerIndexes(ctx)
	if err != nil {
		return false, err
	}
	if db.nameIndex && !q.Invalid {
		w.pageWords = m.pageWords(byPlayer)
	}
	w.scanPlayers = !byPlayer && w.pageWords == nil
	return false, nil
}

// sideFilters adds Query.Players: a name on one side each.
func (db *DB) sideFilters(ctx context.Context, q *Query, w *where) (bool, error) {
	for side, name := range q.Players {
		if name == "" {
			continue
		}
		ids, err := db.MatchPlayers(ctx, name)
		if err != nil || len(ids) == 0 {
			return err == nil, err
		}
		w.add(fmt.Sprintf("g.p%d IN (SELECT value FROM json_each(?))", side), jsonIDs(ids))
	}
	return false, nil
}

// columnFilters adds the criteria on the games table's own columns.
func columnFilters(_ context.Context, q *Query, w *where) (bool, error) {
	if q.Event != "" {
		w.foldContains("g.event", q.Event) // fold.go
	}
	if q.Site != "" {
		w.foldContains("g.site", q.Site)
	}
	if q.DateFrom != "" {
		w.add("g.date >= ?", queryDate(q.DateFrom))
	}
	if q.DateTo != "" {
		w.add("g.date <= ?", queryDate(q.DateTo)+"~")
	}
	if q.Result != "" {
		w.add("g.result = ?", q.Result)
	}
	if q.Termination != "" {
		w.foldContains("g.termination", q.Termination)
	}
	if q.MinPlies > 0 {
		w.add("g.plies >= ?", q.MinPlies)
	}
	if q.MaxPlies > 0 {
		w.add("g.plies <= ?", q.MaxPlies)
	}
	return false, nil
}

// tagFilters adds Query.Tags: a tag with a column of its own is that
// column's exact value, another one the tags table's (or a side's player).
func tagFilters(_ context.Context, q *Query, w *where) (bool, error) {
	for _, t := range q.Tags {
		t.Name = tagName(q.Game, t.Name) // names in any case (edit.go)
		switch t.Name {
		case "Date":
			w.add("g.date = ?", queryDate(t.Value))
		case "Event", "Site", "Result", "Termination":
			w.add("g."+strings.ToLower(t.Name)+" = ?", t.Value)
		case "Game":
			w.add("g.game = ?", strings.ToLower(t.Value))
		default:
			w.tag(q.Game, t)
		}
	}
	return false, nil
}

// idFilters adds Query.IDs and the games of the text query Query.Text.
func (db *DB) idFilters(ctx context.Context, q *Query, w *where) (bool, error) {
	if q.IDs != nil {
		w.add("g.id IN (SELECT value FROM json_each(?))", jsonIDs(q.IDs))
	}
	if q.Text == "" {
		return false, nil
	}
	ids, err := db.TextSearch(ctx, q.Text, 1_000_000)
	if err != nil || len(ids) == 0 {
		return err == nil, err
	}
	w.add("g.id IN (SELECT value FROM json_each(?))", jsonIDs(ids))
	return false, nil
}

// tag adds the condition of a tag that has no column of its own. A tag that
// names a side of the game's rules (Sente, White…) is that side's player
// column; the tags table holds the other tags.
func (w *where) tag(game string, t record.Tag) {
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
		w.add(tagged, t.Name, t.Value)
		return
	case len(notSide) > 0 && game == "":
		// Other rulesets, and games whose ruleset this program does not know.
		conds = append(conds, "(NOT "+in(append(append([]any{}, sideOf[0]...), sideOf[1]...))+" AND "+tagged+")")
		args = append(append(append(args, sideOf[0]...), sideOf[1]...), t.Name, t.Value)
	}
	w.add("("+strings.Join(conds, " OR ")+")", args...)
}

func likeEscape(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`)
	return r.Replace(s)
}
