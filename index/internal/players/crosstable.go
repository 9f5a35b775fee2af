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

// Rows are the games a crosstable scores: each row is the ids of the two
// players (in the players table), in side order, the Result and the
// ruleset (sql.Rows).
type Rows interface {
	Next() bool
	Scan(dest ...any) error
	Err() error
}

// cell is what one player scored against another: the points as written,
// on one scale, and the games.
type cell struct {
	score, norm float64
	met         int
}

// table is a crosstable being made. Each player is numbered once, by the
// order of their first game (ids; players their ids in that order), and
// a cell is found by the two numbers (cells: one map access for each side
// of a game). The games are read by player id, not name: a name is read
// once for each player of the table (NameOf), not twice for each game.
type table struct {
	ids     map[int64]int32
	players []int64
	lines   []Cross
	cells   map[uint64]*cell
}

func newTable() *table {
	return &table{ids: map[int64]int32{}, cells: map[uint64]*cell{}}
}

// id is the number of player p, given on first sight.
func (t *table) id(p int64) int32 {
	i, ok := t.ids[p]
	if !ok {
		i = int32(len(t.lines))
		t.ids[p] = i
		t.players = append(t.players, p)
		t.lines = append(t.lines, Cross{})
	}
	return i
}

// cellOf is a's cell against b (made on first sight when create is true;
// nil when none is and create is false).
func (t *table) cellOf(a, b int32, create bool) *cell {
	k := uint64(uint32(a))<<32 | uint64(uint32(b))
	c := t.cells[k]
	if c == nil && create {
		c = &cell{}
		t.cells[k] = c
	}
	return c
}

// Crosstable scores the games of rows player against player, with the
// points of their Result; progress (when not nil) is called from time to
// time with the games read and max(read, total). Every line holds its
// scores against every player: n² cells (CrosstablePage for a page).
func Crosstable(rows Rows, names NameOf, total int, progress func(done, total int)) ([]Cross, error) {
	lines, _, err := CrosstablePage(rows, names, total, progress, 0, -1)
	return lines, err
}

// NameOf gives the names of players ids, by id.
type NameOf func(ids []int64) (map[int64]string, error)

// CrosstablePage is Crosstable's lines of the players ranked from offset,
// limit of them (all when limit < 0), each with its scores against the
// players of the page only (Against[j]: the page's j-th player), and the
// number of players of the whole table: a page of a table of thousands of
// players costs its own cells, not the table's.
func CrosstablePage(rows Rows, names NameOf, total int, progress func(done, total int), offset, limit int) ([]Cross, int, error) {
	t := newTable()
	read := 0
	for rows.Next() {
		var a, b int64
		var res, game sql.NullString
		if err := rows.Scan(&a, &b, &res, &game); err != nil {
			return nil, 0, err
		}
		if read++; progress != nil && read%4096 == 0 {
			progress(read, max(read, total))
		}
		if s0, s1, ok := gamerows.Scores(res.String); ok {
			n0, n1, _ := Share(game.String, res.String)
			t.add(a, b, [2]float64{s0, s1}, [2]float64{n0, n1})
		}
	}
	if err := rows.Err(); err != nil {
		return nil, 0, err
	}
	if err := t.name(names); err != nil {
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
func (t *table) add(a, b int64, s, n [2]float64) {
	ia, ib := t.id(a), t.id(b)
	la, lb := &t.lines[ia], &t.lines[ib]
	la.Games++
	lb.Games++
	la.Score += s[0]
	lb.Score += s[1]
	la.Norm += n[0]
	lb.Norm += n[1]
	ab, ba := t.cellOf(ia, ib, true), t.cellOf(ib, ia, true)
	ab.score += s[0]
	ba.score += s[1]
	ab.norm += n[0]
	ba.norm += n[1]
	ab.met++
	ba.met++
}

// name sets the players' names of the lines.
func (t *table) name(names NameOf) error {
	if len(t.players) == 0 {
		return nil
	}
	m, err := names(t.players)
	if err != nil {
		return err
	}
	for i, p := range t.players {
		t.lines[i].Player = m[p]
	}
	return nil
}

// ranked are the table's lines, by score on one scale, then points, then
// name, without their cells.
func (t *table) ranked() []Cross {
	out := append(make([]Cross, 0, len(t.lines)), t.lines...)
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
	byName := make(map[string]int32, len(t.lines))
	for i := range t.lines {
		byName[t.lines[i].Player] = int32(i)
	}
	ids := make([]int32, len(lines))
	for i := range lines {
		ids[i] = byName[lines[i].Player]
	}
	for i := range lines {
		lines[i].Against = make([]float64, len(lines))
		lines[i].NormAgainst = make([]float64, len(lines))
		lines[i].Met = make([]int, len(lines))
		for j := range lines {
			if c := t.cellOf(ids[i], ids[j], false); c != nil {
				lines[i].Against[j], lines[i].NormAgainst[j], lines[i].Met[j] = c.score, c.norm, c.met
			}
		}
	}
}
