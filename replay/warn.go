package replay

import (
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
)

func (w Warning) String() string { return w.Kind + ": " + w.Text }

func (g *Game) warn(pos record.Pos, kind, text string) {
	g.Warnings = append(g.Warnings, Warning{Pos: pos, Kind: kind, Text: text})
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
