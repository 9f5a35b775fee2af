package dames

import (
	"math/bits"

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
	precQuality                    // most pieces, then most kings (Spanish, Portuguese)
	precValue                      // most value, a king worth a little less than two men, then with a king (Frisian)
)

// free reports whether the precedence leaves a choice between captures
// that take more or fewer pieces (so that where a flying king lands is a
// rule of its own, see capGen.walk).
func (pr precedence) free() bool { return pr == precFree || pr == precKing }

// outcome says who wins a finished game.
type outcome uint8

const (
	outNormal outcome = iota // the side to move without a piece or a move loses
	outLoser                 // it wins (dames-brigand, antidraughts)
	outCrown                 // as outNormal, and the first side to crown a king wins (breakthrough)
)

// family holds the parameters of one ruleset of the engine. The Schmidt
// games and draughts have theirs too, so that the generator reads only
// parameters.
type family struct {
	geo      *geom
	first    rules.Side
	manMove  [2]dirSet // the directions a man steps in, by side
	manCap   [2]dirSet // the directions a man captures in, by side
	kingMove dirSet    // the directions a king moves in
	kingCap  dirSet    // the directions a king captures in
	flying   bool      // kings move and capture at any distance
	// landNext: a flying king lands on the square right behind the piece
	// it takes (Thai).
	landNext bool
	// removeNow: a piece taken leaves the board at once, not when the
	// sequence ends (Turkish, Thai).
	removeNow bool
	// noReverse: a sequence may not turn back 180° between two captures
	// (Turkish).
	noReverse bool
	// kingRun: a king may make at most this many non-capturing moves in a
	// row while its side has men (Frisian: 3); 0 for no limit.
	kingRun int8
	// endDraw: two kings against one, or one king each, is drawn after a
	// count of plies (Frisian, endgame.go).
	endDraw bool
	// loneKing: a single king against a single man wins (Turkish,
	// endgame.go).
	loneKing bool
	prec     precedence
	outcome  outcome
	// crownMid: a man reaching the far row during a capture is crowned and
	// goes on capturing as a king.
	crownMid  bool
	manNoKing bool // men cannot capture kings (Italian)
	algebraic bool // moves and square names are a1–h8 (PDN notation A0)
	// unnumbered: the board has no PDN numbers (every cell plays): FENs and
	// moves name squares a1–h8 only (Turkish).
	unnumbered bool
	capSep     byte // the capture separator written in canonical moves
	points     bool // results are written in PDN International points, "2-0", "0-2"
	readPts    bool // PDN International results "2-0", "1-1", "0-2" are read as well as "1-0", "0-1", "1/2-1/2"
	huffs      bool // faults are accepted and may be huffed (the Schmidt games)
	// blackFirst: Black is side 0, named first in the Result and the player
	// tags, as in the PDN GameTypes whose start colour is B (doc.go).
	blackFirst bool
	start      string
}

// flipV turns White's directions into Black's: up becomes down.
func flipV(d dirSet) dirSet {
	var out dirSet
	for x := d; x != 0; x &= x - 1 {
		switch i := bits.TrailingZeros8(uint8(x)); i {
		case upLeft:
			out |= 1 << downLeft
		case upRight:
			out |= 1 << downRight
		case downLeft:
			out |= 1 << upLeft
		case downRight:
			out |= 1 << upRight
		case up:
			out |= 1 << down
		case down:
			out |= 1 << up
		default:
			out |= 1 << i
		}
	}
	return out
}

// bySide gives White's directions and Black's mirror image.
func bySide(white dirSet) [2]dirSet { return [2]dirSet{white, flipV(white)} }

// diagonal is a family of the diagonal games: men step diagonally forward
// and capture forward (or, with back, backward too), kings move and capture
// along the four diagonals, flying or not.
func diagonal(geo *geom, first rules.Side, back, flying bool) family {
	f := family{geo: geo, first: first, manMove: bySide(diagonals & upward), kingMove: diagonals, kingCap: diagonals, flying: flying, capSep: 'x'}
	f.manCap = f.manMove
	if back {
		f.manCap = [2]dirSet{diagonals, diagonals}
	}
	return f
}

// Game is one of the rulesets of the package.
type Game struct {
	id, name string
	v        variant
	f        family
	// flipped are the layouts of f.geo with the sides exchanged, where
	// Black is side 0 (set by init).
	flipped [2]*rules.Layout
}

// with applies changes to a copy of a family (the rulesets below read as the
// family they derive from and what differs).
func (f family) with(change func(*family)) family {
	change(&f)
	return f
}

// The rulesets, registered in init.
var (
	Dames   = &Game{id: "dames", name: "Jeu de dames (Schmidt)", v: vDames, f: schmidt}
	Brigand = &Game{id: "dames-brigand", name: "Dames de brigand", v: vBrigand, f: schmidt.with(func(f *family) { f.outcome = outLoser })}
	Loup    = &Game{id: "loup-moutons", name: "Le loup et les moutons", v: vLoup, f: family{
		geo: geom8, first: black, manMove: [2]dirSet{diagonals & upward, diagonals}, capSep: 'x', start: "B:W29-32:B1"}}
	Draughts = &Game{id: "draughts", name: "International draughts (FMJD)", v: vDraughts, f: international}

	Checkers = &Game{id: "checkers", name: "English checkers", v: vFamily, f: diagonal(geom8, black, false, false).with(func(f *family) {
		f.readPts, f.blackFirst, f.start = true, true, "B:W21-32:B1-12"
	})}
	Italian = &Game{id: "italian", name: "Italian draughts", v: vFamily, f: diagonal(geom8i, white, false, false).with(func(f *family) {
		f.prec, f.manNoKing, f.readPts, f.start = precItalian, true, true, "W:W21-32:B1-12"
	})}
	Pool = &Game{id: "pool", name: "American pool checkers", v: vFamily, f: diagonal(geom8, black, true, true).with(func(f *family) {
		f.readPts, f.blackFirst, f.start = true, true, "B:W21-32:B1-12"
	})}
	Russian   = &Game{id: "russian", name: "Russian draughts", v: vFamily, f: russian}
	Brazilian = &Game{id: "brazilian", name: "Brazilian draughts", v: vFamily, f: diagonal(geom8, white, true, true).with(func(f *family) {
		f.prec, f.algebraic, f.readPts, f.start = precMajority, true, true, "W:W21-32:B1-12"
	})}
	Czech = &Game{id: "czech", name: "Czech draughts", v: vFamily, f: diagonal(geom8, white, false, true).with(func(f *family) {
		f.prec, f.algebraic, f.readPts, f.start = precKing, true, true, "W:W21-32:B1-12"
	})}
)

// The other families of PDN 3.0 (gametype.rst) and the variants of
// lidraughts (GameType 96–98 in its exports).
var (
	Spanish    = &Game{id: "spanish", name: "Spanish draughts", v: vFamily, f: iberian}
	Portuguese = &Game{id: "portuguese", name: "Portuguese draughts", v: vFamily, f: iberian}
	Canadian   = &Game{id: "canadian", name: "Canadian draughts", v: vFamily, f: international.with(func(f *family) {
		f.geo, f.start = geom12, "W:W43-72:B1-30"
	})}
	Turkish = &Game{id: "turkish", name: "Turkish draughts", v: vFamily, f: family{
		geo: geom8x, first: white, manMove: bySide(1<<up | 1<<left | 1<<right), kingMove: orthogonals, kingCap: orthogonals,
		flying: true, removeNow: true, noReverse: true, crownMid: true, loneKing: true, prec: precMajority,
		algebraic: true, unnumbered: true, capSep: 'x', readPts: true,
		start: "W:Wa3,b3,c3,d3,e3,f3,g3,h3,a2,b2,c2,d2,e2,f2,g2,h2:Ba7,b7,c7,d7,e7,f7,g7,h7,a6,b6,c6,d6,e6,f6,g6,h6"}.with(func(f *family) {
		f.manCap = f.manMove
	})}
	Thai = &Game{id: "thai", name: "Thai draughts (Mak-hos)", v: vFamily, f: diagonal(geom8t, black, false, true).with(func(f *family) {
		f.landNext, f.removeNow, f.capSep, f.readPts, f.blackFirst, f.start = true, true, '-', true, true, "B:W1-8:B25-32"
	})}
	Frisian      = &Game{id: "frisian", name: "Frisian draughts", v: vFamily, f: frisian}
	Spantsiretti = &Game{id: "spantsiretti", name: "Spantsiretti draughts", v: vFamily, f: russian.with(func(f *family) {
		f.geo, f.start = geom108, "W:W26-40:B1-15"
	})}
	Antidraughts = &Game{id: "antidraughts", name: "Antidraughts (lidraughts)", v: vFamily, f: international.with(func(f *family) {
		f.outcome = outLoser
	})}
	Breakthrough = &Game{id: "breakthrough", name: "Breakthrough (lidraughts)", v: vFamily, f: international.with(func(f *family) {
		f.outcome = outCrown
	})}
	Frysk = &Game{id: "frysk", name: "Frysk! (lidraughts)", v: vFamily, f: frisian.with(func(f *family) {
		f.points, f.start = true, "W:W46-50:B1-5"
	})}
)

var (
	iberian = diagonal(geom8s, white, false, true).with(func(f *family) {
		f.prec, f.readPts, f.start = precQuality, true, "W:W1-12:B21-32"
	})
	frisian = diagonal(geom10, white, true, true).with(func(f *family) {
		f.manCap = [2]dirSet{diagonals | orthogonals, diagonals | orthogonals}
		f.kingCap = diagonals | orthogonals
		f.prec, f.kingRun, f.endDraw, f.readPts, f.start = precValue, 3, true, true, "W:W31-50:B1-20"
	})
	schmidt = diagonal(geom10, black, true, true).with(func(f *family) {
		f.huffs, f.start = true, "B:W31-50:B1-20"
	})
	international = diagonal(geom10, white, true, true).with(func(f *family) {
		f.prec, f.points, f.readPts, f.start = precMajority, true, true, "W:W31-50:B1-20"
	})
	russian = diagonal(geom8, white, true, true).with(func(f *family) {
		f.crownMid, f.algebraic, f.capSep, f.readPts, f.start = true, true, ':', true, "W:W21-32:B1-12"
	})
)

// register completes a ruleset (the layouts of a Black-first one) and
// registers it.
func register(g *Game, alias ...string) {
	if g.f.blackFirst {
		g.flipped = [2]*rules.Layout{flipSides(g.f.geo.layouts[0]), flipSides(g.f.geo.layouts[1])}
	}
	rules.Register(g, alias...)
}

func init() {
	register(Dames)
	register(Brigand)
	register(Loup)
	register(Draughts, "20", "20,W,10,10,N2,0", "international")
	register(Checkers, "21", "21,B,8,8,N1,0", "english")
	register(Italian, "22", "22,W,8,8,N2,1")
	register(Pool, "23", "23,B,8,8,N1,0")
	register(Russian, "25", "25,W,8,8,A0,0")
	register(Brazilian, "26", "26,W,8,8,A0,0")
	register(Czech, "29", "29,W,8,8,A0,0")
	register(Spanish, "24", "24,W,8,8,N1,1")
	register(Canadian, "27", "27,W,12,12,N2,0")
	register(Portuguese, "28", "28,W,8,8,N1,1")
	register(Turkish, "30", "30,W,8,8,A0,0")
	register(Thai, "31", "31,B,8,8,N2,0")
	register(Frisian, "40", "40,W,10,10,N2,0")
	register(Spantsiretti, "41", "41,W,10,8,A0,0")
	register(Breakthrough, "96")
	register(Frysk, "97")
	register(Antidraughts, "98")
}

// ID is the Game tag value.
func (g *Game) ID() string { return g.id }

// Name is the human-readable name.
func (g *Game) Name() string { return g.name }

// Sides are the colours in result order: Black then White where Black is
// named first (checkers, pool), White then Black otherwise (in
// loup-moutons White holds the sheep and Black the wolf).
func (g *Game) Sides() [2]string {
	if g.f.blackFirst {
		return [2]string{"Black", "White"}
	}
	return [2]string{"White", "Black"}
}

// side is the rules.Side (result order) of a colour, white or black. Inside
// the package sides are colours (Position.turn, sideOf, family.first); they
// become rules.Side where the interface hands them out: ToMove, Board,
// Layout, the Drawing and the Result of an Outcome.
func (g *Game) side(colour int) rules.Side {
	if g.f.blackFirst {
		return rules.Side(colour ^ 1)
	}
	return rules.Side(colour)
}

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
