package rules

import "fmt"

// A position set-up editor places pieces on squares and in hands and says
// whose turn it is; the position notation of what it set up is the game's
// to write. A Game may therefore also implement Composer.
//
// Decisions: Compose writes only what it is given and the state the pieces
// do not say (a move number, a draw counter, a board size, the flags of a
// Princess's escape) from a base position of the game, so that setting up
// pieces keeps what was read from a position string. It does not judge
// the position: a position that the game's rules forbid (two Kings, a
// side without its King, more pieces than the set holds) is still written,
// and NewPosition of the text says what is wrong with it (Setup does both).

// Composer is a Game that writes a position from its pieces.
type Composer interface {
	// Compose writes, in the game's position notation, the position with
	// exactly the pieces of board (placements as Position.Board lists
	// them: on a square, or in a hand with a Count) and toMove to play,
	// the rest of its state taken from base (a position of the game). A
	// placement the notation cannot write (an unknown square or piece, two
	// pieces on a square) is an error wrapping ErrPosition.
	Compose(base Position, board []Placement, toMove Side) (string, error)
}

// Setup writes the position of g with the pieces of board and toMove to
// play (Compose, from base; g's start when base is nil) and reads it back.
// The text is returned whenever it could be written; pos is nil and err
// says why when the rules refuse it.
func Setup(g Game, base Position, board []Placement, toMove Side) (text string, pos Position, err error) {
	c, ok := g.(Composer)
	if !ok {
		return "", nil, fmt.Errorf("%w: %s has no position set-up", ErrPosition, g.Name())
	}
	if toMove != 0 && toMove != 1 {
		return "", nil, fmt.Errorf("%w: side to move %d is not 0 or 1", ErrPosition, toMove)
	}
	if base == nil {
		if base, err = g.NewPosition(""); err != nil {
			return "", nil, err
		}
	}
	text, err = c.Compose(base, board, toMove)
	if err != nil {
		return "", nil, err
	}
	if pos, err = g.NewPosition(text); err != nil {
		return text, nil, err
	}
	return text, pos, nil
}

// SetupError is the error of a placement that a Composer cannot write.
func SetupError(pl Placement, format string, args ...any) error {
	where := pl.Square
	if where == "" {
		where = "hand"
	}
	kind := string(rune(pl.Kind))
	if pl.Kind < '!' || pl.Kind > '~' {
		kind = fmt.Sprintf("piece %d", pl.Kind)
	}
	if pl.Promoted {
		kind = "+" + kind
	}
	return fmt.Errorf("%w: %s of side %d on %s: %s", ErrPosition, kind, pl.Side, where, fmt.Sprintf(format, args...))
}

// PawnSetupError checks a placement of a game whose only piece is an
// unpromoted pawn (P) of side 0 or 1 on the board (Dejarik, Sauts): the
// error naming game and what is wrong, or nil.
func PawnSetupError(pl Placement, game string) error {
	switch {
	case pl.Kind != 'P' || pl.Side < 0 || pl.Side > 1:
		return SetupError(pl, "the pieces of %s are pawns (P)", game)
	case pl.Promoted:
		return SetupError(pl, "%s has no promoted pieces", game)
	case pl.Square == "":
		return SetupError(pl, "%s has no pieces in hand", game)
	}
	return nil
}
