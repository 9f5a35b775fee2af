package index

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"slices"
	"strings"
)

// countsKey is the meta entry keeping the games per ruleset and validity
// as an import left them (storedCounts, JSON): counting them reads the
// whole games table (seconds in a large database: docs/storage.md), which
// a server starting on a large database, or asked again after each commit
// of an import, should not pay.
const countsKey = "counts"

// storedCounts are the counts of the games with an id up to Last, made
// when the database had had Edits edits (editsKey).
type storedCounts struct {
	Last  int64       `json:"last"`
	Edits int64       `json:"edits"`
	Games []GameCount `json:"games"`
}

// gameCounts counts the games per ruleset and validity, sorted by
// ruleset: the stored counts plus the games added since (ids only grow
// while nothing is deleted), or every game when the database was edited
// since the counts were stored (a delete or a repair bumps editsKey).
//
// No transaction is needed: the last id and the edits are read first and
// the games counted up to that id; an edit made meanwhile leaves the
// result labelled with the edits before it, so that it is counted again
// next time.
func (db *DB) gameCounts(ctx context.Context) (storedCounts, error) {
	var last, edits sql.NullInt64
	if err := db.sql.QueryRowContext(ctx, `SELECT (SELECT MAX(id) FROM games), (SELECT v FROM meta WHERE k = '`+editsKey+`')`).Scan(&last, &edits); err != nil {
		return storedCounts{}, err
	}
	now := storedCounts{Last: last.Int64, Edits: edits.Int64}
	var old storedCounts
	var blob sql.NullString
	err := db.sql.QueryRowContext(ctx, `SELECT v FROM meta WHERE k = ?`, countsKey).Scan(&blob)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return storedCounts{}, err
	}
	after := int64(0)
	if blob.Valid && json.Unmarshal([]byte(blob.String), &old) == nil && old.Edits == now.Edits && old.Last <= now.Last {
		after = old.Last
		now.Games = old.Games
	}
	if now.Last == after {
		return now, nil
	}
	rows, err := db.sql.QueryContext(ctx, `SELECT game, valid, COUNT(*), SUM(plies) FROM games WHERE id > ? AND id <= ? GROUP BY game, valid`, after, now.Last)
	if err != nil {
		return storedCounts{}, err
	}
	defer rows.Close()
	games := now.Games // old's, decoded for this call
	for rows.Next() {
		var g string
		var valid bool
		var n int
		var plies sql.NullInt64
		if err := rows.Scan(&g, &valid, &n, &plies); err != nil {
			return storedCounts{}, err
		}
		i := slices.IndexFunc(games, func(c GameCount) bool { return c.Game == g })
		if i < 0 {
			games = append(games, GameCount{Game: g})
			i = len(games) - 1
		}
		if valid {
			games[i].Valid += n
			games[i].Plies += plies.Int64
		} else {
			games[i].Invalid += n
		}
	}
	if err := rows.Err(); err != nil {
		return storedCounts{}, err
	}
	slices.SortFunc(games, func(a, b GameCount) int { return strings.Compare(a.Game, b.Game) })
	now.Games = games
	return now, nil
}

// storeCounts brings the stored counts up to date (an import calls it
// when it ends: from the counts it found, it counts only its own games).
func (db *DB) storeCounts(ctx context.Context) error {
	c, err := db.gameCounts(ctx)
	if err != nil {
		return err
	}
	b, err := json.Marshal(c)
	if err != nil {
		return err
	}
	return setMeta(ctx, db.sql, countsKey, string(b))
}
