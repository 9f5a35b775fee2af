package replay

import (
	"fmt"
	"strings"
	"sync"

	"github.com/plateau/plateau/record"
	"github.com/plateau/plateau/rules"
)

// Warning is a fault that does not make a record invalid: its metadata
// disagree with its moves, or its ruleset was chosen by detection.
type Warning struct {
	Pos  record.Pos // the record's first token, or the last main-line move
	Kind string     // WarnResult or WarnRuleset
	Text string     // names both values
}

// Warning kinds.
const (
	// WarnResult: the Result tag differs from the movetext's result or
	// is not what the final position gives.
	WarnResult = "result"
	// WarnRuleset: the record names no ruleset; the text says which one
	// was chosen and why.
	WarnRuleset = "ruleset"
	// WarnSyntax: the record's text departs from the PDN grammar and was
	// read past (record.Warning): the text says how, and the rule.
	WarnSyntax = "syntax"
)

func (w Warning) String() string { return w.Kind + ": " + w.Text }

func (g *Game) warn(pos record.Pos, kind, text string) {
	g.Warnings = append(g.Warnings, Warning{Pos: pos, Kind: kind, Text: text})
}

// syntaxWarnings are the record's own warnings (record.Warning), first.
func (g *Game) syntaxWarnings() {
	for _, w := range g.Record.Warnings {
		g.warn(w.Pos, WarnSyntax, w.Msg+" (PDN grammar: "+w.Rule+")")
	}
}

// knownMoves is the main line up to its first unknown move, written '-'
// (a dash alone: "41. - -", as files fill games whose moves are lost): the
// moves after it cannot be played, nor checked, and are kept as written.
// The Reader warns of such moves (record.Warning).
func knownMoves(l record.Line) record.Line {
	for i, m := range l {
		if t := m.Text; t != "" && t[0] == '-' && strings.Trim(t, "-") == "" {
			return l[:i]
		}
	}
	return l
}

// unchecked reports a Result that cannot be checked against the game, with
// a warning: one that is no termination marker of any game ("4-6", a
// tournament's score; PDN recommends reading any string as a result), kept
// as written; or any Result of a record without moves whose position has no
// piece at all (an empty FEN, "W::", the empty slot of a problem set),
// where no side has won anything.
func (g *Game) unchecked(res string, final rules.Position) bool {
	pos := g.Record.Pos
	if n := len(g.Main); n > 0 {
		pos = g.Main[n-1].Src.Pos
	}
	switch {
	case !record.IsResult(res):
		g.warn(pos, WarnResult, fmt.Sprintf("[Result %q] is no result marker: kept as written, not checked against the game", record.Clip(res, 80)))
	case res != "*" && len(g.Main) == 0 && len(g.Record.Moves) == 0 && len(final.Board()) == 0:
		g.warn(pos, WarnResult, fmt.Sprintf("[Result %q] of an empty board without moves: not checked", res))
	default:
		return false
	}
	return true
}

// offBoard reports whether a game of rg may end with the result res by
// resignation (a decisive result) or agreement (a draw): its standard start
// position, which is not over, accepts res. Then a Result that an unfinished
// final position refuses is a metadata fault, not a wrong game. Ōgi, for
// one, has resignation but no draw by agreement (« la partie peut être
// déclarée nulle » only after 100 plies without capture): an early draw
// stays an error there.
func offBoard(rg rules.Game, res string) bool {
	if rg == nil {
		return false
	}
	key := rg.ID() + "\x00" + res
	if v, ok := offBoardCache.Load(key); ok {
		return v.(bool)
	}
	ok := false
	if p, err := rg.NewPosition(""); err == nil && !p.Outcome().Over {
		ok = p.CheckResult(res) == nil
	}
	offBoardCache.Store(key, ok)
	return ok
}

var offBoardCache sync.Map // ruleset id + "\x00" + result → bool
