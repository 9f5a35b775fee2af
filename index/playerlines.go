package index

import (
	"context"
	"database/sql"
	"fmt"
	"reflect"
	"strings"
	"sync"

	"github.com/plateau/plateau/index/internal/criteria"
	"github.com/plateau/plateau/index/internal/playerlines"
	"github.com/plateau/plateau/index/internal/tree"
)

// upgrade12 turns a layout-12 database into layout 13 in one transaction
// (a kill leaves it at 12, and the next writable open starts again): the
// table of the players' opening lines (internal/playerlines), empty: the
// upgrade to layout 17 (upgrade16), which follows, fills it.
func (db *DB) upgrade12(ctx context.Context) error {
	return db.upgradeTx(ctx, 12, "the opening lines of each player's games", func(tx *sql.Tx) error {
		for _, q := range []string{`DROP TABLE IF EXISTS player_lines`, playerlines.Table} {
			if _, err := tx.ExecContext(ctx, q); err != nil {
				return fmt.Errorf("upgrade to layout 13: %w", err)
			}
		}
		return nil
	})
}

// upgrade16 turns a layout-16 database into layout 17 in one transaction
// (a kill leaves it at 16): the players' lines are filled again, with
// their games' events (event_names) and ratings.
func (db *DB) upgrade16(ctx context.Context) error {
	return db.upgradeTx(ctx, 16, "the events and ratings of each player's games", func(tx *sql.Tx) error {
		for _, q := range []string{`DROP TABLE IF EXISTS player_lines`, `DROP TABLE IF EXISTS event_names`, playerlines.Table, playerlines.EventsTable} {
			if _, err := tx.ExecContext(ctx, q); err != nil {
				return fmt.Errorf("upgrade to layout 17: %w", err)
			}
		}
		if err := playerlines.Fill(ctx, tx, TreeDepth); err != nil {
			return fmt.Errorf("upgrade to layout 17: %w", err)
		}
		return nil
	})
}

// upgrade20 turns a layout-20 database into layout 21 in one transaction
// (a kill leaves it at 20): the lines of the games whose records hold
// several values of one rating tag get every value (playerlines.Elo), as
// criteria's SQL reads them; the other lines are left as they are.
func (db *DB) upgrade20(ctx context.Context) error {
	return db.upgradeTx(ctx, 20, "every value of a rating tag given twice, in the players' lines", func(tx *sql.Tx) error {
		if _, err := playerlines.FillSeveral(ctx, tx, playerlines.Elo); err != nil {
			return fmt.Errorf("upgrade to layout 21: %w", err)
		}
		return nil
	})
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

// linesFilter is the filter of a query (of a tree, its ruleset set; w
// its conditions) that selects the games of one player — Query.Player
// (either side, against Query.Opponent if set), or one side's name
// (Query.Players), against the other side's if both are named — in a
// period, an event, a rating band or with a result, which the players'
// lines answer alone (tree.LineFilter, the conditions criteria.Where
// writes); nil for any other.
func (db *DB) linesFilter(ctx context.Context, q *Query, w *where) (*tree.LineFilter, error) {
	only := Query{Game: q.Game, Player: q.Player, Players: q.Players, Opponent: q.Opponent, Event: q.Event,
		DateFrom: q.DateFrom, DateTo: q.DateTo, Result: q.Result, MinElo: q.MinElo, MaxElo: q.MaxElo}
	if !db.playerLines || !reflect.DeepEqual(*q, only) {
		return nil, nil
	}
	f := &tree.LineFilter{Result: q.Result}
	switch {
	case q.Player != "" && q.Players == [2]string{}:
		if q.Opponent != "" {
			f.Opponents = idSet(w.opponents)
		}
	case q.Player == "" && q.Players[0] != "" && q.Players[1] != "":
		f.Opponents = idSet(w.sides[1]) // treePlayers reads side 0's
	case q.Player != "" || q.Players[0] == q.Players[1]:
		return nil, nil // several names, or none
	}
	if q.DateFrom != "" {
		f.From = criteria.QueryDate(q.DateFrom)
	}
	if q.DateTo != "" {
		f.To = criteria.QueryDate(q.DateTo) + "~"
	}
	if q.MinElo > 0 || q.MaxElo > 0 {
		if !db.linesSeveralElo {
			return nil, nil // the lines may hold one of a side's ratings
		}
		f.Rated, f.EloSpans = true, criteria.EloSpans(q.MinElo, q.MaxElo)
	}
	if q.Event != "" {
		var err error
		if f.Events, err = db.eventIDs(ctx, q.Event); err != nil {
			return nil, err
		}
	}
	return f, nil
}

// idSet is ids as a set.
func idSet(ids []int64) map[int64]bool {
	out := make(map[int64]bool, len(ids))
	for _, id := range ids {
		out[id] = true
	}
	return out
}

// eventIDs are the ids of the events (event_names) whose name holds text,
// as criteria's Event compares them (criteria.Contains: both folded).
func (db *DB) eventIDs(ctx context.Context, text string) (map[int64]bool, error) {
	names, err := db.events.read(ctx, db.sql)
	if err != nil {
		return nil, err
	}
	want := criteria.ContainsArg(text, fold)
	out := map[int64]bool{}
	for _, e := range names {
		if strings.Contains(e.folded, want) {
			out[e.id] = true
		}
	}
	return out, nil
}

// eventNames keeps the folded names of event_names, which only grows
// (its rows are added, never changed or deleted, but by an upgrade that
// fills it before the handle reads it): a read adds the rows of greater
// ids than the last read.
type eventNames struct {
	mu    sync.Mutex
	names []eventName
}

type eventName struct {
	id     int64
	name   string
	folded string
}

// read is every event's folded name, read from q.
func (e *eventNames) read(ctx context.Context, q *sql.DB) ([]eventName, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	last := int64(0)
	if n := len(e.names); n > 0 {
		last = e.names[n-1].id
	}
	rows, err := q.QueryContext(ctx, `SELECT id, name FROM event_names WHERE id > ? ORDER BY id`, last)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		var name string
		if err := rows.Scan(&id, &name); err != nil {
			return nil, err
		}
		e.names = append(e.names, eventName{id, name, fold(name)})
	}
	return e.names, rows.Err()
}
