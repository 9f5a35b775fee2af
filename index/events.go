package index

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/plateau/plateau/index/internal/criteria"
	"github.com/plateau/plateau/index/internal/store"
)

// An event's games are found through the index games_event (a deferred
// index, store.Deferred, layout 20). Query.Event matches a part of the
// event's name, folded (criteria.Contains), which no index answers; but
// the distinct names the games carry are few, and event_names holds the
// event of every valid game (the writer adds it with the game; the
// players' lines refer to it), so a query of valid games turns the part
// into the exact names that hold it, matched in Go, and reads their games
// by the index. A name stays in event_names when its last game goes: the
// names are a superset of the games' events, each holding the part, so
// that their games are exactly those the part's own condition keeps.
//
// Since layout 24 the index also holds what a crosstable reads of a game
// (validity, players, result, ruleset): an event's crosstable, and the
// count of its games, read the index alone, not one row of the games
// table (with its move list) a game.

// upgrade19 turns a layout-19 database into layout 20 in one transaction
// (a kill leaves it at 19): the games indexed by event, and the events of
// the valid games without a player added to event_names (layout 17 filled
// it from the players' lines).
func (db *DB) upgrade19(ctx context.Context) error {
	return db.upgradeTx(ctx, 19, "the games indexed by event", func(tx *sql.Tx) error {
		for _, q := range []string{store.Deferred[3].Def,
			`INSERT OR IGNORE INTO event_names(name) SELECT DISTINCT event FROM games WHERE valid = 1 AND event <> ''`} {
			if _, err := tx.ExecContext(ctx, q); err != nil {
				return fmt.Errorf("upgrade to layout 20: %w", err)
			}
		}
		return nil
	})
}

// upgrade23 turns a layout-23 database into layout 24 in one transaction
// (a kill leaves it at 23): games_event built again with what a
// crosstable reads (store.Deferred). A bulk import's games without their
// deferred indexes are left so: the import builds it at its end.
func (db *DB) upgrade23(ctx context.Context) error {
	return db.upgradeTx(ctx, 23, "the games indexed by event, with their players and results", func(tx *sql.Tx) error {
		var had bool
		if err := tx.QueryRowContext(ctx, `SELECT EXISTS(SELECT 1 FROM sqlite_schema WHERE type = 'index' AND name = ?)`, store.Deferred[3].Name).Scan(&had); err != nil {
			return fmt.Errorf("upgrade to layout 24: %w", err)
		}
		if !had {
			return nil
		}
		for _, q := range []string{`DROP INDEX ` + store.Deferred[3].Name, store.Deferred[3].Def} {
			if _, err := tx.ExecContext(ctx, q); err != nil {
				return fmt.Errorf("upgrade to layout 24: %w", err)
			}
		}
		return nil
	})
}

// eventNamesHolding is the names of event_names that hold text as
// Query.Event matches it (criteria.Contains), whole; ok is false when
// they cannot stand for the games' events (a layout without the index or
// the lines' events, or a text that folds to nothing, which matches every
// event).
func (db *DB) eventNamesHolding(ctx context.Context, text string) (names []string, ok bool, err error) {
	want := criteria.ContainsArg(text, fold)
	if !db.eventIndex || !db.playerLines || want == "" {
		return nil, false, nil
	}
	all, err := db.events.read(ctx, db.sql)
	if err != nil {
		return nil, false, err
	}
	for _, e := range all {
		if strings.Contains(e.folded, want) {
			names = append(names, e.name)
		}
	}
	return names, true, nil
}

// withEventNames adds to w, for a query of valid games, the condition
// that their event is one of the names that hold q.Event
// (eventNamesHolding), which the index answers; none is true when no name
// holds it (no game matches). It is a stage of DB.filters, before
// columnFilters: the names are every valid game's event that holds
// q.Event, folded as columnFilters would fold each row's, so that fold
// (a call back into Go for each row) is left out.
func (db *DB) withEventNames(ctx context.Context, q *Query, w *where) (none bool, err error) {
	if q.Event == "" || q.Invalid {
		return false, nil
	}
	names, ok, err := db.eventNamesHolding(ctx, q.Event)
	if err != nil || !ok {
		return false, err
	}
	if len(names) == 0 {
		return true, nil
	}
	b, err := json.Marshal(names)
	if err != nil {
		return false, err
	}
	w.Add("g.event IN (SELECT value FROM json_each(?))", string(b))
	w.eventNamed = true
	return false, nil
}
