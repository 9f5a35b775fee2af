package index

import (
	"context"
	"errors"
	"fmt"

	"github.com/plateau/plateau/index/internal/criteria"
	"github.com/plateau/plateau/index/internal/store"
	"github.com/plateau/plateau/rules"
)

// where is the SQL of a query's criteria over games g (criteria.Where)
// and how a page of a player's games is read (internal/players).
type where struct {
	criteria.Where
	// players are the ids Query.Player matched (without an Opponent): a
	// page of their games is read player by player (see playerPage);
	// playerCond is the index of their condition.
	players    []int64
	playerCond int
	// pageWords, when not nil, are the name words (internal/players) the page is
	// read by instead.
	pageWords []string
	// scanPlayers: the player indexes are out (bulk.go) and the page is
	// not read by word: the games table is scanned in id order.
	scanPlayers bool
	// named are the ids of the players Query.Player matched (with or
	// without an Opponent), sides those of each side's name
	// (Query.Players): a player's tree reads their lines (treePlayers).
	named []int64
	sides [2][]int64
	// opponents are the ids Query.Opponent matched (with Query.Player).
	opponents []int64
	// eventNamed: Query.Event is read as the names that hold it
	// (withEventNames), which columnFilters does not fold again.
	eventNamed bool
}

func jsonIDs(ids []int64) string { return store.JSONIDs(ids) }

// filters turns the game-level criteria into SQL on games g. empty reports
// that no game can match (an unknown player, a text query without match).
// Its first condition is always g.valid (listWhere drops it).
func (db *DB) filters(ctx context.Context, q *Query) (w where, empty bool, err error) {
	w.Where = criteria.Base(q)
	if q.Opening != "" && !db.openings {
		return w, true, nil // a layout without opening names, read-only
	}
	for _, stage := range []func(context.Context, *Query, *where) (bool, error){
		db.gameFilter, db.playerFilter, db.sideFilters, db.withEventNames, columnFilters, db.idFilters,
	} {
		if empty, err := stage(ctx, q, &w); empty || err != nil {
			return w, empty, err
		}
	}
	return w, false, nil
}

// errNoSuchGame: Query.Game is neither a ruleset nor the game of a stored
// record.
var errNoSuchGame = errors.New("unknown game: no ruleset, and no stored game, has this name (plateau games lists them)")

// gameFilter refuses a Query.Game that names nothing: not a ruleset (by id
// or alias) and not the game of a stored record (an invalid record of a
// game Plateau does not know keeps its Game tag, which info lists and the
// page's filter offers). A filter that cannot match is a mistake to say,
// not an empty answer. Its condition on g.game is criteria.Base's.
func (db *DB) gameFilter(ctx context.Context, q *Query, _ *where) (bool, error) {
	if q.Game == "" {
		return false, nil
	}
	if _, err := rules.Lookup(q.Game); err == nil {
		return false, nil
	}
	var stored bool
	err := db.sql.QueryRowContext(ctx, `SELECT EXISTS(SELECT 1 FROM games WHERE game = ?)`, q.Game).Scan(&stored)
	if err != nil {
		return false, err
	}
	if !stored {
		return false, &CriterionError{Name: "game", Value: q.Game, Err: errNoSuchGame}
	}
	return false, nil
}

// playerFilter adds Query.Player, alone (either side) or with Opponent
// (either way round). A player alone is read player by player (playerPage):
// the matched ids, and the name words when the name index can serve them.
func (db *DB) playerFilter(ctx context.Context, q *Query, w *where) (bool, error) {
	if q.Player == "" {
		return false, nil
	}
	m, err := db.matchNames(ctx, q.Player)
	if err != nil || len(m.Players) == 0 {
		return err == nil, err
	}
	j := jsonIDs(m.Players)
	w.named = m.Players
	if q.Opponent != "" {
		opp, err := db.MatchPlayers(ctx, q.Opponent)
		if err != nil || len(opp) == 0 {
			return err == nil, err
		}
		o := jsonIDs(opp)
		w.opponents = opp
		w.Add(`((g.p0 IN (SELECT value FROM json_each(?)) AND g.p1 IN (SELECT value FROM json_each(?)))
				OR (g.p1 IN (SELECT value FROM json_each(?)) AND g.p0 IN (SELECT value FROM json_each(?))))`, j, o, j, o)
		return false, nil
	}
	w.playerCond = w.Len()
	w.Add("(g.p0 IN (SELECT value FROM json_each(?)) OR g.p1 IN (SELECT value FROM json_each(?)))", j, j)
	w.players = m.Players
	// A bulk import leaves the player indexes out while it runs (bulk.go):
	// the page is then read by word, or scanned.
	byPlayer, err := db.playerIndexes(ctx)
	if err != nil {
		return false, err
	}
	if db.nameIndex && !q.Invalid {
		w.pageWords = m.PageWords(byPlayer)
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
		w.Add(fmt.Sprintf("g.p%d IN (SELECT value FROM json_each(?))", side), jsonIDs(ids))
		w.sides[side] = ids
	}
	return false, nil
}

// columnFilters adds the criteria on the games table's own columns and
// the tags (criteria.Where.Columns), folded as the names are (fold.go).
func columnFilters(_ context.Context, q *Query, w *where) (bool, error) {
	if w.eventNamed {
		c := *q
		c.Event = ""
		q = &c
	}
	w.Columns(q, fold)
	return false, nil
}

// idFilters adds Query.IDs and the games of the text query Query.Text.
func (db *DB) idFilters(ctx context.Context, q *Query, w *where) (bool, error) {
	if q.IDs != nil {
		w.Add("g.id IN (SELECT value FROM json_each(?))", jsonIDs(q.IDs))
	}
	if q.Text == "" {
		return false, nil
	}
	ids, err := db.TextSearch(ctx, q.Text, 1_000_000)
	if err != nil || len(ids) == 0 {
		return err == nil, err
	}
	w.Add("g.id IN (SELECT value FROM json_each(?))", jsonIDs(ids))
	return false, nil
}
