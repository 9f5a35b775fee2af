package jetan

import (
	"github.com/plateau/plateau/rules"
)

// Game is the Jetan ruleset. Its zero value is ready to use.
type Game struct{}

func init() { rules.Register(Game{}) }

// ID implements rules.Game.
func (Game) ID() string { return "jetan" }

// Name implements rules.Game.
func (Game) Name() string { return "Jetan" }

// Sides implements rules.Game: Black (south, side 0) then Orange.
func (Game) Sides() [2]string { return [2]string{"Black", "Orange"} }

// IllegalMoveLoses implements rules.Game: an illegal move is a broken record.
func (Game) IllegalMoveLoses() bool { return false }

// NewPosition implements rules.Game.
func (Game) NewPosition(notation string) (rules.Position, error) {
	p, err := Parse(notation)
	if err != nil {
		return nil, err
	}
	return p, nil
}

// StartFEN is the standard start position.
const StartFEN = "wadfpcfdaw/tnnnnnnnnt/10/10/10/10/10/10/TNNNNNNNNT/WADFCPFDAW b Ee 0"

// Piece kinds. A board cell holds kind | side<<4, 0 when empty.
const (
	chief    = 1 + iota // C
	princess            // P
	flier               // F
	dwar                // D
	warrior             // W
	padwar              // A
	thoat               // T
	panthan             // N
	numKinds = panthan
)

const (
	size    = 10
	squares = size * size
	// drawPlies is the length of the equal-material draw rule.
	drawPlies = 10
)

// kindLetters maps a kind to its letter (upper case).
const kindLetters = "?CPFDWATN"

// marks are the piece values of DESIGN.md.
var marks = [numKinds + 1]int{0, 10, 1, 3, 3, 2, 2, 2, 1}

// maxCount is how many pieces of a kind a side has at the start; no rule
// adds pieces, so a position may not hold more.
var maxCount = [numKinds + 1]int{0, 1, 1, 2, 2, 2, 2, 2, 8}

var kindNames = [numKinds + 1]string{"", "Chief", "Princess", "Flier", "Dwar", "Warrior", "Padwar", "Thoat", "Panthan"}

func kindOf(c uint8) int        { return int(c & 15) }
func sideOf(c uint8) rules.Side { return rules.Side(c >> 4) }
func cell(side rules.Side, kind int) uint8 {
	return uint8(kind) | uint8(side)<<4
}

func kindFromLetter(b byte) int {
	for k := 1; k <= numKinds; k++ {
		if kindLetters[k] == b {
			return k
		}
	}
	return 0
}

// SquareName is the algebraic name of square sq (0 = a1, 99 = j10).
func SquareName(sq int) string {
	if sq < 0 || sq >= squares {
		return "?"
	}
	return squareNames[sq]
}

// squareNames are the square names, built once: Describe names two squares
// per move, and pattern search describes every move it plays.
var squareNames = func() (n [squares]string) {
	for sq := range n {
		n[sq] = squareText(sq)
	}
	return n
}()

func squareText(sq int) string {
	r := sq/size + 1
	if r == 10 {
		return string([]byte{byte('a' + sq%size), '1', '0'})
	}
	return string([]byte{byte('a' + sq%size), byte('0' + r)})
}
