package store

import (
	"cmp"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
)

// Names writes the name index of a transaction's games: each valid game
// is listed in name_games under every word of its players' folded names
// (name_words), and the entries are stored at the commit in key order,
// several to a statement, as the tags are. The ids of words and of each
// player's words are kept from one transaction to the next; what a
// rolled-back transaction learnt is void (Forget).
type Names struct {
	fold        func(string) string
	playerWords map[int64][]int64 // the name_words ids of each player's words
	wordIDs     map[string]int64  // of each word
	rows        []nameRow         // the entries of the transaction's games
}

// nameRow is an entry of name_games.
type nameRow struct{ word, game, player int64 }

// NewNames returns a Names that splits a player's name into the words of
// fold(name).
func NewNames(fold func(string) string) *Names {
	return &Names{fold: fold, playerWords: map[int64][]int64{}, wordIDs: map[string]int64{}}
}

// Add lists a valid game under the words of its players' names (players:
// their ids, nil for none), to be stored by Flush; held is the memory the
// entries take, in bytes, roughly.
func (n *Names) Add(ctx context.Context, p Preparer, game int64, players [2]any, names [2]string) (held int, err error) {
	for i, pl := range players {
		if pl == nil {
			continue
		}
		id := pl.(int64)
		ws, ok := n.playerWords[id]
		if !ok {
			for _, word := range strings.Fields(n.fold(names[i])) {
				wid, err := n.wordID(ctx, p, word)
				if err != nil {
					return held, err
				}
				ws = append(ws, wid)
			}
			n.playerWords[id] = ws
		}
		for _, wid := range ws {
			n.rows = append(n.rows, nameRow{wid, game, id})
		}
		held += 24 * len(ws)
	}
	return held, nil
}

// wordID returns the id of a name word, adding it to name_words if new.
func (n *Names) wordID(ctx context.Context, p Preparer, word string) (int64, error) {
	if id, ok := n.wordIDs[word]; ok {
		return id, nil
	}
	sel, err := p.Stmt(ctx, `SELECT id FROM name_words WHERE word = ?`)
	var id int64
	if err == nil {
		err = sel.QueryRowContext(ctx, word).Scan(&id)
	}
	if errors.Is(err, sql.ErrNoRows) {
		var add *sql.Stmt
		if add, err = p.Stmt(ctx, `INSERT INTO name_words(word) VALUES(?)`); err == nil {
			var res sql.Result
			if res, err = add.ExecContext(ctx, word); err == nil {
				id, err = res.LastInsertId()
			}
		}
	}
	if err != nil {
		return 0, fmt.Errorf("name word %q: %w", word, err)
	}
	n.wordIDs[word] = id
	return id, nil
}

// Flush stores the name entries of the transaction's games, in key order,
// several to a statement.
func (n *Names) Flush(ctx context.Context, p Preparer) error {
	slices.SortFunc(n.rows, func(x, y nameRow) int {
		if c := cmp.Compare(x.word, y.word); c != 0 {
			return c
		}
		if c := cmp.Compare(x.game, y.game); c != 0 {
			return c
		}
		return cmp.Compare(x.player, y.player)
	})
	err := InsertRows(ctx, p, `INSERT OR IGNORE INTO name_games(word, game, player)`, `(?,?,?)`, n.rows,
		func(v *Values, r *nameRow) { v.Int(r.word); v.Int(r.game); v.Int(r.player) })
	if err != nil {
		return fmt.Errorf("store name index: %w", err)
	}
	n.rows = n.rows[:0]
	return nil
}

// Remove deletes the name entries of a stored game of player pl, in tx.
func (n *Names) Remove(ctx context.Context, tx *sql.Tx, p Preparer, game int64, pl int64) error {
	var folded string
	err := tx.QueryRowContext(ctx, `SELECT folded FROM players WHERE id = ?`, pl).Scan(&folded)
	if errors.Is(err, sql.ErrNoRows) {
		return nil
	}
	if err != nil {
		return err
	}
	j, err := json.Marshal(strings.Fields(folded))
	if err != nil {
		return err
	}
	del, err := p.Stmt(ctx, `DELETE FROM name_games WHERE word IN (SELECT id FROM name_words WHERE word IN (SELECT value FROM json_each(?1)))
		AND game = ?2 AND player = ?3`)
	if err == nil {
		_, err = del.ExecContext(ctx, string(j), game, pl)
	}
	return err
}

// ForgetPlayers forgets the words of each player (a player was removed:
// its id may be given again).
func (n *Names) ForgetPlayers() { clear(n.playerWords) }

// Forget forgets the ids learnt (a transaction was rolled back).
func (n *Names) Forget() {
	clear(n.playerWords)
	clear(n.wordIDs)
}

// Discard drops the entries not stored (a transaction was rolled back).
func (n *Names) Discard() { n.rows = n.rows[:0] }
