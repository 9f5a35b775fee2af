package index

import (
	"cmp"
	"context"
	"database/sql"
	"fmt"
	"sync"

	"github.com/plateau/plateau/index/internal/criteria"
	"github.com/plateau/plateau/index/internal/posrun"
	"github.com/plateau/plateau/index/internal/tree"
	"github.com/plateau/plateau/rules"
)

// The tree of some of the games (FilteredTree) is read one of two ways
// (internal/tree): from the position's occurrences kept to the games
// (tree.ReadGames), or, for a selection of at most maxLineGames games at a
// position the aggregate counts more often than that, from the games'
// opening lines (tree.ReadLines), which the handle keeps for the next
// trees of the same selection: a player's repertoire is stepped through
// move by move, its games read once.
const (
	// maxLineGames bounds the games of a selection whose lines are read
	// (a player's games, an event's).
	maxLineGames = 20_000
	// maxKeptLines bounds the games of the lines kept, over every
	// selection.
	maxKeptLines = 100_000
)

// treeLines keeps the opening lines of the last selections read, while the
// database is in the same state (its last game id and count of edits).
type treeLines struct {
	mu    sync.Mutex
	state criteria.State
	m     map[string]*tree.Lines
	games int
}

// get is the lines kept of selection key in state.
func (c *treeLines) get(state criteria.State, key string) (*tree.Lines, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	l, ok := c.m[key]
	return l, ok && c.state == state
}

// put keeps the lines of selection key in state, dropping the others when
// the state changed or they would hold too many games.
func (c *treeLines) put(state criteria.State, key string, l *tree.Lines) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || c.state != state || c.games+l.Games() > maxKeptLines {
		c.m, c.state, c.games = map[string]*tree.Lines{}, state, 0
	}
	c.m[key] = l
	c.games += l.Games()
}

// selectionTree is the tree of pos in the games that games selects, read
// in the snapshot r from the kept lines of the selection, from lines read
// now (of the players' lines of players first, when the selection is of
// their games), or from the occurrences. only, if not nil: games selects
// the games of players that it keeps and no other, which the players'
// lines give alone (tree.ReadPlayerGames).
func (db *DB) selectionTree(ctx context.Context, r *posrun.Snapshot, rg rules.Game, pos rules.Position, games tree.Games, players []tree.PlayerSide, only *tree.LineFilter) ([]TreeMove, error) {
	salted := saltKey(rg.ID(), pos.Key())
	deepKey := db.pos.Key(salted, false)
	state, err := dbState(ctx, r.Conn())
	if err != nil {
		return nil, err
	}
	key := rg.ID() + "\x00" + games.Query + "\x00" + fmt.Sprint(games.Args...)
	limit := cmp.Or(db.lineGames, maxLineGames)
	if l, ok := db.lines.get(state, key); ok && limit > 0 {
		return tree.ReadFromLines(ctx, r, rg, pos, deepKey, l)
	}
	if only != nil && len(players) > 0 && limit > 0 {
		sel, l, err := tree.ReadPlayerGames(ctx, r, rg, players, only, limit)
		if err != nil || l == nil {
			if err != nil {
				return nil, err
			}
			return tree.ReadGames(ctx, r, rg, pos, db.positionKeys(salted), sel)
		}
		db.lines.put(state, key, l)
		return tree.ReadFromLines(ctx, r, rg, pos, deepKey, l)
	}
	sel, err := tree.Select(ctx, r, games)
	if err != nil {
		return nil, err
	}
	if n := len(sel.IDs); n > 0 && n <= limit {
		shallow, err := tree.Counted(ctx, r, salted)
		if err != nil {
			return nil, err
		}
		if shallow > n {
			l, err := tree.ReadLines(ctx, r, rg, sel, players)
			if err != nil {
				return nil, err
			}
			db.lines.put(state, key, l)
			return tree.ReadFromLines(ctx, r, rg, pos, deepKey, l)
		}
	}
	return tree.ReadGames(ctx, r, rg, pos, db.positionKeys(salted), sel)
}

// dbState is the database's state as q sees it: its last game id and its
// count of edits.
func dbState(ctx context.Context, q posrun.Querier) (criteria.State, error) {
	var id, edits sql.NullInt64
	err := q.QueryRowContext(ctx, `SELECT (SELECT MAX(id) FROM games), (SELECT v FROM meta WHERE k = '`+editsKey+`')`).Scan(&id, &edits)
	return criteria.State{id.Int64, edits.Int64}, err
}
