package index

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/plateau/plateau/index/internal/movelist"
	"github.com/plateau/plateau/index/internal/store"
	"github.com/plateau/plateau/index/internal/treeagg"
	"github.com/plateau/plateau/rules"
)

// upgrade15 turns a layout-15 database into layout 16 in one transaction
// (a kill leaves it at 15, and the next writable open starts again): the
// opening-tree aggregate, which counted the main lines' moves of their
// first TreeDepth plies, counts those of TreeAggDepth plies. The moves of
// the plies in between are read from every valid game's stored move list
// (deepTreeMoves) and added to the tree's rows, players and months
// (treeagg.AddGames). The position runs are not rewritten: their marked
// keys stay at TreeDepth plies, and a tree keeps the occurrences from the
// aggregate's depth on (tree.Read).
func (db *DB) upgrade15(ctx context.Context) error {
	return db.upgradeTx(ctx, 15, "the opening tree one ply deeper", func(tx *sql.Tx) error {
		if err := countDeeper(ctx, tx); err != nil {
			return fmt.Errorf("upgrade to layout 16: %w", err)
		}
		return nil
	})
}

// upgrade17 turns a layout-17 database into layout 18 in one transaction:
// tree_months' dates are rewritten in their stored form, without their
// month (treeagg.ShortenDates). The old table's pages are given back after
// the commit when the file allows it (store.GiveBack).
func (db *DB) upgrade17(ctx context.Context) error {
	if err := db.upgradeTx(ctx, 17, "the opening tree's months without their dates' month", func(tx *sql.Tx) error {
		if err := treeagg.ShortenDates(ctx, tx); err != nil {
			return fmt.Errorf("upgrade to layout 18: %w", err)
		}
		return nil
	}); err != nil {
		return err
	}
	conn, err := db.sql.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	_, err = store.GiveBack(ctx, conn)
	return err
}

// countDeeper adds to the aggregate the opening-tree moves of plies
// TreeDepth to TreeAggDepth-1 of every valid game, read from its stored
// move list, with the player who made each (the game's player of the
// side to move), winsBatch moves at a time. A game whose moves cannot be
// read again is an error: the aggregate would be left short.
func countDeeper(ctx context.Context, tx *sql.Tx) error {
	b := entryBatch{add: treeagg.AddGames}
	err := eachStoredGame(ctx, tx, func(g *storedGame) error {
		moves, err := deepTreeMoves(g.game, g.fen, g.moves)
		if err != nil {
			return fmt.Errorf("game #%d: %w", g.id, err)
		}
		if len(moves) == 0 {
			return nil
		}
		i := b.game(g)
		for _, m := range moves {
			b.es = append(b.es, treeagg.Entry{Pos: saltKey(g.game, m.key), Move: m.text, Player: g.players[m.mover], Game: i})
		}
		return b.flush(ctx, tx, false)
	})
	if err != nil {
		return err
	}
	return b.flush(ctx, tx, true)
}

// deepMove is an opening-tree move of a stored game: the rules' key of
// the position it is played from, its text and the side that played it.
type deepMove struct {
	key   uint64
	text  string
	mover int
}

// deepTreeMoves are the opening-tree moves of plies TreeDepth to
// TreeAggDepth-1 of a stored game of ruleset game from its start fen ("":
// the standard one) and move list blob, counted as the import counts them
// (gamerows: the moves that hand the turn over, as movelist.MainMoves).
func deepTreeMoves(game, fen string, blob []byte) (out []deepMove, err error) {
	rg, err := rules.Lookup(game)
	if err != nil {
		return nil, err
	}
	start, err := rg.NewPosition(fen)
	if err != nil {
		return nil, err
	}
	ml, err := movelist.Decode(blob)
	if err != nil {
		return nil, err
	}
	defer func() {
		if recover() != nil {
			out, err = nil, fmt.Errorf("%w: a move does not play", movelist.ErrCorrupt)
		}
	}()
	pos := start.Clone()
	p := 0
	for _, k := range ml.Main {
		if p >= TreeAggDepth {
			break
		}
		m := ml.Steps[k].Move
		if !rules.KeepsTurn(pos, m) {
			if p >= TreeDepth {
				out = append(out, deepMove{pos.Key(), pos.FormatMove(m), int(pos.ToMove())})
			}
			p++
		}
		pos.Play(m)
	}
	return out, nil
}
