package index

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/plateau/plateau/index/internal/movelist"
	"github.com/plateau/plateau/index/internal/openings"
	"github.com/plateau/plateau/index/internal/posrun"
	"github.com/plateau/plateau/index/internal/revisions"
	"github.com/plateau/plateau/index/internal/treeagg"
	"github.com/plateau/plateau/rules"
)

// upgradableVersion is the one older layout that Open upgrades in place
// (a writable open): layout 5 differs from 6 only in how the opening
// tree's players are kept (internal/treeagg), which its tree_players rows
// give in full. Older layouts must be imported again.
const upgradableVersion = 5

// upgrade5 turns a layout-5 database into layout 6 in one transaction (a
// kill leaves it at 5, and the next writable open starts again): the
// opening tree's players are converted (treeagg.Upgrade5).
func (db *DB) upgrade5(ctx context.Context) error {
	return db.upgradeTx(ctx, 5, "the opening tree's players", func(tx *sql.Tx) error {
		if err := treeagg.Upgrade5(ctx, tx); err != nil {
			return err
		}
		return nil
	})
}

// upgrade7 turns a layout-7 database into layout 8 in one transaction: the
// tables of the games' revisions (internal/revisions) and of the position
// occurrences an edit made untrue (posrun.GoneTable), both empty. A
// layout-7 program would read an edited game's old positions as its own:
// the layout version keeps it out.
func (db *DB) upgrade7(ctx context.Context) error {
	if err := db.upgradeTx(ctx, 7, "revisions of edited games", func(tx *sql.Tx) error {
		for _, q := range []string{revisions.Table, posrun.GoneTable} {
			if _, err := tx.ExecContext(ctx, q); err != nil {
				return fmt.Errorf("upgrade to layout 8: %w", err)
			}
		}
		return nil
	}); err != nil {
		return err
	}
	return db.noticeSideOrder(ctx)
}

// noticeSideOrder tells, on the upgrade from a layout older than 8, how
// many games of checkers, pool and thai the database holds: older layouts
// were written when these rulesets named White first and read 1-0 as
// White's win, which PDN 2.0 gives to Black, the first mover. The stored
// games are not replayed by the upgrade (their records may have been read
// as invalid for that very reason): importing their files again replaces
// them.
func (db *DB) noticeSideOrder(ctx context.Context) error {
	if db.notice == nil {
		return nil
	}
	var n int64
	if err := db.sql.QueryRowContext(ctx, `SELECT COUNT(*) FROM games WHERE game IN ('checkers', 'pool', 'thai')`).Scan(&n); err != nil {
		return err
	}
	if n > 0 {
		db.notice(fmt.Sprintf("%d checkers, pool or thai games were stored when these rulesets named White first: Black moves first and 1-0 is Black's win (PDN 2.0); import their files again to read them so", n))
	}
	return nil
}

// upgrade8 turns a layout-8 database into layout 9 in one transaction (a
// kill leaves it at 8, and the next writable open starts again): the
// opening tree's rows gain the games each side won (treeagg.Upgrade8),
// counted from the stored games (countWins).
func (db *DB) upgrade8(ctx context.Context) error {
	return db.upgradeTx(ctx, 8, "the games each side won, in the opening tree", func(tx *sql.Tx) error {
		if err := treeagg.Upgrade8(ctx, tx); err != nil {
			return err
		}
		if err := countWins(ctx, tx); err != nil {
			return fmt.Errorf("upgrade to layout 9: %w", err)
		}
		return nil
	})
}

// winsBatch is the number of tree moves whose wins countWins holds before
// it adds them to their rows: a bound on its memory (a game's deepest
// tree moves are mostly its own).
const winsBatch = 1 << 18

// countWins adds to the tree rows the wins of every valid game that one
// side won: the moves of its main line's first TreeDepth plies, read from
// its stored move list as the import counted them (movelist.MainMoves). A
// game whose moves cannot be read again is an error: its row counts would
// be left short.
func countWins(ctx context.Context, tx *sql.Tx) error {
	wins := map[treeagg.Key][2]int{}
	err := eachStoredGame(ctx, tx, func(g *storedGame) error {
		s0, s1, scored := scores(g.result)
		w := treeagg.Wins(s0, s1)
		if !scored || w == [2]int{} {
			return nil
		}
		moves, err := storedTreeMoves(g.game, g.fen, g.moves)
		if err != nil {
			return fmt.Errorf("game #%d: %w", g.id, err)
		}
		for _, m := range moves {
			k := treeagg.Key{Pos: saltKey(g.game, m.Key), Move: m.Text}
			c := wins[k]
			wins[k] = [2]int{c[0] + w[0], c[1] + w[1]}
		}
		if len(wins) >= winsBatch {
			if err := treeagg.AddWins(ctx, tx, wins); err != nil {
				return err
			}
			clear(wins)
		}
		return nil
	})
	if err != nil {
		return err
	}
	return treeagg.AddWins(ctx, tx, wins)
}

// storedGame is a valid game's row as the tree upgrades read it.
type storedGame struct {
	id                int64
	game              string
	result, date, fen string
	moves             []byte // the stored move list
	players           [2]int64
}

// eachStoredGame calls fn with the row of every valid game, in id order,
// until fn fails.
func eachStoredGame(ctx context.Context, tx *sql.Tx, fn func(*storedGame) error) error {
	rows, err := tx.QueryContext(ctx, `SELECT id, game, result, date, fen, moves, p0, p1 FROM games WHERE valid = 1`)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var g storedGame
		var res, date, fen sql.NullString
		var p [2]sql.NullInt64
		if err := rows.Scan(&g.id, &g.game, &res, &date, &fen, &g.moves, &p[0], &p[1]); err != nil {
			return err
		}
		g.result, g.date, g.fen, g.players = res.String, date.String, fen.String, [2]int64{p[0].Int64, p[1].Int64}
		if err := fn(&g); err != nil {
			return err
		}
	}
	return rows.Err()
}

// entryBatch gathers a tree upgrade's entries and their games, and adds
// them to the aggregate (add) winsBatch moves at a time.
type entryBatch struct {
	es    []treeagg.Entry
	games []treeagg.Game
	add   func(ctx context.Context, tx treeagg.Tx, es []treeagg.Entry, games []treeagg.Game) error
}

// game starts the entries of stored game g, whose index it returns.
func (b *entryBatch) game(g *storedGame) int32 {
	s0, s1, scored := scores(g.result)
	b.games = append(b.games, treeagg.Game{Date: g.date, S0: s0, S1: s1, Scored: scored})
	return int32(len(b.games) - 1)
}

// flush adds the entries gathered once they are winsBatch, or all of
// them when end.
func (b *entryBatch) flush(ctx context.Context, tx *sql.Tx, end bool) error {
	if !end && len(b.es) < winsBatch {
		return nil
	}
	if err := b.add(ctx, tx, b.es, b.games); err != nil {
		return err
	}
	b.es, b.games = b.es[:0], b.games[:0]
	return nil
}

// storedTreeMoves are the opening-tree moves of a stored game of ruleset
// game from its start fen ("": the standard one) and move list blob.
func storedTreeMoves(game, fen string, blob []byte) ([]movelist.Played, error) {
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
	moves, ok := movelist.MainMoves(ml, start, TreeDepth)
	if !ok {
		return nil, fmt.Errorf("%w: a move does not play", movelist.ErrCorrupt)
	}
	return moves, nil
}

// upgrade9 turns a layout-9 database into layout 10 in one transaction (a
// kill leaves it at 9, and the next writable open starts again): the
// opening tree's counts by month (treeagg.MonthsTable), counted from the
// stored games (countMonths).
func (db *DB) upgrade9(ctx context.Context) error {
	return db.upgradeTx(ctx, 9, "the opening tree by month", func(tx *sql.Tx) error {
		for _, q := range []string{`DROP TABLE IF EXISTS tree_months`, treeagg.MonthsTable} {
			if _, err := tx.ExecContext(ctx, q); err != nil {
				return fmt.Errorf("upgrade to layout 10: %w", err)
			}
		}
		if err := countMonths(ctx, tx); err != nil {
			return fmt.Errorf("upgrade to layout 10: %w", err)
		}
		return nil
	})
}

// countMonths adds to tree_months the opening-tree moves of every valid
// game, read from its stored move list as the import counted them
// (storedTreeMoves), winsBatch moves at a time.
func countMonths(ctx context.Context, tx *sql.Tx) error {
	b := entryBatch{add: treeagg.AddMonths}
	err := eachStoredGame(ctx, tx, func(g *storedGame) error {
		moves, err := storedTreeMoves(g.game, g.fen, g.moves)
		if err != nil {
			return fmt.Errorf("game #%d: %w", g.id, err)
		}
		i := b.game(g)
		for _, m := range moves {
			b.es = append(b.es, treeagg.Entry{Pos: saltKey(g.game, m.Key), Move: m.Text, Game: i})
		}
		return b.flush(ctx, tx, false)
	})
	if err != nil {
		return err
	}
	return b.flush(ctx, tx, true)
}

// upgrade10 turns a layout-10 database into layout 11 in one transaction:
// the tables of the opening names (internal/openings), empty (no game
// has a name until names are imported).
func (db *DB) upgrade10(ctx context.Context) error {
	return db.upgradeTx(ctx, 10, "opening names", func(tx *sql.Tx) error {
		for _, q := range openings.Tables {
			if _, err := tx.ExecContext(ctx, q); err != nil {
				return fmt.Errorf("upgrade to layout 11: %w", err)
			}
		}
		return nil
	})
}

// upgrade11 brings a layout-11 database to 12: the opening names' folded
// form (openings.folded), which the list sorts by.
func (db *DB) upgrade11(ctx context.Context) error {
	return db.upgradeTx(ctx, 11, "folded opening names", func(tx *sql.Tx) error {
		if err := openings.AddFolded(ctx, tx); err != nil {
			return fmt.Errorf("upgrade to layout 12: %w", err)
		}
		return nil
	})
}

// upgradeTx runs one layout upgrade, from layout from to from+1, in one
// transaction (a kill leaves the database at from, and the next writable
// open starts it again): it tells what the upgrade adds (Options.Notice),
// runs step in the transaction and records the new layout there.
func (db *DB) upgradeTx(ctx context.Context, from int, what string, step func(tx *sql.Tx) error) error {
	if db.notice != nil {
		db.notice(fmt.Sprintf("upgrading the database in %s from layout %d to %d (%s)…", db.dir, from, from+1, what))
	}
	tx, err := db.sql.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := step(tx); err != nil {
		return err
	}
	if err := setMeta(ctx, tx, "schema", from+1); err != nil {
		return err
	}
	return tx.Commit()
}
