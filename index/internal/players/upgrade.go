package players

import (
	"context"
	"database/sql"
	"strings"
)

// The name index's tables (see the package doc).
const (
	WordsTable = `CREATE TABLE IF NOT EXISTS name_words(id INTEGER PRIMARY KEY, word TEXT NOT NULL UNIQUE)`
	GamesTable = `CREATE TABLE IF NOT EXISTS name_games(
		word INTEGER NOT NULL, game INTEGER NOT NULL, player INTEGER NOT NULL,
		PRIMARY KEY(word, game, player)) WITHOUT ROWID`
)

// BuildNameIndex gives a database without the name index its tables and
// entries, in tx: the words of every player's folded name, then every
// valid game under its players' words, inserted in key order.
func BuildNameIndex(ctx context.Context, tx *sql.Tx) error {
	for _, q := range []string{WordsTable, GamesTable,
		`CREATE TEMP TABLE player_words(player INTEGER NOT NULL, word INTEGER NOT NULL, PRIMARY KEY(player, word)) WITHOUT ROWID`} {
		if _, err := tx.ExecContext(ctx, q); err != nil {
			return err
		}
	}
	if err := addWords(ctx, tx); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `INSERT OR IGNORE INTO name_games(word, game, player)
		SELECT word, game, player FROM (
			SELECT pw.word AS word, g.id AS game, pw.player AS player FROM games g JOIN temp.player_words pw ON pw.player = g.p0 WHERE g.valid
			UNION ALL
			SELECT pw.word, g.id, pw.player FROM games g JOIN temp.player_words pw ON pw.player = g.p1 WHERE g.valid)
		ORDER BY 1, 2, 3`); err != nil {
		return err
	}
	_, err := tx.ExecContext(ctx, `DROP TABLE temp.player_words`)
	return err
}

// playerWords is a player and the words of its folded name.
type playerWords struct {
	player int64
	words  []string
}

// addWords stores the words of every player's folded name in name_words,
// and each player's in temp.player_words.
func addWords(ctx context.Context, tx *sql.Tx) error {
	all, err := readPlayerWords(ctx, tx)
	if err != nil {
		return err
	}
	ids := map[string]int64{}
	for _, p := range all {
		for _, word := range p.words {
			id, ok := ids[word]
			if !ok {
				res, err := tx.ExecContext(ctx, `INSERT INTO name_words(word) VALUES(?)`, word)
				if err == nil {
					id, err = res.LastInsertId()
				}
				if err != nil {
					return err
				}
				ids[word] = id
			}
			if _, err := tx.ExecContext(ctx, `INSERT OR IGNORE INTO temp.player_words(player, word) VALUES(?, ?)`, p.player, id); err != nil {
				return err
			}
		}
	}
	return nil
}

// readPlayerWords reads the words of every player's folded name.
func readPlayerWords(ctx context.Context, tx *sql.Tx) ([]playerWords, error) {
	rows, err := tx.QueryContext(ctx, `SELECT id, folded FROM players`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var all []playerWords
	for rows.Next() {
		var p playerWords
		var f string
		if err := rows.Scan(&p.player, &f); err != nil {
			return nil, err
		}
		p.words = strings.Fields(f)
		all = append(all, p)
	}
	return all, rows.Err()
}
