package index

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"strings"
)

// The name index. A player search matches the query's words against the
// words of the players' folded names (MatchPlayers), then reads a page of
// the matched players' games in id order. Read player by player from
// games_p0 and games_p1, a page costs a seek for every matched player and
// side (a surname shared by 30 players is 60 seeks), each a random read of
// the disk in a large database. So the games are also listed by name
// word:
//
//   - name_words(id, word): every distinct word of a folded player name;
//   - name_games(word, game, player) WITHOUT ROWID: for each word, the
//     valid games of each player whose name has it, in game order (a
//     player of two words is listed under both).
//
// A query word matches a few name words (a prefix, or within the edit
// distance); every game of the matched players is under one of them. So
// a page can be read word by word (one seek each, the games of all the
// players sharing the word side by side in its leaves) instead of player
// by player: the query word chosen is the one whose matched name words are
// fewest, the entries read are kept only for the matched players
// (name_games holds the player), and the page is read by word when that
// is fewer seeks than by player and side (playerPage). Only valid games
// are listed, as in tags; a search of invalid games reads by player.
//
// The entries (about four a game: two players, two words each) are stored
// at each commit in word order, as the tags are. A database of layout 6 is
// given the two tables by its first writable open (upgrade6); a read-only
// handle on one reads player by player. Matching the names tests each
// distinct word once. The costs and gains are in docs/storage.md.

const (
	nameWordsTable = `CREATE TABLE IF NOT EXISTS name_words(id INTEGER PRIMARY KEY, word TEXT NOT NULL UNIQUE)`
	nameGamesTable = `CREATE TABLE IF NOT EXISTS name_games(
		word INTEGER NOT NULL, game INTEGER NOT NULL, player INTEGER NOT NULL,
		PRIMARY KEY(word, game, player)) WITHOUT ROWID`
)

// nameWords is the distinct words of the players' folded names, as text
// (for prefixes) and runes (for edit distances), decoded once. Words are
// only added (playerList), so that a slice taken under db.pmu stays valid
// to read after it.
type nameWords struct {
	text  []string
	runes [][]rune
	index map[string]int32
}

// add returns the index of a word, adding it if new.
func (nw *nameWords) add(w string) int32 {
	if i, ok := nw.index[w]; ok {
		return i
	}
	if nw.index == nil {
		nw.index = map[string]int32{}
	}
	i := int32(len(nw.text))
	nw.text = append(nw.text, w)
	nw.runes = append(nw.runes, []rune(w))
	nw.index[w] = i
	return i
}

// nameMatch is what a player query matched.
type nameMatch struct {
	players []int64 // the matched players' ids, in id order
	// For each word of the query: the name words it matches, and how many
	// players (matched or not) have one of them.
	words   [][]string
	covered []int
}

// matchNames matches text against the player names: every word of the
// query must be a prefix of a word of the name or within edit distance 1
// of it (2 for words of 8 letters or more; only for query words of 4
// letters or more). Each distinct name word is tested once per query word.
func (db *DB) matchNames(ctx context.Context, text string) (*nameMatch, error) {
	qwords := strings.Fields(fold(text))
	if len(qwords) == 0 {
		return &nameMatch{}, nil
	}
	list, words, err := db.playerList(ctx)
	if err != nil {
		return nil, err
	}
	m := &nameMatch{words: make([][]string, len(qwords)), covered: make([]int, len(qwords))}
	hit := make([][]bool, len(qwords))
	for k, q := range qwords {
		hit[k] = make([]bool, len(words.text))
		qr := []rune(q)
		d := 1
		if len(q) >= 8 {
			d = 2
		}
		for i, n := range words.text {
			if strings.HasPrefix(n, q) || len(q) >= 4 && editWithin(qr, words.runes[i], d) {
				hit[k][i] = true
				m.words[k] = append(m.words[k], n)
			}
		}
	}
	for i := range list {
		e := &list[i]
		all := true
		for k := range qwords {
			has := false
			for _, wi := range e.words {
				if hit[k][wi] {
					has = true
					break
				}
			}
			if has {
				m.covered[k]++
			} else {
				all = false
			}
		}
		if all {
			m.players = append(m.players, e.id)
		}
	}
	return m, nil
}

// pageWords returns the name words a page of m's players is read by (the
// fewest of any query word's), or nil when reading by player is fewer
// seeks: a player has two arms (a side each) and a word one, but a word's
// entries of players who do not match are read and dropped, so a word
// whose players are mostly unmatched counts as several seeks.
func (m *nameMatch) pageWords(byPlayer bool) []string {
	best := -1
	cost := 2 * len(m.players)
	if pageBy == pageByWord || !byPlayer {
		cost = math.MaxInt
	}
	for k, ws := range m.words {
		if len(ws) == 0 || pageBy == pageByPlayer {
			continue
		}
		c := len(ws) * max(1, m.covered[k]/(4*max(1, len(m.players))))
		if c < cost {
			best, cost = k, c
		}
	}
	if best < 0 {
		return nil
	}
	return m.words[best]
}

// pageBy, set by tests, makes every player page read by word or by player
// (pageAuto: the fewer seeks).
var pageBy = pageAuto

const (
	pageAuto = iota
	pageByPlayer
	pageByWord
)

// wordIDs returns the name_words ids of words (those the table has).
func (db *DB) wordIDs(ctx context.Context, words []string) ([]int64, error) {
	j, err := json.Marshal(words)
	if err != nil {
		return nil, err
	}
	rows, err := db.sql.QueryContext(ctx, `SELECT id FROM name_words WHERE word IN (SELECT value FROM json_each(?)) ORDER BY id`, string(j))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var ids []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		ids = append(ids, id)
	}
	return ids, rows.Err()
}

// wordArmsQuery reads arms that are name words (playerPage): for each
// [word, last id] of the JSON array (the second parameter), the next
// games (at most the first parameter) listed under the word for one of the
// players of the third parameter, in the index only.
const wordArmsQuery = `SELECT j.key, (SELECT group_concat(game) FROM (SELECT DISTINCT game FROM name_games
	WHERE word = j.value->>0 AND game > j.value->>1 AND player IN (SELECT value FROM json_each(?3)) ORDER BY game LIMIT ?1))
	FROM json_each(?2) j`

// upgrade6 gives a layout-6 database the name index, in one transaction
// (a kill leaves it at 6): the words of every player's name, then every
// valid game under its players' words, inserted in key order.
func (db *DB) upgrade6(ctx context.Context) error {
	if db.notice != nil {
		db.notice(fmt.Sprintf("upgrading the database in %s from layout 6 to 7 (an index of the games by player name word)…", db.dir))
	}
	tx, err := db.sql.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	fail := func(err error) error { return fmt.Errorf("upgrade to layout 7: %w", err) }
	for _, q := range []string{nameWordsTable, nameGamesTable,
		`CREATE TEMP TABLE player_words(player INTEGER NOT NULL, word INTEGER NOT NULL, PRIMARY KEY(player, word)) WITHOUT ROWID`} {
		if _, err := tx.ExecContext(ctx, q); err != nil {
			return fail(err)
		}
	}
	type pw struct {
		player int64
		words  []string
	}
	var all []pw
	rows, err := tx.QueryContext(ctx, `SELECT id, folded FROM players`)
	if err != nil {
		return fail(err)
	}
	for rows.Next() {
		var p pw
		var f string
		if err := rows.Scan(&p.player, &f); err != nil {
			rows.Close()
			return fail(err)
		}
		p.words = strings.Fields(f)
		all = append(all, p)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return fail(err)
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
					return fail(err)
				}
				ids[word] = id
			}
			if _, err := tx.ExecContext(ctx, `INSERT OR IGNORE INTO temp.player_words(player, word) VALUES(?, ?)`, p.player, id); err != nil {
				return fail(err)
			}
		}
	}
	if _, err := tx.ExecContext(ctx, `INSERT OR IGNORE INTO name_games(word, game, player)
		SELECT word, game, player FROM (
			SELECT pw.word AS word, g.id AS game, pw.player AS player FROM games g JOIN temp.player_words pw ON pw.player = g.p0 WHERE g.valid
			UNION ALL
			SELECT pw.word, g.id, pw.player FROM games g JOIN temp.player_words pw ON pw.player = g.p1 WHERE g.valid)
		ORDER BY 1, 2, 3`); err != nil {
		return fail(err)
	}
	if _, err := tx.ExecContext(ctx, `DROP TABLE temp.player_words`); err != nil {
		return fail(err)
	}
	if err := setMeta(ctx, tx, "schema", 7); err != nil {
		return err
	}
	return tx.Commit()
}
