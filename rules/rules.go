// Package rules defines what every game Plateau plays must provide, and a
// registry of the games by id.
//
// A game (Game) knows its id, its sides in result order and how to build a
// position from its position notation. A Position is mutable: Play changes it
// in place and Clone copies it. Moves are small opaque integers (Move) whose
// meaning belongs to the game that made them; only the Position that parsed or
// generated a move may format or play it.
//
// Decisions made here, for every game:
//   - Side 0 is the first side of the Result tag ("1-0" is a win for side 0);
//     it is not necessarily the side that moves first (Black moves first in
//     dames, yet White is side 0).
//   - Move parsing and legality are one step: ParseMove returns either a legal
//     move or a *MoveError saying which rule the text breaks. A game in which an
//     illegal move is itself a game result (Ōgi) says so with IllegalMoveLoses.
//   - A move that does not hand the turn over (a huff in dames, written H27
//     before the player's own move) is still a Move, marked KeepsTurn by
//     Describe; it is not a ply and Legal never lists it.
//   - The final position judges the Result tag (CheckResult), because only the
//     game knows which results a finished or unfinished position allows.
//
// Everything about a game lives in its package, so that adding a game
// touches that package and rules/all only: beside its rules, how its board
// is drawn (a draw.Drawer, in rules/draw) and how its games usually go for
// the generator of collections (a Profiler). Both are optional interfaces
// that the consumers check, as are the fast paths of a Position (Cells,
// Copier, FactsDescriber, MoveAppender, Chooser…).
package rules

import (
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"
)

// Side is an index into Game.Sides: 0 or 1, in result order.
type Side int8

// Other returns the opponent of s.
func (s Side) Other() Side { return 1 - s }

// Move is a move encoded by the game that generated or parsed it.
type Move uint64

// Game is one ruleset.
type Game interface {
	// ID is the value of the record's Game tag: "ogi", "dames", "draughts", …
	ID() string
	// Name is a human-readable name ("Ōgi", "Jeu de dames (Schmidt)").
	Name() string
	// Sides are the player tag names in result order ("Sente", "Gote").
	Sides() [2]string
	// NewPosition parses a position in the game's notation; "" is the
	// standard start position.
	NewPosition(notation string) (Position, error)
	// IllegalMoveLoses reports whether playing an illegal move ends the game
	// with a loss for the player who made it (so that a record may end with one).
	IllegalMoveLoses() bool
}

// Position is a game position. It is not safe for concurrent use.
type Position interface {
	// String is the position in the game's position notation (canonical).
	String() string
	// Key is a 64-bit hash of everything that makes two positions equal under
	// the game's rules (side to move and hands included), kept incrementally.
	Key() uint64
	// ToMove is the side whose turn it is.
	ToMove() Side
	// Legal appends every legal move to dst, as the notation distinguishes
	// them (the unit perft counts), and returns it.
	Legal(dst []Move) []Move
	// ParseMove reads a move in the game's notation (short or long form) and
	// returns it if it is legal here. Otherwise the error is a *MoveError.
	ParseMove(text string) (Move, error)
	// FormatMove writes a move of this position in canonical (long) form.
	FormatMove(m Move) string
	// Describe tells what a move of this position does, cheaply (no play).
	Describe(m Move) MoveInfo
	// Play makes a move returned by Legal or ParseMove on this position.
	Play(m Move)
	// Clone returns an independent copy.
	Clone() Position
	// Outcome tells whether the game is over in this position and how.
	Outcome() Outcome
	// CheckResult reports whether a record may end in this position with the
	// given Result tag value; the error says why not.
	CheckResult(result string) error
	// Board lists the pieces on the board and in hand, for diagrams, pattern
	// search and material counts.
	Board() []Placement
	// Diagram draws the position for a terminal (Unicode, with hands and the
	// side to move).
	Diagram() string
}

// Placement is one piece: on a square, or in a hand when Square is "".
type Placement struct {
	Square   string // square name in the game's notation; "" for a hand
	Side     Side
	Kind     byte // the piece letter in the game's notation, upper case
	Promoted bool
	Count    int // number of such pieces in hand; 1 on the board
}

// MoveInfo describes a move, for replay remarks, indexing and move-choice
// policies.
type MoveInfo struct {
	From, To string // square names in the game's notation; From is "" for a drop
	Captures int    // how many enemy pieces the move removes from the board
	Promotes bool   // the moved piece is promoted (crowned) by the move
	Drop     bool   // a piece is put on the board from a hand
	// KeepsTurn is true for a move after which the same side moves again
	// (a dames huff); such a move is not a ply.
	KeepsTurn bool
	// Note is a remark the replay reports with the move although the move is
	// accepted: a dames move that ignored a compulsory capture ("fault").
	Note string
}

// Outcome is the state of a game in a position.
type Outcome struct {
	Over   bool
	Result string // the Result tag value when Over ("1-0", "2-0", "3-0", "1/2-1/2")
	Reason string // the Termination: "king captured", "blocked", …
}

// MoveErrorKind classifies a move that could not be played.
type MoveErrorKind int

const (
	// Syntax: the text is not a move in the game's notation.
	Syntax MoveErrorKind = iota + 1
	// Ambiguous: a short form matches several legal moves.
	Ambiguous
	// Illegal: the text names a move the rules forbid.
	Illegal
)

func (k MoveErrorKind) String() string {
	switch k {
	case Syntax:
		return "syntax"
	case Ambiguous:
		return "ambiguous"
	case Illegal:
		return "illegal"
	}
	return "unknown"
}

// ErrMove is the sentinel every *MoveError wraps.
var ErrMove = errors.New("bad move")

// MoveError says why a move text could not be played.
type MoveError struct {
	Text       string // the move as written
	Kind       MoveErrorKind
	Rule       string   // for Illegal: the rule broken, in a few words ("pawn drop", "repetition")
	Candidates []string // for Ambiguous: the legal moves that match, canonical form
	Detail     string   // free text
}

func (e *MoveError) Error() string {
	var b strings.Builder
	switch e.Kind {
	case Ambiguous:
		fmt.Fprintf(&b, "ambiguous move %q: could be %s", e.Text, strings.Join(e.Candidates, ", "))
	case Illegal:
		fmt.Fprintf(&b, "illegal move %q", e.Text)
		if e.Rule != "" {
			fmt.Fprintf(&b, " (%s)", e.Rule)
		}
	default:
		fmt.Fprintf(&b, "cannot read move %q", e.Text)
	}
	if e.Detail != "" {
		b.WriteString(": ")
		b.WriteString(e.Detail)
	}
	return b.String()
}

func (e *MoveError) Unwrap() error { return ErrMove }

// ErrPosition is wrapped by every error from NewPosition.
var ErrPosition = errors.New("bad position")

// PositionError reports a position notation that cannot be read.
func PositionError(notation, format string, args ...any) error {
	return fmt.Errorf("%w %q: %s", ErrPosition, notation, fmt.Sprintf(format, args...))
}

// ErrResult is wrapped by every error from CheckResult.
var ErrResult = errors.New("result does not match the game")

var (
	mu       sync.RWMutex
	registry = map[string]Game{}
	aliases  = map[string]string{}
)

// Register adds a game; a game package calls it from init. Aliases are other
// values of the Game tag that mean the same ruleset.
func Register(g Game, alias ...string) {
	mu.Lock()
	defer mu.Unlock()
	if _, dup := registry[g.ID()]; dup {
		panic("rules: game registered twice: " + g.ID())
	}
	registry[g.ID()] = g
	for _, a := range alias {
		aliases[strings.ToLower(a)] = g.ID()
	}
}

// ErrUnknownGame is returned by Lookup.
var ErrUnknownGame = errors.New("unknown game")

// Lookup finds a game by id or alias (case-insensitive).
func Lookup(id string) (Game, error) {
	mu.RLock()
	defer mu.RUnlock()
	key := strings.ToLower(strings.TrimSpace(id))
	if g, ok := registry[key]; ok {
		return g, nil
	}
	if real, ok := aliases[key]; ok {
		return registry[real], nil
	}
	return nil, fmt.Errorf("%w %q", ErrUnknownGame, id)
}

// Games lists every registered game, sorted by id.
func Games() []Game {
	mu.RLock()
	defer mu.RUnlock()
	out := make([]Game, 0, len(registry))
	for _, g := range registry {
		out = append(out, g)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID() < out[j].ID() })
	return out
}
