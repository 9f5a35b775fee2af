package index

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/plateau/plateau/index/internal/criteria"
	"github.com/plateau/plateau/index/internal/movelist"
	"github.com/plateau/plateau/index/internal/players"
	"github.com/plateau/plateau/rules"
)

// Profile is a player's page: results by ruleset and side, by year,
// against each opponent, and the first moves played (players.Profile).
type Profile = players.Profile

// Period narrows a player's page to the games of a period: From and To
// are dates or date prefixes as the search criteria take them ("1990",
// "1990.05", "13-01-1996"), either may be empty (no bound). A page with a
// bound counts only dated games.
type Period struct{ From, To string }

// Player returns the page of the player named name over the games of
// period: the name as stored, or else the one player whose name matches
// it as player criteria match (MatchPlayers); ErrNotFound when there is
// none or several. It counts the player's valid games (an invalid
// record's result is not trusted).
func (db *DB) Player(ctx context.Context, name string, period Period) (Profile, error) {
	id, stored, err := db.playerID(ctx, name)
	if err != nil {
		return Profile{}, err
	}
	rows, err := db.sql.QueryContext(ctx, profileQuery(period, db.openings), id, criteria.QueryDate(period.From), criteria.QueryDate(period.To)+"~")
	if err != nil {
		return Profile{}, err
	}
	defer rows.Close()
	var games []players.ProfileGame
	starts := map[[2]string]rules.Position{}
	for rows.Next() {
		var g players.ProfileGame
		var opp, date, res, fen, named sql.NullString
		var blob []byte
		if err := rows.Scan(&g.Game, &g.Side, &opp, &date, &res, &fen, &blob, &named); err != nil {
			return Profile{}, err
		}
		g.Opponent, g.Date, g.Result, g.Named = opp.String, date.String, res.String, named.String
		g.Opening = firstMoves(starts, g.Game, fen.String, blob, players.OpeningPlies)
		games = append(games, g)
	}
	if err := rows.Err(); err != nil {
		return Profile{}, err
	}
	p := players.NewProfile(stored, games)
	p.From, p.To = period.From, period.To
	return p, nil
}

// profileQuery reads a player's valid games (?1), each side through its
// player index, dated from ?2 to ?3 when period has those bounds, with
// their opening's name when the layout has names (named).
func profileQuery(period Period, named bool) string {
	dates := ""
	if period.From != "" {
		dates += " AND g.date >= ?2"
	}
	if period.To != "" {
		dates += " AND g.date <= ?3"
	}
	name, join := "NULL", ""
	if named {
		name, join = "op.name", criteria.OpeningJoin
	}
	return `SELECT g.game, 0, o.name, g.date, g.result, g.fen, g.moves, ` + name + ` FROM games g LEFT JOIN players o ON o.id = g.p1` + join + `
	WHERE g.p0 = ?1 AND g.valid = 1` + dates + `
	UNION ALL
	SELECT g.game, 1, o.name, g.date, g.result, g.fen, g.moves, ` + name + ` FROM games g LEFT JOIN players o ON o.id = g.p0` + join + `
	WHERE g.p1 = ?1 AND g.valid = 1` + dates
}

// playerID is the id and stored name of the player name.
func (db *DB) playerID(ctx context.Context, name string) (int64, string, error) {
	var id int64
	err := db.sql.QueryRowContext(ctx, `SELECT id FROM players WHERE name = ?`, name).Scan(&id)
	if err == nil {
		return id, name, nil
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return 0, "", err
	}
	ids, err := db.MatchPlayers(ctx, name)
	if err != nil {
		return 0, "", err
	}
	if len(ids) != 1 {
		return 0, "", fmt.Errorf("player %q: %d players match: %w", name, len(ids), ErrNotFound)
	}
	var stored string
	if err := db.sql.QueryRowContext(ctx, `SELECT name FROM players WHERE id = ?`, ids[0]).Scan(&stored); err != nil {
		return 0, "", err
	}
	return ids[0], stored, nil
}

// firstMoves are the texts of the first n main-line plies of a stored
// move list played from fen (the ruleset's start when empty), fewer when
// the game is shorter, nil when the list or start cannot be read. starts
// keeps the start positions parsed.
func firstMoves(starts map[[2]string]rules.Position, game, fen string, blob []byte, n int) (out []string) {
	defer func() {
		if recover() != nil {
			out = nil // a stored list the rules refuse: no opening rather than no page
		}
	}()
	start, ok := starts[[2]string{game, fen}]
	if !ok {
		g, err := rules.Lookup(game)
		if err == nil {
			start, err = g.NewPosition(fen)
		}
		if err != nil {
			start = nil
		}
		starts[[2]string{game, fen}] = start
	}
	if start == nil {
		return nil
	}
	ml, err := movelist.Decode(blob)
	if err != nil {
		return nil
	}
	pos := start.Clone()
	for _, k := range ml.Main {
		if len(out) == n {
			break
		}
		m := ml.Steps[k].Move
		if !rules.KeepsTurn(pos, m) {
			out = append(out, pos.FormatMove(m))
		}
		pos.Play(m)
	}
	return out
}
