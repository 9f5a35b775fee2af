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
	vFamily // an 8×8 family of PDN (checkers, italian, …): see family
)

const (
	white = 0
	black = 1
)

// precedence is the rule that restricts the choice among captures.
type precedence uint8

const (
	precFree     precedence = iota // any complete capture sequence
	precMajority                   // the most pieces (FMJD; kings and men alike)
	precItalian                    // most pieces, then with a king, then most kings, then kings first
	precKing                       // a king's capture before a man's (Czech)
)

// family holds the parameters of one ruleset of the engine. The Schmidt
// games and draughts have theirs too, so that the generator reads only
// parameters.
type family struct {
	geo       *geom
	first     rules.Side
	manBack   bool // men capture backward
	flying    bool // kings move and capture at any distance
	prec      precedence
	crownMid  bool // a man reaching the far row during a capture is crowned and goes on capturing as a king
	manNoKing bool // men cannot capture kings (Italian)
	algebraic bool // moves and square names are a1–h8 (PDN notation A0)
	capSep    byte // the capture separator written in canonical moves
	points    bool // results are written in PDN International points, "2-0", "0-2"
	readPts   bool // PDN International results "2-0", "1-1", "0-2" are read as well as "1-0", "0-1", "1/2-1/2"
	huffs     bool // faults are accepted and may be huffed (the Schmidt games)
	start     string
}

// Game is one of the rulesets of the package.
type Game struct {
	id, name string
	v        variant
	f        family
}

// The rulesets, registered in init.
var (
	Dames    = &Game{id: "dames", name: "Jeu de dames (Schmidt)", v: vDames, f: schmidt}
	Brigand  = &Game{id: "dames-brigand", name: "Dames de brigand", v: vBrigand, f: schmidt}
	Loup     = &Game{id: "loup-moutons", name: "Le loup et les moutons", v: vLoup, f: family{geo: geom8, first: black, capSep: 'x', start: "B:W29-32:B1"}}
	Draughts = &Game{id: "draughts", name: "International draughts (FMJD)", v: vDraughts, f: family{geo: geom10, first: white, manBack: true, flying: true, prec: precMajority, capSep: 'x', points: true, readPts: true, start: "W:W31-50:B1-20"}}

	Checkers = &Game{id: "checkers", name: "English checkers", v: vFamily, f: family{
		geo: geom8, first: black, capSep: 'x', readPts: true, start: "B:W21-32:B1-12"}}
	Italian = &Game{id: "italian", name: "Italian draughts", v: vFamily, f: family{
		geo: geom8i, first: white, prec: precItalian, manNoKing: true, capSep: 'x', readPts: true, start: "W:W21-32:B1-12"}}
	Pool = &Game{id: "pool", name: "American pool checkers", v: vFamily, f: family{
		geo: geom8, first: black, manBack: true, flying: true, capSep: 'x', readPts: true, start: "B:W21-32:B1-12"}}
	Russian = &Game{id: "russian", name: "Russian draughts", v: vFamily, f: family{
		geo: geom8, first: white, manBack: true, flying: true, crownMid: true, algebraic: true, capSep: ':', readPts: true, start: "W:W21-32:B1-12"}}
	Brazilian = &Game{id: "brazilian", name: "Brazilian draughts", v: vFamily, f: family{
		geo: geom8, first: white, manBack: true, flying: true, prec: precMajority, algebraic: true, capSep: 'x', readPts: true, start: "W:W21-32:B1-12"}}
	Czech = &Game{id: "czech", name: "Czech draughts", v: vFamily, f: family{
		geo: geom8, first: white, flying: true, prec: precKing, algebraic: true, capSep: 'x', readPts: true, start: "W:W21-32:B1-12"}}
)

var schmidt = family{geo: geom10, first: black, manBack: true, flying: true, capSep: 'x', huffs: true, start: "B:W31-50:B1-20"}

func init() {
	rules.Register(Dames)
	rules.Register(Brigand)
	rules.Register(Loup)
	rules.Register(Draughts, "20", "20,W,10,10,N2,0", "international")
	rules.Register(Checkers, "21", "21,B,8,8,N1,0", "english")
	rules.Register(Italian, "22", "22,W,8,8,N2,1")
	rules.Register(Pool, "23", "23,B,8,8,N1,0")
	rules.Register(Russian, "25", "25,W,8,8,A0,0")
	rules.Register(Brazilian, "26", "26,W,8,8,A0,0")
	rules.Register(Czech, "29", "29,W,8,8,A0,0")
}

// ID is the Game tag value.
func (g *Game) ID() string { return g.id }

// Name is the human-readable name.
func (g *Game) Name() string { return g.name }

// Sides are White then Black for every ruleset (in loup-moutons White
// holds the sheep and Black the wolf).
func (g *Game) Sides() [2]string { return [2]string{"White", "Black"} }

// IllegalMoveLoses is false: an illegal move makes a record invalid.
func (g *Game) IllegalMoveLoses() bool { return false }

// StartFEN is the standard start position of the ruleset.
func (g *Game) StartFEN() string { return g.f.start }

// NewPosition parses a PDN FEN; "" is the standard start.
func (g *Game) NewPosition(notation string) (rules.Position, error) {
	p, err := g.parseFEN(notation)
	if err != nil {
		return nil, err
	}
	return p, nil
}

// firstMover is the side that moves first in the ruleset.
func (g *Game) firstMover() rules.Side { return g.f.first }
