package tree

import (
	"context"
	"database/sql"
	"slices"

	"github.com/plateau/plateau/index/internal/gamerows"
	"github.com/plateau/plateau/index/internal/movelist"
	"github.com/plateau/plateau/index/internal/posrun"
	"github.com/plateau/plateau/index/internal/treeagg"
	"github.com/plateau/plateau/rules"
)

// Games selects the games of a filtered tree: Query, over the games table
// g, returns their ids (in any order) with Args. The caller leaves out
// what every game with stored occurrences meets (valid, of the
// position's ruleset): the occurrences imply it, and an index then
// answers dates and players without reading the games' rows.
type Games struct {
	Query string
	Args  []any
}

// A Selection is the games a filtered tree counts: their ids, in order,
// and as a set.
type Selection struct {
	IDs []int64
	Set posrun.IDSet
}

// Select reads the ids games selects, in the snapshot r.
func Select(ctx context.Context, r *posrun.Snapshot, games Games) (*Selection, error) {
	rows, err := r.Conn().QueryContext(ctx, games.Query, games.Args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	s := &Selection{}
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		s.IDs = append(s.IDs, id)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	s.index()
	return s, nil
}

// ReadGames lists the moves played from pos (of ruleset rg) in the main
// lines of the games of sel, most played first, as Read does for every
// game. keys are the stored keys of pos (both of posrun.Store.Keys).
//
// It walks the occurrences of the position under both keys keeping the
// main-line ones of those games (posrun.Iter.Keep), and joins the games'
// rows in batches: each move is the stored move value at the occurrence's
// ply, counted by value and written once from pos, since every
// occurrence is of that position. A game whose main line holds a move
// that is not a ply (a huff) has its move read by replaying its line
// (plyMove).
func ReadGames(ctx context.Context, r *posrun.Snapshot, rg rules.Game, pos rules.Position, keys []int64, sel *Selection) ([]Move, error) {
	if len(sel.IDs) == 0 {
		return nil, nil
	}
	c := newValueCount(rg, pos)
	it := r.Occurrences(ctx, keys...).Keep(func(at int64) bool {
		g, _, v := posrun.UnpackAt(at)
		return v == 0 && sel.Set.Has(g)
	})
	if err := c.join(ctx, r, it, "", nil); err != nil {
		return nil, err
	}
	return c.moves(posrun.Quiet(ctx), r)
}

// join counts the moves of the occurrences it yields (main-line ones),
// joined with their games' rows in batches; cond, if not "", is a
// condition over games g (with its args) that the games must meet too.
func (c *valueCount) join(ctx context.Context, r *posrun.Snapshot, it *posrun.Iter, cond string, args []any) error {
	query := filteredQuery
	if cond != "" {
		query += " AND " + cond
	}
	return r.Join(ctx, it, query, args,
		func(rows *sql.Rows) (int64, any, error) {
			var id int64
			var l filteredRow
			err := rows.Scan(&id, &l.plies, &l.res, &l.date, &l.p[0], &l.p[1], &l.blob, &l.fen)
			return id, &l, err
		},
		func(at int64, row any) bool {
			_, ply, _ := posrun.UnpackAt(at)
			c.add(row.(*filteredRow), ply)
			return true
		})
}

// filteredQuery reads the games of a batch of a filtered tree's
// occurrences (posrun.Snapshot.Join).
const filteredQuery = `SELECT g.id, g.plies, g.result, g.date, g.p0, g.p1, g.moves, g.fen
	FROM games g WHERE g.id IN (SELECT value FROM json_each(?)) AND g.valid = 1`

// filteredRow is a game of a filtered tree.
type filteredRow struct {
	plies     int
	res, date sql.NullString
	p         [2]sql.NullInt64
	blob      []byte
	fen       sql.NullString
}

// valueMove is a move of a filtered tree being counted, with the games of
// each player who played it (by player id).
type valueMove struct {
	Move
	players map[int64]int
}

// valueCount counts a filtered tree's moves from a position by stored
// move value, and by text those read by replaying a line.
type valueCount struct {
	rg      rules.Game
	pos     rules.Position
	mover   int    // the side to move, whose player made the move
	key     uint64 // the position's key in its rules
	byValue map[rules.Move]*valueMove
	byText  map[string]*valueMove
}

func newValueCount(rg rules.Game, pos rules.Position) *valueCount {
	return &valueCount{rg: rg, pos: pos, mover: int(pos.ToMove()), key: pos.Key(),
		byValue: map[rules.Move]*valueMove{}, byText: map[string]*valueMove{}}
}

// add counts the move a game plays at ply, if it has one there.
func (c *valueCount) add(l *filteredRow, ply int) {
	if ply >= l.plies {
		return
	}
	var m *valueMove
	if v, ok := plyValue(l.blob, ply, l.plies); ok {
		if m = c.byValue[v]; m == nil {
			m = &valueMove{players: map[int64]int{}}
			c.byValue[v] = m
		}
	} else {
		text, ok := plyMove(c.rg, l.blob, l.fen.String, ply, c.key)
		if !ok {
			return
		}
		m = c.text(text)
	}
	countGame(&m.Move, l.res.String, l.date.String)
	if p := l.p[c.mover]; p.Valid {
		m.players[p.Int64]++
	}
}

// text is the move counted under text.
func (c *valueCount) text(text string) *valueMove {
	m := c.byText[text]
	if m == nil {
		m = &valueMove{Move: Move{Move: text}, players: map[int64]int{}}
		c.byText[text] = m
	}
	return m
}

// plyValue is the stored value of the main-line move at ply when the main
// line's moves are all plies (as many steps as plies): false otherwise,
// or when the list does not decode.
func plyValue(blob []byte, ply, plies int) (rules.Move, bool) {
	d := movelist.NewDecoder(blob)
	if n := d.Uvarint(); n != uint64(plies) || d.Err() != nil {
		return 0, false
	}
	for i := 0; ; i++ {
		v, nv := d.Step()
		if d.Err() != nil {
			return 0, false
		}
		if i == ply {
			return v, true
		}
		for ; nv > 0 && d.Err() == nil; nv-- {
			movelist.SkipLine(&d)
		}
	}
}

// plyMove is the text of the main-line move a game plays at ply,
// replayed from its start (fen, or the standard one when ""). A ply that
// begins with a huff has two positions, before and after it: a huff is
// not a move of a tree, and the move that follows it is played from the
// position after it, as the aggregate counts it (gamerows.TreeMove), so
// that the move is the tree's only when that position has the rules' key
// key. False otherwise, or when the moves or the start cannot be read.
func plyMove(rg rules.Game, blob []byte, fen string, ply int, key uint64) (text string, ok bool) {
	defer func() {
		if recover() != nil {
			text, ok = "", false
		}
	}()
	ml, err := movelist.Decode(blob)
	if err != nil {
		return "", false
	}
	pos, err := rg.NewPosition(fen)
	if err != nil {
		return "", false
	}
	p, huffed := 0, false
	for _, k := range ml.Main {
		m := ml.Steps[k].Move
		keeps := rules.KeepsTurn(pos, m)
		if p == ply && !keeps {
			if huffed && pos.Key() != key {
				return "", false
			}
			return pos.FormatMove(m), true
		}
		pos.Play(m)
		huffed = keeps
		if !keeps {
			p++
		}
	}
	return "", false
}

// countGame counts a game of result and date in m.
func countGame(m *Move, result, date string) {
	if m.Games == 0 {
		m.First, m.Last = date, date
	}
	m.Games++
	if s0, s1, ok := gamerows.Scores(result); ok {
		m.Scored++
		m.Score[0] += s0
		m.Score[1] += s1
		w := treeagg.Wins(s0, s1)
		m.Wins[0] += w[0]
		m.Wins[1] += w[1]
	}
	if date != "" {
		if m.First == "" || date < m.First {
			m.First = date
		}
		if date > m.Last {
			m.Last = date
		}
	}
}

// moves writes the counted moves from pos, merges those of one text, and
// names their top players.
func (c *valueCount) moves(q context.Context, r *posrun.Snapshot) ([]Move, error) {
	for v, m := range c.byValue {
		text, ok := formatMove(c.pos, v)
		if !ok {
			continue
		}
		m.Move.Move = text
		if o := c.byText[text]; o != nil {
			merge(o, m)
		} else {
			c.byText[text] = m
		}
	}
	t := treeCount{moves: map[string]*Move{}, tops: map[string]map[string]int{}}
	var ids []int64
	for _, m := range c.byText {
		ids = append(ids, topCandidates(m.players)...)
	}
	slices.Sort(ids)
	names, err := playerNames(q, r, slices.Compact(ids))
	if err != nil {
		return nil, err
	}
	for text, m := range c.byText {
		t.moves[text] = &m.Move
		for p, n := range m.players {
			if name, ok := names[p]; ok {
				t.addPlayer(text, name, n)
			}
		}
	}
	return t.sorted(), nil
}

// formatMove is the text of move value v from pos; false if the rules
// cannot write it (a stored value that is not a move of pos).
func formatMove(pos rules.Position, v rules.Move) (text string, ok bool) {
	defer func() {
		if recover() != nil {
			text, ok = "", false
		}
	}()
	return pos.FormatMove(v), true
}

// merge adds the counts of b to a.
func merge(a, b *valueMove) {
	if b.Games == 0 {
		return
	}
	if a.Games == 0 {
		a.First, a.Last = b.First, b.Last
	}
	a.Games += b.Games
	a.Scored += b.Scored
	a.Score[0] += b.Score[0]
	a.Score[1] += b.Score[1]
	a.Wins[0] += b.Wins[0]
	a.Wins[1] += b.Wins[1]
	if b.First != "" && (a.First == "" || b.First < a.First) {
		a.First = b.First
	}
	a.Last = max(a.Last, b.Last)
	for p, n := range b.players {
		a.players[p] += n
	}
}

// topCandidates are the players of a move who may be among its three most
// frequent once named: those with at least the third highest count (ties
// are broken by name).
func topCandidates(players map[int64]int) []int64 {
	counts := make([]int, 0, len(players))
	for _, n := range players {
		counts = append(counts, n)
	}
	slices.SortFunc(counts, func(a, b int) int { return b - a })
	least := 0
	if len(counts) > 0 {
		least = counts[min(len(counts), 3)-1]
	}
	var out []int64
	for p, n := range players {
		if n >= least {
			out = append(out, p)
		}
	}
	return out
}
