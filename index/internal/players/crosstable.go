package players

import (
	"database/sql"
	"sort"

	"github.com/plateau/plateau/index/internal/gamerows"
)

// Cross is one player's line of a crosstable.
type Cross struct {
	Player string
	Games  int
	// Score is the points of the Results as written (2 for a 2-0 win, a
	// Dejarik game's points); Norm the same games on one scale (Share: a
	// win 1, a draw ½; Dejarik points kept), by which lines are ranked.
	Score float64
	Norm  float64
	// Against[j] is the score (points as written) against player j of the
	// table, NormAgainst[j] the same on one scale, and Met[j] the number
	// of games.
	Against     []float64
	NormAgainst []float64
	Met         []int
}

// Rows are the games a crosstable scores: each row is the names of the
// two players, in side order, the Result and the ruleset (sql.Rows).
type Rows interface {
	Next() bool
	Scan(dest ...any) error
	Err() error
}

// pair is two players, in that order.
type pair struct{ a, b string }

// table is a crosstable being made.
type table struct {
	score   map[pair]float64
	norm    map[pair]float64
	met     map[pair]int
	players map[string]*Cross
}

// Crosstable scores the games of rows player against player, with the
// points of their Result; progress (when not nil) is called from time to
// time with the games read and max(read, total). Every line holds its
// scores against every player: n² cells (CrosstablePage for a page).
func Crosstable(rows Rows, total int, progress func(done, total int)) ([]Cross, error) {
	lines, _, err := CrosstablePage(rows, total, progress, 0, -1)
	return lines, err
}

// CrosstablePage is Crosstable's lines of the players ranked from offset,
// limit of them (all when limit < 0), each with its scores against the
// players of the page only (Against[j]: the page's j-th player), and the
// number of players of the whole table: a page of a table of thousands of
// players costs its own cells, not the table's.
func CrosstablePage(rows Rows, total int, progress func(done, total int), offset, limit int) ([]Cross, int, error) {
	t := table{score: map[pair]float64{}, norm: map[pair]float64{}, met: map[pair]int{}, players: map[string]*Cross{}}
	read := 0
	for rows.Next() {
		var a, b, res, game sql.NullString
		if err := rows.Scan(&a, &b, &res, &game); err != nil {
			return nil, 0, err
		}
		if read++; progress != nil && read%4096 == 0 {
			progress(read, max(read, total))
		}
		if s0, s1, ok := gamerows.Scores(res.String); ok {
			n0, n1, _ := Share(game.String, res.String)
			t.add(a.String, b.String, [2]float64{s0, s1}, [2]float64{n0, n1})
		}
	}
	if err := rows.Err(); err != nil {
		return nil, 0, err
	}
	ranked := t.ranked()
	offset = min(max(offset, 0), len(ranked))
	end := len(ranked)
	if limit >= 0 {
		end = min(end, offset+limit)
	}
	page := ranked[offset:end]
	t.fill(page)
	return page, len(ranked), nil
}

// add counts a game of a and b, who scored s[0] and s[1] points, n[0] and
// n[1] on one scale.
func (t *table) add(a, b string, s, n [2]float64) {
	for _, n := range []string{a, b} {
		if t.players[n] == nil {
			t.players[n] = &Cross{Player: n}
		}
	}
	t.players[a].Games++
	t.players[b].Games++
	t.players[a].Score += s[0]
	t.players[b].Score += s[1]
	t.players[a].Norm += n[0]
	t.players[b].Norm += n[1]
	t.score[pair{a, b}] += s[0]
	t.score[pair{b, a}] += s[1]
	t.norm[pair{a, b}] += n[0]
	t.norm[pair{b, a}] += n[1]
	t.met[pair{a, b}]++
	t.met[pair{b, a}]++
}

// ranked are the table's lines, by score on one scale, then points, then
// name, without their cells.
func (t *table) ranked() []Cross {
	out := make([]Cross, 0, len(t.players))
	for _, c := range t.players {
		out = append(out, *c)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Norm != out[j].Norm {
			return out[i].Norm > out[j].Norm
		}
		if out[i].Score != out[j].Score {
			return out[i].Score > out[j].Score
		}
		return out[i].Player < out[j].Player
	})
	return out
}

// fill sets the cells of the lines against each other.
func (t *table) fill(lines []Cross) {
	for i := range lines {
		lines[i].Against = make([]float64, len(lines))
		lines[i].NormAgainst = make([]float64, len(lines))
		lines[i].Met = make([]int, len(lines))
		for j := range lines {
			p := pair{lines[i].Player, lines[j].Player}
			lines[i].Against[j], lines[i].NormAgainst[j], lines[i].Met[j] = t.score[p], t.norm[p], t.met[p]
		}
	}
}
