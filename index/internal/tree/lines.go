package tree

import (
	"context"
	"database/sql"

	"github.com/plateau/plateau/index/internal/criteria"
	"github.com/plateau/plateau/index/internal/gamerows"
	"github.com/plateau/plateau/index/internal/movelist"
	"github.com/plateau/plateau/index/internal/posrun"
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

// ReadLines reads the opening lines of the games of sel, of ruleset rg,
// in the snapshot r. A game whose moves or start cannot be read has no
// moves.
func ReadLines(ctx context.Context, r *posrun.Snapshot, rg rules.Game, sel *Selection) (*Lines, error) {
	st, err := r.Stmt(posrun.Quiet(ctx), `SELECT g.result, g.date, g.p0, g.p1, g.fen, g.moves FROM games g
		WHERE g.id IN (SELECT value FROM json_each(?)) AND g.valid = 1`)
	if err != nil {
		return nil, err
	}
	l := &Lines{sel: sel, games: make([]lineGame, 0, len(sel.IDs))}
	rd := lineReader{rg: rg}
	if rd.start, err = rg.NewPosition(""); err != nil {
		return nil, err
	}
	for i := 0; i < len(sel.IDs); i += linesBatch {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if err := l.read(posrun.Quiet(ctx), st, &rd, sel.IDs[i:min(i+linesBatch, len(sel.IDs))]); err != nil {
			return nil, err
		}
	}
	return l, nil
}

// lineReader reads opening lines from stored move lists.
type lineReader struct {
	rg      rules.Game
	start   rules.Position // the standard start
	scratch rules.Position // the position played, reused
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
	start := rd.start
	if fen != "" {
		var err error
		if start, err = rd.rg.NewPosition(fen); err != nil {
			return nil
		}
	}
	pos := rules.CopyInto(rd.scratch, start, gamerows.TreeDepth)
	rd.scratch = pos
	d := movelist.NewDecoder(blob)
	for n := d.Uvarint(); n > 0 && len(out) < gamerows.TreeDepth; n-- {
		m := rules.Move(d.Uvarint())
		for nv := d.Uvarint(); nv > 0 && d.Err() == nil; nv-- {
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

// read reads the lines of the games ids.
func (l *Lines) read(q context.Context, st *sql.Stmt, rd *lineReader, ids []int64) error {
	rows, err := st.QueryContext(q, criteria.JSONIDs(ids))
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
