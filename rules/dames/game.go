package dames

import (
	"github.com/plateau/plateau/rules"
)

type variant uint8

const (
	vDames variant = iota
	vBrigand
	vLoup
	vDraughts
)

const (
	white = 0
	black = 1
)

// Game is one of the four rulesets of the package.
type Game struct {
	id, name string
	v        variant
}

// The four rulesets, registered in init.
var (
	Dames    = &Game{id: "dames", name: "Jeu de dames (Schmidt)", v: vDames}
	Brigand  = &Game{id: "dames-brigand", name: "Dames de brigand", v: vBrigand}
	Loup     = &Game{id: "loup-moutons", name: "Le loup et les moutons", v: vLoup}
	Draughts = &Game{id: "draughts", name: "International draughts (FMJD)", v: vDraughts}
)

func init() {
	rules.Register(Dames)
	rules.Register(Brigand)
	rules.Register(Loup)
	rules.Register(Draughts, "20", "20,W,10,10,N2,0", "international")
}

// ID is the Game tag value.
func (g *Game) ID() string { return g.id }

// Name is the human-readable name.
func (g *Game) Name() string { return g.name }

// Sides are White then Black for all four rulesets (in loup-moutons White
// holds the sheep and Black the wolf).
func (g *Game) Sides() [2]string { return [2]string{"White", "Black"} }

// IllegalMoveLoses is false: an illegal move makes a record invalid.
func (g *Game) IllegalMoveLoses() bool { return false }

// StartFEN is the standard start position of the ruleset.
func (g *Game) StartFEN() string {
	switch g.v {
	case vDraughts:
		return "W:W31-50:B1-20"
	case vLoup:
		return "B:W29-32:B1"
	}
	return "B:W31-50:B1-20"
}

// NewPosition parses a PDN FEN; "" is the standard start.
func (g *Game) NewPosition(notation string) (rules.Position, error) {
	p, err := g.parseFEN(notation)
	if err != nil {
		return nil, err
	}
	return p, nil
}

// firstMover is the side that moves first in the ruleset.
func (g *Game) firstMover() rules.Side {
	if g.v == vDraughts {
		return white
	}
	return black
}
