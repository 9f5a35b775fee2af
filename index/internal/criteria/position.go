package criteria

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/plateau/plateau/index/internal/pattern"
	"github.com/plateau/plateau/record"
	"github.com/plateau/plateau/rules"
)

// Position resolves text to a position of the ruleset game: a position in
// its notation, or a list of moves from the start (move numbers allowed),
// or "" for the start.
func Position(game, text string) (rules.Position, error) {
	g, err := rules.Lookup(game)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrQuery, err)
	}
	pos, err := positionText(g, text)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrQuery, err)
	}
	return pos, nil
}

// positionText is Position in g.
func positionText(g rules.Game, text string) (rules.Position, error) {
	text = strings.TrimSpace(text)
	if text == "" {
		return g.NewPosition("")
	}
	pos, perr := g.NewPosition(text)
	if perr == nil {
		return pos, nil
	}
	pos, err := positionAfter(g, text)
	if err != nil {
		return nil, fmt.Errorf("%q is neither a position (%s) nor moves from the start (%s)",
			record.Clip(text, 80), record.ClipWords(perr.Error(), 80), record.ClipWords(err.Error(), 80))
	}
	return pos, nil
}

// PositionAfter is the position after moves (space-separated, move numbers
// allowed) from the start of the ruleset game.
func PositionAfter(game, moves string) (rules.Position, error) {
	g, err := rules.Lookup(game)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrQuery, err)
	}
	pos, err := positionAfter(g, moves)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrQuery, err)
	}
	return pos, nil
}

// positionAfter plays moves from the start of g; its error names the move
// that cannot be played and its number.
func positionAfter(g rules.Game, moves string) (rules.Position, error) {
	pos, err := g.NewPosition("")
	if err != nil {
		return nil, err
	}
	n := 0
	for _, tok := range strings.Fields(moves) {
		if n := strings.TrimRight(tok, "."); isNumber(n) {
			continue
		}
		n++
		m, err := pos.ParseMove(tok)
		if err != nil {
			return nil, fmt.Errorf("move %d %q: %w", n, tok, err)
		}
		pos.Play(m)
	}
	return pos, nil
}

func isNumber(s string) bool {
	_, err := strconv.Atoi(s)
	return err == nil && s != ""
}

// ParsePattern reads a pattern; an error wraps ErrQuery.
func ParsePattern(text string) (*pattern.Pattern, error) {
	p, err := pattern.Parse(text)
	return p, PatternError(err)
}

// PatternError is err, a *pattern.Error as an error wrapping ErrQuery.
func PatternError(err error) error {
	var pe *pattern.Error
	if errors.As(err, &pe) {
		return fmt.Errorf("%w: %s", ErrQuery, pe.Msg)
	}
	return err
}
