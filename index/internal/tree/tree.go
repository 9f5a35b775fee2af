// Package tree answers opening trees: the moves played from a position in
// the main lines of a ruleset's games, each with its games, scored games,
// points of each side, the games each side won, first and last dates and
// its three most frequent players (Read).
//
// Decisions:
//
//   - A tree is read in one read snapshot of the position runs
//     (posrun.Snapshot), on a kept read connection, its statements under
//     the quiet context (the lookups' reasons: posrun.Snapshot and Quiet).
//   - The main lines' first plies (before the aggregate's depth:
//     gamerows.TreeAggDepth, or gamerows.TreeDepth in a database of layout
//     15 or older) are counted in the opening-tree aggregate
//     (internal/treeagg): one row per move with its top players, whose
//     names are read at once. The deeper occurrences, which the aggregate
//     does not count, are those of the unmarked key (posrun.Store.Key) from
//     that depth on: they are kept before their games are read, the games
//     joined in batches (Snapshot.Join) and each move read from the game's
//     stored move list (internal/movelist), never from its record text; a
//     game whose moves or start cannot be read adds nothing. The marked
//     keys stop at gamerows.TreeDepth, one ply short of the aggregate, so
//     that the aggregate's depth changed without rewriting the position
//     runs.
//   - Moves are sorted most played first, then by text; players by games,
//     then by name; a move keeps its three most frequent players.
//   - The tree of some of the games (a player's, an event's…: ReadGames)
//     joins the position's occurrences, kept to those games, with their
//     rows, and counts each move by its stored value, written once from
//     the position. The tree of a period of whole months or years
//     (ReadMonths) sums the aggregate's months, which keep no players.
package tree

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"sort"

	"github.com/plateau/plateau/index/internal/posrun"
	"github.com/plateau/plateau/index/internal/store"
	"github.com/plateau/plateau/index/internal/treeagg"
	"github.com/plateau/plateau/rules"
)

// Move is one move of an opening tree.
type Move struct {
	Move   string
	Games  int        // occurrences in main lines
	Scored int        // of which with a scored result
	Score  [2]float64 // points of each side (side 0 first) over the scored games
	// Wins are the scored games each side won (treeagg.Wins: more points
	// than the other side); the others of Scored were drawn. WinsUnknown:
	// they are not known, the aggregate of an older layout (read as it is)
	// not counting them.
	Wins        [2]int
	WinsUnknown bool
	First       string // earliest date
	Last        string // latest date
	Top         []PlayerCount
}

// PlayerCount is a player and how often they played a move.
type PlayerCount struct {
	Name  string
	Games int
}

// Read lists the moves played from a position of ruleset rg in the main
// lines of its games, most played first: key is the position's key in the
// aggregate (the salted key), deepKey the key its deeper occurrences are
// stored under (posrun.Store.Key), mover the side to move (whose player
// played the move), posKey the position's key in its rules (which tells
// the positions before and after a huff apart: plyMove); storedWins says
// that the aggregate counts wins (its rows have w0 and w1, layout 8);
// depth is the number of plies the aggregate counts (a main-line
// occurrence of deepKey before it is in the aggregate's rows). It reads
// the aggregate, the players and the games through r.
func Read(ctx context.Context, r *posrun.Snapshot, rg rules.Game, key, deepKey int64, mover int, posKey uint64, storedWins bool, depth int) ([]Move, error) {
	t := treeCount{moves: map[string]*Move{}, tops: map[string]map[string]int{}, storedWins: storedWins}
	stored, err := t.readStored(posrun.Quiet(ctx), r, key)
	if err != nil {
		return nil, err
	}
	if err := t.nameTops(posrun.Quiet(ctx), r, stored); err != nil {
		return nil, err
	}
	if err := t.addDeep(ctx, r, rg, deepKey, mover, posKey, depth); err != nil {
		return nil, err
	}
	return t.sorted(), nil
}

// treeCount gathers a tree: its moves by text, and for each move the
// games of each player who played it; storedWins: the aggregate's rows
// count wins.
type treeCount struct {
	moves      map[string]*Move
	tops       map[string]map[string]int
	storedWins bool
}

// readStored reads the aggregate's rows of key, each with its top players
// (internal/treeagg), which it returns by move.
func (t *treeCount) readStored(q context.Context, r *posrun.Snapshot, key int64) (map[string][]treeagg.Count, error) {
	wins := `w0, w1`
	if !t.storedWins {
		wins = `0, 0`
	}
	st, err := r.Stmt(q, `SELECT move, n, scored, s0, s1, `+wins+`, first, last, top FROM tree WHERE key = ?`)
	if err != nil {
		return nil, err
	}
	rows, err := st.QueryContext(q, key)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	stored := map[string][]treeagg.Count{}
	for rows.Next() {
		m := &Move{WinsUnknown: !t.storedWins}
		var blob []byte
		if err := rows.Scan(&m.Move, &m.Games, &m.Scored, &m.Score[0], &m.Score[1], &m.Wins[0], &m.Wins[1], &m.First, &m.Last, &blob); err != nil {
			return nil, err
		}
		t.moves[m.Move] = m
		top, err := treeagg.DecodeTop(nil, blob)
		if err != nil {
			return nil, fmt.Errorf("opening tree %s: %w", m.Move, err)
		}
		stored[m.Move] = top
	}
	return stored, rows.Err()
}

// nameTops counts the stored top players of each move under their names.
func (t *treeCount) nameTops(q context.Context, r *posrun.Snapshot, stored map[string][]treeagg.Count) error {
	var ids []int64
	for _, top := range stored {
		for _, e := range top {
			ids = append(ids, e.Player)
		}
	}
	if len(ids) == 0 {
		return nil
	}
	slices.Sort(ids)
	names, err := playerNames(q, r, slices.Compact(ids))
	if err != nil {
		return err
	}
	for mv, top := range stored {
		for _, e := range top {
			if name, ok := names[e.Player]; ok {
				t.addPlayer(mv, name, int(e.N))
			}
		}
	}
	return nil
}

// playerNames reads the names of players ids.
func playerNames(q context.Context, r *posrun.Snapshot, ids []int64) (map[int64]string, error) {
	st, err := r.Stmt(q, `SELECT id, name FROM players WHERE id IN (SELECT value FROM json_each(?))`)
	if err != nil {
		return nil, err
	}
	return store.ScanMap[int64, string](st.QueryContext(q, store.JSONIDs(ids)))
}

func (t *treeCount) addPlayer(move, name string, n int) {
	if t.tops[move] == nil {
		t.tops[move] = map[string]int{}
	}
	t.tops[move][name] += n
}

// deepRow is a game of an occurrence that the aggregate does not count.
type deepRow struct {
	plies           int
	res, date, a, b sql.NullString
	blob            []byte
	fen             sql.NullString
}

// deepQuery reads the games of a batch of deeper occurrences (Join).
const deepQuery = `SELECT g.id, g.plies, g.result, g.date, a.name, b.name, g.moves, g.fen
	FROM games g LEFT JOIN players a ON a.id = g.p0 LEFT JOIN players b ON b.id = g.p1
	WHERE g.id IN (SELECT value FROM json_each(?))`

// addDeep counts the occurrences the aggregate does not count: main-line
// ones from ply depth on, stored under deepKey (kept before their games
// are read); mover is the side to move (whose player played the move),
// key the position's key in its rules.
func (t *treeCount) addDeep(ctx context.Context, r *posrun.Snapshot, rg rules.Game, deepKey int64, mover int, key uint64, depth int) error {
	return r.Join(ctx, r.Occurrences(ctx, deepKey).Keep(deepAt(depth)), deepQuery, nil,
		func(rows *sql.Rows) (int64, any, error) {
			var id int64
			var l deepRow
			err := rows.Scan(&id, &l.plies, &l.res, &l.date, &l.a, &l.b, &l.blob, &l.fen)
			return id, &l, err
		},
		func(at int64, row any) bool {
			_, ply, _ := posrun.UnpackAt(at)
			l := row.(*deepRow)
			if ply >= l.plies {
				return true
			}
			if text, ok := deepMove(rg, l, ply, key); ok {
				t.addGame(text, l, mover)
			}
			return true
		})
}

// deepAt keeps the occurrences that an aggregate of depth plies does not
// count: those of main lines from ply depth on.
func deepAt(depth int) func(at int64) bool {
	return func(at int64) bool {
		_, ply, v := posrun.UnpackAt(at)
		return v == 0 && ply >= depth
	}
}

// deepMove is the text of the main-line move at ply of a game when it is
// played from the position of the rules' key key (see plyMove); !ok
// otherwise, or when its stored moves or start cannot be read.
func deepMove(rg rules.Game, l *deepRow, ply int, key uint64) (string, bool) {
	return plyMove(rg, l.blob, l.fen.String, ply, key)
}

// addGame counts a game of the move text.
func (t *treeCount) addGame(text string, l *deepRow, mover int) {
	date := l.date.String
	m := t.moves[text]
	if m == nil {
		m = &Move{Move: text}
		t.moves[text] = m
	}
	countGame(m, l.res.String, date)
	if name := [2]string{l.a.String, l.b.String}[mover]; name != "" {
		t.addPlayer(text, name, 1)
	}
}

// sorted is the tree's moves, most played first, each with its three top
// players.
func (t *treeCount) sorted() []Move {
	out := make([]Move, 0, len(t.moves))
	for _, m := range t.moves {
		for name, n := range t.tops[m.Move] {
			m.Top = append(m.Top, PlayerCount{name, n})
		}
		sort.Slice(m.Top, func(i, j int) bool {
			if m.Top[i].Games != m.Top[j].Games {
				return m.Top[i].Games > m.Top[j].Games
			}
			return m.Top[i].Name < m.Top[j].Name
		})
		if len(m.Top) > 3 {
			m.Top = m.Top[:3]
		}
		out = append(out, *m)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Games != out[j].Games {
			return out[i].Games > out[j].Games
		}
		return out[i].Move < out[j].Move
	})
	return out
}
