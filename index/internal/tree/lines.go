package tree

import (
	"context"
	"database/sql"
	"fmt"
	"slices"

	"github.com/plateau/plateau/index/internal/gamerows"
	"github.com/plateau/plateau/index/internal/movelist"
	"github.com/plateau/plateau/index/internal/playerlines"
	"github.com/plateau/plateau/index/internal/posrun"
	"github.com/plateau/plateau/index/internal/store"
	"github.com/plateau/plateau/rules"
)

// Lines are the opening lines of a selection of games: each game's
// main-line moves of its first gamerows.TreeDepth plies, with the keys of
// the positions they are played from, as the aggregate counts them
// (gamerows.TreeMove), and its result, date and players. The shallow
// moves of a filtered tree of those games are read from them instead of
// from the position's occurrences: a player's games are few beside those
// of an opening position, and a reader that keeps the lines (the
// database keeps the last ones) steps through the tree without reading
// the games again.
type Lines struct {
	sel   *Selection
	games []lineGame
}

// lineGame is a game of Lines.
type lineGame struct {
	result, date string
	p            [2]sql.NullInt64
	moves        []lineMove
}

// lineMove is a move of an opening line: the key in the rules of the
// position it is played from, and its stored value (a move of that
// position).
type lineMove struct {
	key  uint64
	move rules.Move
}

// Games is the number of games of l.
func (l *Lines) Games() int { return len(l.games) }

// linesBatch is the number of games ReadLines reads a statement.
const linesBatch = 2048

// PlayerSide is a player on one side (0 first): the games of a selection
// that the players' lines (internal/playerlines) hold under them.
type PlayerSide struct {
	Player int64
	Side   int
}

// ReadLines reads the opening lines of the games of sel, of ruleset rg,
// in the snapshot r: first from the players' lines of players, which
// hold them in a range each (a selection of a player's games: nil for
// none), then the games left from their rows. A game whose moves or
// start cannot be read has no moves.
func ReadLines(ctx context.Context, r *posrun.Snapshot, rg rules.Game, sel *Selection, players []PlayerSide) (*Lines, error) {
	l := &Lines{sel: sel, games: make([]lineGame, 0, len(sel.IDs))}
	rd := lineReader{rg: rg}
	var err error
	if rd.start, err = rg.NewPosition(""); err != nil {
		return nil, err
	}
	left := sel.IDs
	if len(players) > 0 {
		if left, err = l.readPlayers(ctx, r, &rd, players); err != nil {
			return nil, err
		}
	}
	if len(left) == 0 {
		return l, nil
	}
	st, err := r.Stmt(posrun.Quiet(ctx), `SELECT g.result, g.date, g.p0, g.p1, g.fen, g.moves FROM games g
		WHERE g.id IN (SELECT value FROM json_each(?)) AND g.valid = 1 AND g.game = ?`)
	if err != nil {
		return nil, err
	}
	for i := 0; i < len(left); i += linesBatch {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if err := l.read(posrun.Quiet(ctx), st, &rd, left[i:min(i+linesBatch, len(left))]); err != nil {
			return nil, err
		}
	}
	return l, nil
}

// readPlayers reads the lines of the games of l's selection that the
// players' lines of players hold, each game once, and returns the ids of
// the others.
func (l *Lines) readPlayers(ctx context.Context, r *posrun.Snapshot, rd *lineReader, players []PlayerSide) ([]int64, error) {
	q := posrun.Quiet(ctx)
	st, err := r.Stmt(q, `SELECT game, lines FROM player_lines WHERE player = ? AND side = ?`)
	if err != nil {
		return nil, err
	}
	left := slices.Clone(l.sel.Set)
	var pl playerlines.Line
	for _, ps := range players {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if err := l.readPlayer(q, st, rd, ps, left, &pl); err != nil {
			return nil, err
		}
	}
	var out []int64
	for _, id := range l.sel.IDs {
		if left.Has(id) {
			out = append(out, id)
		}
	}
	return out, nil
}

// lineReader reads opening lines from stored move lists.
type lineReader struct {
	rg      rules.Game
	start   rules.Position // the standard start
	scratch rules.Position // the position played, reused
	slab    []lineMove     // the memory of the lines played (played)
}

// line is the opening line of a stored move list from the start fen (""
// for the standard one): the main line's moves of its first TreeDepth
// plies that hand the turn over (a huff is not a tree move), each with
// the key of the position it is played from, as the aggregate counts them
// (gamerows.TreeMove); nil when the moves or the start cannot be read.
// It reads the list no further than those plies.
func (rd *lineReader) line(blob []byte, fen string) (out []lineMove) {
	defer func() {
		if recover() != nil {
			out = nil
		}
	}()
	pos := rd.startAt(fen)
	if pos == nil {
		return nil
	}
	d := movelist.NewDecoder(blob)
	for n := d.Uvarint(); n > 0 && len(out) < gamerows.TreeDepth; n-- {
		m, nv := d.Step()
		for ; nv > 0 && d.Err() == nil; nv-- {
			movelist.SkipLine(&d)
		}
		if d.Err() != nil {
			return nil
		}
		if !rules.KeepsTurn(pos, m) {
			out = append(out, lineMove{pos.Key(), m})
		}
		pos.Play(m)
	}
	return out
}

// readPlayer reads the lines of the games of ps in left, and takes them
// out of left.
func (l *Lines) readPlayer(q context.Context, st *sql.Stmt, rd *lineReader, ps PlayerSide, left posrun.IDSet, pl *playerlines.Line) error {
	return eachLine(q, st, ps, func(id int64, line []byte) error {
		if !left.Has(id) {
			return nil
		}
		left.Remove(id)
		g, ok, err := rd.stored(ps, id, line, pl)
		if ok {
			l.games = append(l.games, g)
		}
		return err
	})
}

// eachLine calls f with each stored line of the games of ps (their
// chunks read through st, internal/playerlines).
func eachLine(q context.Context, st *sql.Stmt, ps PlayerSide, f func(id int64, line []byte) error) error {
	rows, err := st.QueryContext(q, ps.Player, ps.Side)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var first int64
		var blob sql.RawBytes
		if err := rows.Scan(&first, &blob); err != nil {
			return err
		}
		c := playerlines.NewChunk(first, blob)
		for c.Next() {
			if err := f(c.Game(), c.Line()); err != nil {
				return err
			}
		}
		if err := c.Err(); err != nil {
			return fmt.Errorf("the lines of player %d as side %d from game #%d: %w", ps.Player, ps.Side, first, err)
		}
	}
	return rows.Err()
}

// stored is the line game of a stored line of game id of ps (decoded in
// pl); false for a game of another ruleset, which is not of the tree.
func (rd *lineReader) stored(ps PlayerSide, id int64, line []byte, pl *playerlines.Line) (lineGame, bool, error) {
	if err := playerlines.Decode(line, pl); err != nil {
		return lineGame{}, false, fmt.Errorf("game #%d: %w", id, err)
	}
	if pl.Game != rd.rg.ID() {
		return lineGame{}, false, nil
	}
	return rd.game(ps, pl), true, nil
}

// game is the line game of pl, a decoded line of ps.
func (rd *lineReader) game(ps PlayerSide, pl *playerlines.Line) lineGame {
	g := lineGame{result: pl.Result, date: pl.Date, moves: rd.played(pl.Moves, pl.FEN)}
	g.p[ps.Side] = sql.NullInt64{Int64: ps.Player, Valid: true}
	g.p[1-ps.Side] = sql.NullInt64{Int64: pl.Opponent, Valid: pl.Opponent != 0}
	return g
}

// startAt is the start position fen ("" for the standard one) copied
// into the reader's scratch position; nil when fen cannot be read.
func (rd *lineReader) startAt(fen string) rules.Position {
	start := rd.start
	if fen != "" {
		var err error
		if start, err = rd.rg.NewPosition(fen); err != nil {
			return nil
		}
	}
	rd.scratch = rules.CopyInto(rd.scratch, start, gamerows.TreeDepth)
	return rd.scratch
}

// played is the opening line of moves, a game's main-line moves before
// ply gamerows.TreeDepth (the huffs among them included) from the start
// fen ("" for the standard one), as line reads it from a move list; nil
// when the moves or the start cannot be read.
func (rd *lineReader) played(moves []rules.Move, fen string) (out []lineMove) {
	defer func() {
		if recover() != nil {
			out = nil
		}
	}()
	pos := rd.startAt(fen)
	if pos == nil {
		return nil
	}
	if cap(rd.slab)-len(rd.slab) < len(moves) {
		rd.slab = make([]lineMove, 0, max(slabMoves, len(moves)))
	}
	at := len(rd.slab)
	for _, m := range moves {
		if !rules.KeepsTurn(pos, m) {
			rd.slab = append(rd.slab, lineMove{pos.Key(), m})
		}
		pos.Play(m)
	}
	return rd.slab[at:len(rd.slab):len(rd.slab)]
}

// slabMoves is the number of moves of the lines played that one
// allocation holds.
const slabMoves = 4096

// read reads the lines of the games ids.
func (l *Lines) read(q context.Context, st *sql.Stmt, rd *lineReader, ids []int64) error {
	rows, err := st.QueryContext(q, store.JSONIDs(ids), rd.rg.ID())
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var g lineGame
		var res, date, fen sql.NullString
		var blob []byte
		if err := rows.Scan(&res, &date, &g.p[0], &g.p[1], &fen, &blob); err != nil {
			return err
		}
		g.result, g.date = res.String, date.String
		g.moves = rd.line(blob, fen.String)
		l.games = append(l.games, g)
	}
	return rows.Err()
}

// ReadFromLines lists the moves played from pos (of ruleset rg) in the main
// lines of the games of l, most played first, as Read does for every
// game: the first plies' moves from the lines, the deeper occurrences,
// stored under deepKey, joined with their games (as ReadGames does).
func ReadFromLines(ctx context.Context, r *posrun.Snapshot, rg rules.Game, pos rules.Position, deepKey int64, l *Lines) ([]Move, error) {
	c := newValueCount(rg, pos)
	for i := range l.games {
		g := &l.games[i]
		for _, m := range g.moves {
			if m.key != c.key {
				continue
			}
			vm := c.byValue[m.move]
			if vm == nil {
				vm = &valueMove{players: map[int64]int{}}
				c.byValue[m.move] = vm
			}
			countGame(&vm.Move, g.result, g.date)
			if p := g.p[c.mover]; p.Valid {
				vm.players[p.Int64]++
			}
		}
	}
	it := r.Occurrences(ctx, deepKey).Keep(func(at int64) bool {
		g, _, v := posrun.UnpackAt(at)
		return v == 0 && l.sel.Set.Has(g)
	})
	if err := c.join(ctx, r, it, "", nil); err != nil {
		return nil, err
	}
	return c.moves(posrun.Quiet(ctx), r)
}

// Counted is the number of main-line occurrences the aggregate counts at
// key (the salted key of a position): the games of its tree's rows.
func Counted(ctx context.Context, r *posrun.Snapshot, key int64) (int, error) {
	st, err := r.Stmt(posrun.Quiet(ctx), `SELECT COALESCE(SUM(n), 0) FROM tree WHERE key = ?`)
	if err != nil {
		return 0, err
	}
	var n int
	err = st.QueryRowContext(posrun.Quiet(ctx), key).Scan(&n)
	return n, err
}

// LineFilter is a condition on games that their players' lines answer
// (playerlines.Filter).
type LineFilter = playerlines.Filter

// ReadPlayerGames reads the valid games of ruleset rg of players (the
// union of their ranges, each game once) that f keeps from the players'
// lines, in the snapshot r: their selection, and their lines when they
// are at most limit games (nil otherwise). A selection of a player's games
// alone, or in a period, needs no other read.
func ReadPlayerGames(ctx context.Context, r *posrun.Snapshot, rg rules.Game, players []PlayerSide, f *LineFilter, limit int) (*Selection, *Lines, error) {
	q := posrun.Quiet(ctx)
	st, err := r.Stmt(q, `SELECT game, lines FROM player_lines WHERE player = ? AND side = ?`)
	if err != nil {
		return nil, nil, err
	}
	rd := lineReader{rg: rg}
	if rd.start, err = rg.NewPosition(""); err != nil {
		return nil, nil, err
	}
	sel := &Selection{}
	l := &Lines{sel: sel}
	var seen map[int64]bool // with several ranges, which may share games
	if len(players) > 1 {
		seen = map[int64]bool{}
	}
	var pl playerlines.Line
	for _, ps := range players {
		if err := ctx.Err(); err != nil {
			return nil, nil, err
		}
		err := eachLine(q, st, ps, func(id int64, line []byte) error {
			if seen != nil {
				if seen[id] {
					return nil
				}
				seen[id] = true
			}
			if err := playerlines.Decode(line, &pl); err != nil {
				return fmt.Errorf("game #%d: %w", id, err)
			}
			if pl.Game != rg.ID() || !f.Keeps(&pl) {
				return nil
			}
			sel.IDs = append(sel.IDs, id)
			if len(sel.IDs) <= limit {
				// Not too many games for lines.
				l.games = append(l.games, rd.game(ps, &pl))
			}
			return nil
		})
		if err != nil {
			return nil, nil, err
		}
	}
	sel.index()
	if len(sel.IDs) > limit {
		l = nil
	}
	return sel, l, nil
}

// index sorts s's ids and makes its set.
func (s *Selection) index() {
	slices.Sort(s.IDs)
	top := int64(0)
	if len(s.IDs) > 0 {
		top = s.IDs[len(s.IDs)-1]
	}
	s.Set = posrun.NewIDSet(top)
	for _, id := range s.IDs {
		s.Set.Add(id)
	}
}
