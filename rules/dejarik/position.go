package dejarik

import (
	"math/bits"
	"strings"

	"github.com/plateau/plateau/rules"
)

// Side 0 is White, side 1 Black, in result order.
const (
	White rules.Side = 0
	Black rules.Side = 1
)

// StartFEN is the standard start: White on o1–o4, Black on o7–o10, White to
// move, both sides in their first turn.
const StartFEN = "W:Wo1,o2,o3,o4:Bo7,o8,o9,o10"

type game struct{}

func (game) ID() string             { return "dejarik" }
func (game) Name() string           { return "Dejarik classique" }
func (game) Sides() [2]string       { return [2]string{"White", "Black"} }
func (game) IllegalMoveLoses() bool { return false }
func (game) NewPosition(n string) (rules.Position, error) {
	p, err := Parse(n)
	if err != nil {
		return nil, err
	}
	return p, nil
}

// Game is the Dejarik ruleset, registered as "dejarik".
var Game rules.Game = game{}

func init() { rules.Register(Game) }

// Position is a Dejarik position with the history of the game since it was
// set up, for the threefold-repetition rule.
type Position struct {
	pawns  [2]uint32 // cell sets
	toMove rules.Side
	first  [2]bool // the side has not yet played (its first turn is to come)
	key    uint64
	// hist holds the key of every position of the game, the current one
	// last. Positions before index irrev can never recur (a pawn was taken
	// or a first turn was spent since). Clone shares the array: appends
	// copy it (the clone's capacity is cut to its length).
	hist  []uint64
	irrev int
	// own is the position that may write over hist's array (one made by
	// CopyInto); a copy of the struct (Clone) does not own it.
	own *Position
}

// Parse reads a position: side to move, then each side's cells, then an
// optional first-turn field, e.g. "B:Wi1,o2,o3,o4:Bo7,o8,o9,o10:FB". ""
// is the standard start.
func Parse(notation string) (*Position, error) {
	s := strings.TrimSpace(notation)
	if s == "" {
		s = StartFEN
	}
	fields := strings.Split(s, ":")
	p := &Position{first: [2]bool{true, true}}
	switch strings.TrimSpace(fields[0]) {
	case "W", "w":
		p.toMove = White
	case "B", "b":
		p.toMove = Black
	default:
		return nil, rules.PositionError(notation, "side to move %q is not W or B", strings.TrimSpace(fields[0]))
	}
	var seen [2]bool
	seenF := false
	for _, f := range fields[1:] {
		f = strings.TrimSpace(f)
		if f == "" {
			return nil, rules.PositionError(notation, "empty field")
		}
		var side rules.Side
		switch f[0] {
		case 'W', 'w':
			side = White
		case 'B', 'b':
			side = Black
		case 'F', 'f':
			if seenF {
				return nil, rules.PositionError(notation, "two first-turn fields")
			}
			seenF = true
			if err := p.parseFirst(notation, f); err != nil {
				return nil, err
			}
			continue
		default:
			return nil, rules.PositionError(notation, "field %q does not start with W, B or F", f)
		}
		if seen[side] {
			return nil, rules.PositionError(notation, "two fields for %s", Game.Sides()[side])
		}
		seen[side] = true
		if err := p.parseCells(notation, side, f[1:]); err != nil {
			return nil, err
		}
	}
	for side := range seen {
		if !seen[side] {
			return nil, rules.PositionError(notation, "no field for %s", Game.Sides()[side])
		}
		if n := bits.OnesCount32(p.pawns[side]); n > 4 {
			return nil, rules.PositionError(notation, "%s has %d pawns (at most 4)", Game.Sides()[side], n)
		}
	}
	if bits.OnesCount32(p.pawns[0]) <= 2 && bits.OnesCount32(p.pawns[1]) <= 2 {
		return nil, rules.PositionError(notation, "both sides have lost two pawns")
	}
	p.key = p.computeKey()
	p.hist = []uint64{p.key}
	return p, nil
}

// parseFirst reads the first-turn field f of notation ("FWB", "FB", "F-"):
// the sides still in their first turn.
func (p *Position) parseFirst(notation, f string) error {
	fl := strings.TrimSpace(f[1:])
	p.first = [2]bool{}
	if fl == "-" {
		return nil
	}
	if fl == "" {
		return rules.PositionError(notation, "first-turn field %q: want sides (W, B, WB) or -", f)
	}
	for _, r := range fl {
		var side rules.Side
		switch r {
		case 'W', 'w':
			side = White
		case 'B', 'b':
			side = Black
		default:
			return rules.PositionError(notation, "first-turn field %q: want sides (W, B, WB) or -", f)
		}
		if p.first[side] {
			return rules.PositionError(notation, "first-turn field %q names %s twice", f, Game.Sides()[side])
		}
		p.first[side] = true
	}
	return nil
}

// parseCells reads side's cells, the list of a side's field of notation
// ("o1,o2,c").
func (p *Position) parseCells(notation string, side rules.Side, list string) error {
	for _, cs := range strings.Split(list, ",") {
		cs = strings.TrimSpace(cs)
		c, ok := parseCell(cs)
		if !ok {
			return rules.PositionError(notation, "%q is not a cell (c, i1–i12, o1–o12)", cs)
		}
		if (p.pawns[0]|p.pawns[1])&bit(c) != 0 {
			return rules.PositionError(notation, "two pawns on %s", cellName(c))
		}
		p.pawns[side] |= bit(c)
	}
	return nil
}

// computeKey hashes the position from scratch.
func (p *Position) computeKey() uint64 {
	var k uint64
	for side := range p.pawns {
		for set := p.pawns[side]; set != 0; set &= set - 1 {
			k ^= zobrist.cell[side][bits.TrailingZeros32(set)]
		}
		if p.first[side] {
			k ^= zobrist.first[side]
		}
	}
	if p.toMove == Black {
		k ^= zobrist.black
	}
	return k
}

// String writes the position: side to move, White's cells, Black's cells
// (centre, inner ring, outer ring in number order), and ":F…" listing the
// sides still in their first turn ("-" for none) unless both are.
func (p *Position) String() string {
	var b strings.Builder
	b.Grow(48)
	b.WriteString("WB"[p.toMove : p.toMove+1])
	for side := range p.pawns {
		b.WriteByte(':')
		b.WriteString("WB"[side : side+1])
		n := 0
		for set := p.pawns[side]; set != 0; set &= set - 1 {
			if n > 0 {
				b.WriteByte(',')
			}
			b.WriteString(cellName(bits.TrailingZeros32(set)))
			n++
		}
	}
	if !(p.first[0] && p.first[1]) {
		b.WriteString(":F")
		switch {
		case p.first[0]:
			b.WriteString("W")
		case p.first[1]:
			b.WriteString("B")
		default:
			b.WriteString("-")
		}
	}
	return b.String()
}

func (p *Position) Key() uint64        { return p.key }
func (p *Position) ToMove() rules.Side { return p.toMove }

// FirstTurn reports whether side has not played yet (diagonal exits are
// forbidden in its first turn).
func (p *Position) FirstTurn(side rules.Side) bool { return p.first[side] }

// Clone returns an independent copy; the history array is shared until
// either copy appends to it.
func (p *Position) Clone() rules.Position {
	c := *p
	c.hist = p.hist[:len(p.hist):len(p.hist)]
	return &c
}

// Board lists the pawns, kind 'P'.
func (p *Position) Board() []rules.Placement {
	out := make([]rules.Placement, 0, 8)
	for side := range p.pawns {
		for set := p.pawns[side]; set != 0; set &= set - 1 {
			out = append(out, rules.Placement{Square: cellName(bits.TrailingZeros32(set)), Side: rules.Side(side), Kind: 'P', Count: 1})
		}
	}
	return out
}

// Reasons given by Outcome as the Termination.
const (
	ReasonFour       = "four aligned"
	ReasonThree      = "three aligned"
	ReasonTwoTaken   = "two pawns taken"
	ReasonRepetition = "threefold repetition"
	ReasonBlocked    = "blocked"
)

// Outcome tells whether the game is over. In order: the side that just
// moved has aligned its pawns; the side to move has (a capture can leave
// its last three pawns aligned); a side has lost two pawns; the position
// has occurred three times; the side to move has no move.
func (p *Position) Outcome() rules.Outcome {
	if o, over := p.stateOutcome(); over {
		return o
	}
	if !p.hasMove() {
		return rules.Outcome{Over: true, Result: "0-0", Reason: ReasonBlocked}
	}
	return rules.Outcome{}
}

func (p *Position) stateOutcome() (rules.Outcome, bool) {
	mover := p.toMove.Other()
	for _, s := range [2]rules.Side{mover, p.toMove} {
		switch n := bits.OnesCount32(p.pawns[s]); {
		case n == 4 && aligned(p.pawns[s]):
			return win(s, 3, ReasonFour), true
		case n == 3 && aligned(p.pawns[s]):
			return win(s, 1, ReasonThree), true
		}
	}
	for s := range p.pawns {
		if bits.OnesCount32(p.pawns[s]) <= 2 {
			return win(rules.Side(s).Other(), 2, ReasonTwoTaken), true
		}
	}
	if p.repetitions() >= 3 {
		return rules.Outcome{Over: true, Result: "1-1", Reason: ReasonRepetition}, true
	}
	return rules.Outcome{}, false
}

func win(s rules.Side, points int, reason string) rules.Outcome {
	r := string(rune('0'+points)) + "-0"
	if s == Black {
		r = "0-" + string(rune('0'+points))
	}
	return rules.Outcome{Over: true, Result: r, Reason: reason}
}

// repetitions counts how many times the current position has occurred.
func (p *Position) repetitions() int {
	n := 0
	for _, k := range p.hist[p.irrev:] {
		if k == p.key {
			n++
		}
	}
	return n
}
