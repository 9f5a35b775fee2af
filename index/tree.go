package index

import (
	"context"

	"github.com/plateau/plateau/index/internal/tree"
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
	return tree.Read(ctx, r, rg, key, db.pos.Key(key, false), int(pos.ToMove()), db.treeWins)
}
