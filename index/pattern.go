package index

import (
	"github.com/plateau/plateau/index/internal/criteria"
	"github.com/plateau/plateau/index/internal/pattern"
)

// Pattern is a set of conditions on one position, every term of which
// must hold: pieces on squares, empty squares, pieces in hand, material
// counts, of a side or either. Example (Ōgi): "Sente:R@e1,e2,e3 empty@e4
// Gote:P@hand>=2 Gote:*<=10". Its grammar is internal/pattern's.
type Pattern = pattern.Pattern

// Term is one condition of a Pattern.
type Term = pattern.Term

// TermKind is what a pattern term tests.
type TermKind = pattern.TermKind

// Pattern term kinds.
const (
	OnSquares = pattern.OnSquares // a matching piece on one of Squares
	Empty     = pattern.Empty     // every one of Squares empty
	InHand    = pattern.InHand    // count of matching pieces in hand
	OnBoard   = pattern.OnBoard   // count of matching pieces on the board
)

// ParsePattern reads a pattern; an error wraps ErrQuery.
func ParsePattern(text string) (*Pattern, error) { return criteria.ParsePattern(text) }
