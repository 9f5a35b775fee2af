package index

import (
	"context"
	"errors"
	"fmt"
	"reflect"

	"github.com/plateau/plateau/index/internal/criteria"
	"github.com/plateau/plateau/index/internal/tree"
	"github.com/plateau/plateau/index/internal/treeagg"
	"github.com/plateau/plateau/rules"
)

// TreeMove is one move of an opening tree: its games (occurrences in main
// lines), scored games, points of each side, games each side won (unknown
// to a read-only handle on a database of layout 7 or older), first and
// last dates and its three most frequent players.
type TreeMove = tree.Move

// PlayerCount is a player and how often they played a move.
type PlayerCount = tree.PlayerCount

// Tree lists the moves played from a position in the main lines of the
// games of a ruleset, most played first (internal/tree).
func (db *DB) Tree(ctx context.Context, game string, pos rules.Position) ([]TreeMove, error) {
	rg, err := rules.Lookup(game)
	if err != nil {
		return nil, err
	}
	key := saltKey(rg.ID(), pos.Key())
	r, err := db.pos.Snapshot(ctx)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return tree.Read(ctx, r, rg, key, db.pos.Key(key, false), int(pos.ToMove()), pos.Key(), db.treeWins, db.treeAggDepth())
}

// treeAggDepth is the number of plies the database's opening-tree
// aggregate counts: TreeAggDepth from layout 16 on, TreeDepth before
// (a read-only handle on layout 15 or older reads it as it is).
func (db *DB) treeAggDepth() int {
	if db.treeDeep {
		return TreeAggDepth
	}
	return TreeDepth
}

// errTreeCriterion: a criterion a tree does not take.
var errTreeCriterion = errors.New("not a criterion of an opening tree (the tree's position is its own)")

// FilteredTree lists the moves played from a position in the main lines
// of the valid games of a ruleset that q selects (a player's games as one
// side, a period, an event, a rating band…), as Tree does for every game;
// a query without criteria is Tree. q names no position, moves, pattern
// nor invalid games (a *CriterionError says which it names), and its
// ruleset, if any, is game's.
func (db *DB) FilteredTree(ctx context.Context, game string, pos rules.Position, q Query) ([]TreeMove, error) {
	rg, err := rules.Lookup(game)
	if err != nil {
		return nil, err
	}
	if err := treeCriteria(rg, &q); err != nil {
		return nil, err
	}
	if !q.HasCriteria() {
		return db.Tree(ctx, game, pos)
	}
	salted := saltKey(rg.ID(), pos.Key())
	if p, ok := db.period(&q); ok {
		r, err := db.pos.Snapshot(ctx)
		if err != nil {
			return nil, err
		}
		defer r.Close()
		return tree.ReadMonths(ctx, r, rg, pos, salted, db.pos.Key(salted, false), p, db.treeAggDepth())
	}
	q.Game = rg.ID()
	w, empty, err := db.filters(ctx, &q)
	if err != nil || empty {
		return nil, err
	}
	players := db.treePlayers(&w)
	only, err := db.linesFilter(ctx, &q, &w)
	if err != nil {
		return nil, err
	}
	// The occurrences imply the base (valid games of the ruleset): the
	// games are selected by the other conditions alone.
	base := criteria.Base(&q)
	cond, args := w.From(base.Len())
	r, err := db.pos.Snapshot(ctx)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return db.selectionTree(ctx, r, rg, pos, tree.Games{Query: `SELECT g.id FROM games g WHERE ` + cond, Args: args}, players, only)
}

// treeCriteria checks the criteria of a tree's query and takes its
// ruleset off (the tree's own).
func treeCriteria(rg rules.Game, q *Query) error {
	switch {
	case q.Position != nil:
		return &CriterionError{Name: "position", Err: errTreeCriterion}
	case q.Pattern != nil:
		return &CriterionError{Name: "pattern", Value: q.Pattern.Text, Err: errTreeCriterion}
	case q.Invalid:
		return &CriterionError{Name: "invalid", Err: errors.New("a tree is of valid games")}
	case q.Game != "" && criteria.GameID(q.Game) != rg.ID():
		return &CriterionError{Name: "game", Value: q.Game, Err: fmt.Errorf("the tree is of %s", rg.ID())}
	}
	q.Game = ""
	q.Limit, q.Offset, q.Count = 0, 0, false
	return nil
}

// period is the period of a query (without its ruleset) of dates alone,
// each bound a year or a month, when the database counts its tree by
// month: its tree is then a sum over months (tree.ReadMonths).
func (db *DB) period(q *Query) (tree.Period, bool) {
	only := Query{DateFrom: q.DateFrom, DateTo: q.DateTo}
	if !db.treeMonths || !reflect.DeepEqual(*q, only) {
		return tree.Period{}, false
	}
	var w criteria.Where
	w.Columns(&only, fold)
	p := tree.Period{Cond: w.String(), Args: w.Args(), ShortDates: db.monthDates}
	if q.DateFrom != "" {
		p.From = criteria.QueryDate(q.DateFrom)
	}
	if q.DateTo != "" {
		p.To = criteria.QueryDate(q.DateTo)
	}
	return p, treeagg.MonthsBound(p.From) && treeagg.MonthsBound(p.To)
}
