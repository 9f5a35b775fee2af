package index

import (
	"context"
	"fmt"
	"reflect"

	"github.com/plateau/plateau/index/internal/criteria"
	"github.com/plateau/plateau/index/internal/playerlines"
	"github.com/plateau/plateau/index/internal/tree"
)

// upgrade12 turns a layout-12 database into layout 13 in one transaction
// (a kill leaves it at 12, and the next writable open starts again): the
// players' opening lines (internal/playerlines), filled from the stored
// games.
func (db *DB) upgrade12(ctx context.Context) error {
	if db.notice != nil {
		db.notice(fmt.Sprintf("upgrading the database in %s from layout 12 to 13 (the opening lines of each player's games)…", db.dir))
	}
	tx, err := db.sql.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	for _, q := range []string{`DROP TABLE IF EXISTS player_lines`, playerlines.Table} {
		if _, err := tx.ExecContext(ctx, q); err != nil {
			return fmt.Errorf("upgrade to layout 13: %w", err)
		}
	}
	if err := playerlines.Fill(ctx, tx, TreeDepth); err != nil {
		return fmt.Errorf("upgrade to layout 13: %w", err)
	}
	if err := setMeta(ctx, tx, "schema", 13); err != nil {
		return err
	}
	return tx.Commit()
}

// treePlayers are the players, each on a side, whose lines
// (internal/playerlines) hold every game that w (of a query) selects: the
// players a side's name matched (Query.Players, the first side named),
// else those of Query.Player on both sides; none when the query names no
// player, or the database keeps no lines (a read-only handle on an older
// layout).
func (db *DB) treePlayers(w *where) []tree.PlayerSide {
	if !db.playerLines {
		return nil
	}
	var out []tree.PlayerSide
	for side, ids := range w.sides {
		if len(ids) == 0 {
			continue
		}
		for _, id := range ids {
			out = append(out, tree.PlayerSide{Player: id, Side: side})
		}
		return out
	}
	for side := range 2 {
		for _, id := range w.named {
			out = append(out, tree.PlayerSide{Player: id, Side: side})
		}
	}
	return out
}

// linesFilter is the filter of a query (of a tree, its ruleset set) that
// selects the games of a player alone — Query.Player (either side), or one
// side's name (Query.Players) — or of a period or a result too, which the
// players' lines answer alone (tree.LineFilter, the conditions
// criteria.Where writes); nil for any other.
func linesFilter(q *Query) *tree.LineFilter {
	only := Query{Game: q.Game, Player: q.Player, Players: q.Players, DateFrom: q.DateFrom, DateTo: q.DateTo, Result: q.Result}
	named := 0
	for _, s := range []string{q.Player, q.Players[0], q.Players[1]} {
		if s != "" {
			named++
		}
	}
	if named != 1 || !reflect.DeepEqual(*q, only) {
		return nil
	}
	f := &tree.LineFilter{Result: q.Result}
	if q.DateFrom != "" {
		f.From = criteria.QueryDate(q.DateFrom)
	}
	if q.DateTo != "" {
		f.To = criteria.QueryDate(q.DateTo) + "~"
	}
	return f
}
