package openings

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/plateau/plateau/index/internal/movelist"
	"github.com/plateau/plateau/index/internal/store"
	"github.com/plateau/plateau/rules"
)

// Table holds the named positions, each name with its folded form (the
// SQL function plateau_fold: the players' fold, see Folded); GamesTable
// the opening of each named game, by the id of its name; GamesIndex finds
// the games of a name.
const (
	Table = `CREATE TABLE IF NOT EXISTS openings(
		id INTEGER PRIMARY KEY,
		game TEXT NOT NULL, key INTEGER NOT NULL UNIQUE,
		name TEXT NOT NULL, ply INTEGER NOT NULL, moves TEXT NOT NULL,
		folded TEXT NOT NULL DEFAULT '')`
	GamesTable = `CREATE TABLE IF NOT EXISTS game_openings(
		game INTEGER PRIMARY KEY, opening INTEGER NOT NULL)`
	GamesIndex = `CREATE INDEX IF NOT EXISTS game_openings_opening ON game_openings(opening, game)`
	// FoldedIndex reads the names in their folded order: with GamesIndex,
	// the list by opening is read opening by opening (criteria.NamedFrom).
	FoldedIndex = `CREATE INDEX IF NOT EXISTS openings_folded ON openings(folded, name)`
)

// Tables are the statements that create the package's tables.
var Tables = []string{Table, GamesTable, GamesIndex, FoldedIndex}

// Querier reads (a *sql.DB, *sql.Conn or *sql.Tx).
type Querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// Execer reads and writes.
type Execer interface {
	Querier
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
}

// Forget deletes the opening of game id: a game deleted, or replaced by a
// valid record of the same text.
func Forget(ctx context.Context, tx Execer, id int64) error {
	_, err := tx.ExecContext(ctx, `DELETE FROM game_openings WHERE game = ?`, id)
	return err
}

// Put stores os, each replacing the name of its position if it had one
// (keeping its id), and returns their rulesets: those whose games'
// openings are to be computed again.
func Put(ctx context.Context, tx Execer, os []Opening) (map[string]bool, error) {
	games := map[string]bool{}
	for _, o := range os {
		_, err := tx.ExecContext(ctx, `INSERT INTO openings(game, key, name, ply, moves, folded) VALUES(?, ?, ?, ?, ?, plateau_fold(?))
			ON CONFLICT(key) DO UPDATE SET name = excluded.name, ply = excluded.ply, moves = excluded.moves, folded = excluded.folded`,
			o.Game, o.Key, o.Name, o.Ply, o.Moves, o.Name)
		if err != nil {
			return games, err
		}
		games[o.Game] = true
	}
	return games, nil
}

// List reads the named positions of a ruleset ("": every one), by
// ruleset then name.
func List(ctx context.Context, q Querier, game string) ([]Opening, error) {
	rows, err := q.QueryContext(ctx, `SELECT id, game, key, name, ply, moves FROM openings
		WHERE ? = '' OR game = ? ORDER BY game, name, ply, id`, game, game)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Opening
	for rows.Next() {
		var o Opening
		if err := rows.Scan(&o.ID, &o.Game, &o.Key, &o.Name, &o.Ply, &o.Moves); err != nil {
			return nil, err
		}
		out = append(out, o)
	}
	return out, rows.Err()
}

// Delete removes the names of a ruleset ("": every one) and the
// openings of its games; it returns the number of names removed.
func Delete(ctx context.Context, tx Execer, game string) (int64, error) {
	if _, err := tx.ExecContext(ctx, `DELETE FROM game_openings WHERE opening IN
		(SELECT id FROM openings WHERE ? = '' OR game = ?)`, game, game); err != nil {
		return 0, err
	}
	res, err := tx.ExecContext(ctx, `DELETE FROM openings WHERE ? = '' OR game = ?`, game, game)
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

// Counts is the number of games whose opening is each named position of
// a ruleset ("": every one), by the position's id: the games named
// exactly that, not those of deeper names.
func Counts(ctx context.Context, q Querier, game string) (map[int64]int, error) {
	return store.ScanMap[int64, int](q.QueryContext(ctx, `SELECT o.id, (SELECT COUNT(*) FROM game_openings g WHERE g.opening = o.id) FROM openings o
		WHERE ? = '' OR o.game = ?`, game, game))
}

// Names maps each named position's salted key to its id, by ruleset.
func Names(ctx context.Context, q Querier) (map[string]map[int64]int64, error) {
	rows, err := q.QueryContext(ctx, `SELECT game, key, id FROM openings`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]map[int64]int64{}
	for rows.Next() {
		var game string
		var key, id int64
		if err := rows.Scan(&game, &key, &id); err != nil {
			return nil, err
		}
		if out[game] == nil {
			out[game] = map[int64]int64{}
		}
		out[game][key] = id
	}
	return out, rows.Err()
}

// Assign computes and stores the opening of the valid games of the
// rulesets in names that cond selects (SQL over the games table, with
// args), replacing what they had; the games it does not name lose their
// row. It returns the number of games named. A stored move list that does
// not play is an error naming the game.
func Assign(ctx context.Context, tx Execer, names map[string]map[int64]int64, cond string, args ...any) (int, error) {
	if len(names) == 0 {
		return 0, nil
	}
	games := make([]string, 0, len(names))
	for g := range names {
		games = append(games, "'"+strings.ReplaceAll(g, "'", "''")+"'")
	}
	sel := `FROM games WHERE valid = 1 AND game IN (` + strings.Join(games, ",") + `) AND (` + cond + `)`
	if _, err := tx.ExecContext(ctx, `DELETE FROM game_openings WHERE game IN (SELECT id `+sel+`)`, args...); err != nil {
		return 0, err
	}
	rows, err := tx.QueryContext(ctx, `SELECT id, game, fen, moves `+sel, args...)
	if err != nil {
		return 0, err
	}
	var named [][2]int64
	err = scanGames(rows, names, func(id, opening int64) { named = append(named, [2]int64{id, opening}) })
	if err != nil {
		return 0, err
	}
	for _, r := range named {
		if _, err := tx.ExecContext(ctx, `INSERT INTO game_openings(game, opening) VALUES(?, ?)`, r[0], r[1]); err != nil {
			return 0, err
		}
	}
	return len(named), nil
}

// scanGames calls fn for each game of rows (id, game, fen, moves) that
// reaches a named position, with the id of its deepest one; it closes
// rows.
func scanGames(rows *sql.Rows, names map[string]map[int64]int64, fn func(id, opening int64)) error {
	defer rows.Close()
	starts := map[string]rules.Position{}
	for rows.Next() {
		var id int64
		var game string
		var fen sql.NullString
		var blob []byte
		if err := rows.Scan(&id, &game, &fen, &blob); err != nil {
			return err
		}
		start, err := startOf(starts, game, fen.String)
		if err != nil {
			return fmt.Errorf("game #%d: %w", id, err)
		}
		ml, err := movelist.Decode(blob)
		if err != nil {
			return fmt.Errorf("game #%d: %w", id, err)
		}
		keys, ok := GameKeys(game, ml, start, MaxPly)
		if !ok {
			return fmt.Errorf("game #%d: %w: a move does not play", id, movelist.ErrCorrupt)
		}
		if o, ok := Deepest(keys, names[game]); ok {
			fn(id, o)
		}
	}
	return rows.Err()
}

// startOf is the start position of a ruleset's game, those from the
// standard start shared (GameKeys clones it).
func startOf(starts map[string]rules.Position, game, fen string) (rules.Position, error) {
	if fen != "" {
		rg, err := rules.Lookup(game)
		if err != nil {
			return nil, err
		}
		return rg.NewPosition(fen)
	}
	if p, ok := starts[game]; ok {
		return p, nil
	}
	rg, err := rules.Lookup(game)
	if err != nil {
		return nil, err
	}
	p, err := rg.NewPosition("")
	if err == nil {
		starts[game] = p
	}
	return p, err
}

// Of reads the opening of each of ids that has one: its name by game id.
func Of(ctx context.Context, q Querier, ids []int64) (map[int64]string, error) {
	out := map[int64]string{}
	if len(ids) == 0 {
		return out, nil
	}
	return store.ScanMap[int64, string](q.QueryContext(ctx, `SELECT go.game, o.name FROM game_openings go JOIN openings o ON o.id = go.opening
		WHERE go.game IN (SELECT value FROM json_each(?))`, store.JSONIDs(ids)))
}

// At names positions by their salted keys: the name of each of keys that
// has one.
func At(ctx context.Context, q Querier, keys []int64) (map[int64]string, error) {
	out := map[int64]string{}
	if len(keys) == 0 {
		return out, nil
	}
	return store.ScanMap[int64, string](q.QueryContext(ctx, `SELECT key, name FROM openings WHERE key IN (SELECT value FROM json_each(?))`, store.JSONIDs(keys)))
}

// AddFolded is the upgrade of a layout whose openings have no folded
// names: the column added (unless Table made it: an upgrade from an older
// layout) and filled.
func AddFolded(ctx context.Context, tx Execer) error {
	var has int
	if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM pragma_table_info('openings') WHERE name = 'folded'`).Scan(&has); err != nil {
		return err
	}
	if has == 0 {
		if _, err := tx.ExecContext(ctx, `ALTER TABLE openings ADD COLUMN folded TEXT NOT NULL DEFAULT ''`); err != nil {
			return err
		}
	}
	if _, err := tx.ExecContext(ctx, `UPDATE openings SET folded = plateau_fold(name)`); err != nil {
		return err
	}
	_, err := tx.ExecContext(ctx, FoldedIndex)
	return err
}

// Folded is the SQL of the folded name of the openings' row (alias a
// table name: "op", or "" for the openings table itself) on a layout with
// the column folded (stored) or without it (folded when read).
func Folded(alias string, stored bool) string {
	if alias != "" {
		alias += "."
	}
	if stored {
		return alias + "folded"
	}
	return "plateau_fold(COALESCE(" + alias + "name, ''))" // a LEFT JOIN's NULL
}

// MatchSQL is the condition on a games table g of a search by opening:
// games whose opening's name starts with prefix, both folded as player
// names are (plateau_fold: case and accents aside, in every script, as
// Go's lower-casing decides: "ÉCOSSAISE" finds "Écossaise", "ẞ" finds
// "ß", but "ss" does not; punctuation and runs of spaces are one space,
// so "sicilian najdorf" finds "Sicilian, Najdorf"). A prefix that ends
// in punctuation ("Sicilian,") asks for more after it: it finds
// "Sicilian, Najdorf" and not "Sicilian" (folding drops the comma; the
// space it stood for is kept). The names are folded when read, so that
// every layout with names answers alike: they are few, and the prefix is
// folded once.
func MatchSQL(prefix string) (string, []any) {
	m, args := MatchName("", prefix)
	return `g.id IN (SELECT gm.game FROM game_openings gm WHERE gm.opening IN (SELECT id FROM openings WHERE ` + m + `))`, args
}

// MatchName is the condition of MatchSQL on a row of the openings table
// (alias a table name, "" for the table itself): its name, or the name
// after its code (code.go), starts with prefix, both folded.
func MatchName(alias, prefix string) (string, []any) {
	if alias != "" {
		alias += "."
	}
	more := ""
	if r, _ := utf8.DecodeLastRuneInString(prefix); prefix != "" && !unicode.IsLetter(r) && !unicode.IsDigit(r) {
		more = " "
	}
	starts := func(col string) string {
		return `substr(plateau_fold(` + col + `), 1, length(plateau_fold(?) || ?)) = plateau_fold(?) || ?`
	}
	name := alias + "name"
	return `(` + starts(name) + ` OR ` + name + ` GLOB '` + CodeGlob + `' AND ` + starts(`substr(`+name+`, instr(`+name+`, ' ') + 1)`) + `)`,
		[]any{prefix, more, prefix, more, prefix, more, prefix, more}
}
