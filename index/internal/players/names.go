package players

import (
	"context"
	"database/sql"
	"math"
	"strings"
	"sync"
)

// Querier is what reading the players' names needs: the database handle.
type Querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

// Names is the folded names of every player of a database, read once and
// extended as players are added, and their distinct words. The zero Names
// is empty and ready; it is safe for concurrent use.
type Names struct {
	mu    sync.Mutex
	list  []entry // by id
	words words
}

// entry is a player's id and the words of its folded name (indexes into
// Names.words).
type entry struct {
	id    int64
	words []int32
}

// words is the distinct words of the players' folded names, as text (for
// prefixes) and runes (for edit distances), decoded once. Words are only
// added, so that a slice taken under Names.mu stays valid to read after
// it.
type words struct {
	text  []string
	runes [][]rune
	index map[string]int32
}

// add returns the index of a word, adding it if new.
func (nw *words) add(w string) int32 {
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

// load reads the players added since the last call and returns every
// player and the distinct words of their names.
func (n *Names) load(ctx context.Context, q Querier) ([]entry, words, error) {
	n.mu.Lock()
	defer n.mu.Unlock()
	var last int64
	if k := len(n.list); k > 0 {
		last = n.list[k-1].id
	}
	rows, err := q.QueryContext(ctx, `SELECT id, folded FROM players WHERE id > ? ORDER BY id`, last)
	if err != nil {
		return nil, words{}, err
	}
	defer rows.Close()
	for rows.Next() {
		var e entry
		var f string
		if err := rows.Scan(&e.id, &f); err != nil {
			return nil, words{}, err
		}
		for _, w := range strings.Fields(f) {
			e.words = append(e.words, n.words.add(w))
		}
		n.list = append(n.list, e)
	}
	// The slices as they are now: later words are appended past them.
	ws := words{text: n.words.text, runes: n.words.runes}
	return n.list, ws, rows.Err()
}

// Match is what a player query matched.
type Match struct {
	Players []int64 // the matched players' ids, in id order
	// For each word of the query: the name words it matches, and how many
	// players (matched or not) have one of them.
	words   [][]string
	covered []int
}

// Match matches a folded query against the player names (see the package
// doc): the players every word of it matches.
func (n *Names) Match(ctx context.Context, q Querier, folded string) (*Match, error) {
	qwords := strings.Fields(folded)
	if len(qwords) == 0 {
		return &Match{}, nil
	}
	list, ws, err := n.load(ctx, q)
	if err != nil {
		return nil, err
	}
	m := &Match{words: make([][]string, len(qwords)), covered: make([]int, len(qwords))}
	hit := make([][]bool, len(qwords))
	for k, qw := range qwords {
		hit[k], m.words[k] = ws.matching(qw)
	}
	for i := range list {
		e := &list[i]
		all := true
		for k := range qwords {
			if has(hit[k], e.words) {
				m.covered[k]++
			} else {
				all = false
			}
		}
		if all {
			m.Players = append(m.Players, e.id)
		}
	}
	return m, nil
}

// matching returns which words a query word matches (by index) and those
// words.
func (nw *words) matching(q string) ([]bool, []string) {
	hit := make([]bool, len(nw.text))
	var matched []string
	qr := []rune(q)
	d := 1
	if len(q) >= 8 {
		d = 2
	}
	for i, w := range nw.text {
		if strings.HasPrefix(w, q) || len(q) >= 4 && editWithin(qr, nw.runes[i], d) {
			hit[i] = true
			matched = append(matched, w)
		}
	}
	return hit, matched
}

// has reports whether any of the words (indexes) is hit.
func has(hit []bool, words []int32) bool {
	for _, wi := range words {
		if hit[wi] {
			return true
		}
	}
	return false
}

// PageWords returns the name words a page of m's players is read by (the
// fewest of any query word's), or nil when reading by player is fewer
// seeks; byPlayer tells whether the player indexes are there (a bulk
// import leaves them out while it runs). A player has two arms (a side
// each) and a word one, but a word's entries of players who do not match
// are read and dropped, so a word whose players are mostly unmatched
// counts as several seeks.
func (m *Match) PageWords(byPlayer bool) []string {
	best := -1
	cost := 2 * len(m.Players)
	if pageBy == PageByWord || !byPlayer {
		cost = math.MaxInt
	}
	for k, ws := range m.words {
		if len(ws) == 0 || pageBy == PageByPlayer {
			continue
		}
		c := len(ws) * max(1, m.covered[k]/(4*max(1, len(m.Players))))
		if c < cost {
			best, cost = k, c
		}
	}
	if best < 0 {
		return nil
	}
	return m.words[best]
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
