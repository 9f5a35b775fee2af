package stats

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"slices"
	"strings"

	"github.com/plateau/plateau/index/internal/store"
)

// Querier is what reading the counts and sizes needs: the database
// handle.
type Querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// GameCount is the number of games of one ruleset.
type GameCount struct {
	Game           string
	Valid, Invalid int
	Plies          int64
}

// countsKey is the meta entry keeping the games per ruleset and validity
// as an import left them (Counts, JSON).
const countsKey = "counts"

// Counts are the counts of the games with an id up to Last, made when the
// database had had Edits edits.
type Counts struct {
	Last  int64       `json:"last"`
	Edits int64       `json:"edits"`
	Games []GameCount `json:"games"`
}

// GameCounts counts the games per ruleset and validity, sorted by
// ruleset: the stored counts plus the games added since, or every game
// when the meta entry editsKey (the edits made) has changed since the
// counts were stored.
func GameCounts(ctx context.Context, q Querier, editsKey string) (Counts, error) {
	var last, edits sql.NullInt64
	if err := q.QueryRowContext(ctx, `SELECT (SELECT MAX(id) FROM games), (SELECT v FROM meta WHERE k = ?)`, editsKey).Scan(&last, &edits); err != nil {
		return Counts{}, err
	}
	now := Counts{Last: last.Int64, Edits: edits.Int64}
	var old Counts
	var blob sql.NullString
	err := q.QueryRowContext(ctx, `SELECT v FROM meta WHERE k = ?`, countsKey).Scan(&blob)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return Counts{}, err
	}
	after := int64(0)
	if blob.Valid && json.Unmarshal([]byte(blob.String), &old) == nil && old.Edits == now.Edits && old.Last <= now.Last {
		after = old.Last
		now.Games = old.Games
	}
	if now.Last == after {
		return now, nil
	}
	games, err := addCounts(ctx, q, now.Games, after, now.Last)
	if err != nil {
		return Counts{}, err
	}
	now.Games = games
	return now, nil
}

// addCounts adds to games the games with an id in (after, last].
func addCounts(ctx context.Context, q Querier, games []GameCount, after, last int64) ([]GameCount, error) {
	rows, err := q.QueryContext(ctx, `SELECT game, valid, COUNT(*), SUM(plies) FROM games WHERE id > ? AND id <= ? GROUP BY game, valid`, after, last)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var g string
		var valid bool
		var n int
		var plies sql.NullInt64
		if err := rows.Scan(&g, &valid, &n, &plies); err != nil {
			return nil, err
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
		return nil, err
	}
	slices.SortFunc(games, func(a, b GameCount) int { return strings.Compare(a.Game, b.Game) })
	return games, nil
}

// Handle is what storing the counts needs.
type Handle interface {
	Querier
	store.Execer
}

// StoreCounts brings the stored counts up to date (an import calls it
// when it ends: from the counts it found, it counts only its own games).
func StoreCounts(ctx context.Context, db Handle, editsKey string) error {
	c, err := GameCounts(ctx, db, editsKey)
	if err != nil {
		return err
	}
	b, err := json.Marshal(c)
	if err != nil {
		return err
	}
	return store.SetMeta(ctx, db, countsKey, string(b))
}

// Game is what the counts hold of one game: its ruleset, validity and
// plies.
type Game struct {
	Game  string
	Valid bool
	Plies int
}

// Replaced keeps the stored counts right after an edit that stored game
// id again (before, then after), in the edit's transaction and after the
// edit counted itself in editsKey: counts that were right before it (made
// at the edits before, and covering id) are moved from before to after and
// labelled with the edits now, so that the next reader need not count
// every game again; other counts are left as they are (counted again).
func Replaced(ctx context.Context, h Handle, editsKey string, id int64, before, after Game) error {
	var blob sql.NullString
	var edits sql.NullInt64
	err := h.QueryRowContext(ctx, `SELECT (SELECT v FROM meta WHERE k = ?), (SELECT v FROM meta WHERE k = ?)`, countsKey, editsKey).Scan(&blob, &edits)
	if err != nil || !blob.Valid {
		return err
	}
	var c Counts
	if json.Unmarshal([]byte(blob.String), &c) != nil || c.Last < id || c.Edits != edits.Int64-1 {
		return nil
	}
	now := edits.Int64
	c.Games = add(c.Games, before, -1)
	c.Games = add(c.Games, after, 1)
	c.Edits = now
	b, err := json.Marshal(c)
	if err != nil {
		return err
	}
	return store.SetMeta(ctx, h, countsKey, string(b))
}

// add adds n times g to the counts games, kept sorted by ruleset; a
// ruleset left without games is dropped.
func add(games []GameCount, g Game, n int) []GameCount {
	i := slices.IndexFunc(games, func(c GameCount) bool { return c.Game == g.Game })
	if i < 0 {
		games = append(games, GameCount{Game: g.Game})
		i = len(games) - 1
	}
	if g.Valid {
		games[i].Valid += n
		games[i].Plies += int64(n * g.Plies)
	} else {
		games[i].Invalid += n
	}
	if games[i].Valid == 0 && games[i].Invalid == 0 {
		games = slices.Delete(games, i, i+1)
	}
	slices.SortFunc(games, func(a, b GameCount) int { return strings.Compare(a.Game, b.Game) })
	return games
}
