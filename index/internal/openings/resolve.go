package openings

import (
	"errors"
	"strings"

	"github.com/plateau/plateau/index/internal/gamerows"
	"github.com/plateau/plateau/index/internal/movelist"
	"github.com/plateau/plateau/rules"
)

// MaxPly bounds the plies of a game's main line whose positions can name
// it, and the plies of a named line.
const MaxPly = 40

// An Opening is a named position of a ruleset.
type Opening struct {
	ID    int64
	Game  string // ruleset id
	Key   int64  // the position's salted key (gamerows.SaltKey)
	Name  string
	Ply   int    // the plies of the line that names it
	Moves string // that line, in canonical notation
}

// Resolve plays an entry by its rules: the opening it names is the
// position after its moves. A move that does not play, an unknown
// ruleset, a line without moves or longer than MaxPly plies is an *Error.
func Resolve(e Entry) (Opening, error) {
	fail := func(line, move int, text string, err error) (Opening, error) {
		if line == 0 {
			line = e.Line
		}
		return Opening{}, &Error{File: e.File, Line: line, Move: move, Text: text, Err: err}
	}
	g, err := rules.Lookup(e.Game)
	if err != nil {
		return fail(0, 0, "", err)
	}
	pos, err := g.NewPosition(e.FEN)
	if err != nil {
		return fail(0, 0, "", err)
	}
	if len(e.Moves) == 0 {
		return fail(0, 0, "", errors.New("no moves: a name belongs to the position after a line of moves"))
	}
	o := Opening{Game: g.ID(), Name: e.Name}
	var played []string
	for i, m := range e.Moves {
		mv, err := pos.ParseMove(m.Text)
		if err != nil {
			return fail(m.Line, i+1, m.Text, err)
		}
		if !rules.KeepsTurn(pos, mv) {
			o.Ply++
		}
		played = append(played, pos.FormatMove(mv))
		pos.Play(mv)
	}
	if o.Ply > MaxPly {
		return fail(0, 0, "", errors.New("longer than the 40 plies that name a game"))
	}
	o.Key, o.Moves = gamerows.SaltKey(g.ID(), pos.Key()), strings.Join(played, " ")
	return o, nil
}

// GameKeys are the salted keys of the positions after each of the first
// plies of a stored game's main line (ml, from start), the deepest last:
// keys[i] after ply i+1. A move that keeps the turn (a huff) counts no
// ply: the position after it is not kept. ok is false when a move does
// not play.
func GameKeys(game string, ml *movelist.List, start rules.Position, plies int) (keys []int64, ok bool) {
	defer func() {
		if recover() != nil {
			keys, ok = nil, false
		}
	}()
	pos := start.Clone()
	for _, k := range ml.Main {
		if len(keys) >= plies {
			break
		}
		m := ml.Steps[k].Move
		keeps := rules.KeepsTurn(pos, m)
		pos.Play(m)
		if !keeps {
			keys = append(keys, gamerows.SaltKey(game, pos.Key()))
		}
	}
	return keys, true
}

// Deepest is the opening of a game whose main line reaches keys (the
// deepest last, GameKeys): the id that names holds for the deepest of
// them; false when none is named.
func Deepest(keys []int64, names map[int64]int64) (int64, bool) {
	for i := len(keys) - 1; i >= 0; i-- {
		if id, ok := names[keys[i]]; ok {
			return id, true
		}
	}
	return 0, false
}
