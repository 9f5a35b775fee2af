package index

import (
	"context"
	"strings"
)

// MatchPlayers returns the ids of the players whose name matches text:
// compared without case, accents or punctuation, every word of text must be
// a prefix of a word of the name, or within edit distance 1 of it (2 for
// words of 8 letters or more) (matchNames, names.go).
func (db *DB) MatchPlayers(ctx context.Context, text string) ([]int64, error) {
	m, err := db.matchNames(ctx, text)
	if err != nil {
		return nil, err
	}
	return m.players, nil
}

// playerEntry is a player's id and the words of its folded name (indexes
// into db.words).
type playerEntry struct {
	id    int64
	words []int32
}

// playerList is the folded names of every player, read once and extended
// as players are added (ids only grow), and their distinct words.
func (db *DB) playerList(ctx context.Context) ([]playerEntry, nameWords, error) {
	db.pmu.Lock()
	defer db.pmu.Unlock()
	var last int64
	if n := len(db.players); n > 0 {
		last = db.players[n-1].id
	}
	rows, err := db.sql.QueryContext(ctx, `SELECT id, folded FROM players WHERE id > ? ORDER BY id`, last)
	if err != nil {
		return nil, nameWords{}, err
	}
	defer rows.Close()
	for rows.Next() {
		var e playerEntry
		var f string
		if err := rows.Scan(&e.id, &f); err != nil {
			return nil, nameWords{}, err
		}
		for _, w := range strings.Fields(f) {
			e.words = append(e.words, db.words.add(w))
		}
		db.players = append(db.players, e)
	}
	// The slices as they are now: later words are appended past them.
	words := nameWords{text: db.words.text, runes: db.words.runes}
	return db.players, words, rows.Err()
}

// editWithin reports whether the Levenshtein distance of a and b is at
// most d. It runs for every word of every player's name on each player
// search: only the cells of the table within d of its diagonal are
// computed (the others exceed d), in buffers on the stack for words of up
// to 32 letters.
func editWithin(a, b []rune, d int) bool {
	if abs(len(a)-len(b)) > d {
		return false
	}
	big := d + 1 // any value over d: the band's edges
	var bufP, bufC [33]int
	prev, cur := bufP[:0], bufC[:0]
	if len(b)+1 > len(bufP) {
		prev, cur = make([]int, 0, len(b)+1), make([]int, 0, len(b)+1)
	}
	prev, cur = prev[:len(b)+1], cur[:len(b)+1]
	for j := range prev {
		prev[j] = min(j, big)
	}
	for i := 1; i <= len(a); i++ {
		lo, hi := max(1, i-d), min(len(b), i+d)
		if lo == 1 {
			cur[0] = min(i, big)
		} else {
			cur[lo-1] = big
		}
		best := cur[lo-1]
		for j := lo; j <= hi; j++ {
			c := 1
			if a[i-1] == b[j-1] {
				c = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+c, big)
			best = min(best, cur[j])
		}
		if hi < len(b) {
			cur[hi+1] = big
		}
		if best > d {
			return false
		}
		prev, cur = cur, prev
	}
	return prev[len(b)] <= d
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
