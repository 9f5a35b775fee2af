package replay

import (
	"errors"

	"github.com/plateau/plateau/rules"
)

// ErrNoMove is returned by a Cursor that cannot go where it was asked.
var ErrNoMove = errors.New("no such move")

// Cursor steps through a replayed game: forward, back, to a ply, into and
// out of variations. Its zero value is not usable; call Game.Cursor.
type Cursor struct {
	g *Game
	// stack of frames: the main line at the bottom, each variation above the
	// line it branches from.
	stack []frame
	pos   rules.Position
}

type frame struct {
	line []*Step
	at   int // number of moves of line played
}

// Cursor returns a cursor at the game's start position.
func (g *Game) Cursor() *Cursor {
	c := &Cursor{g: g, stack: []frame{{line: g.Main}}}
	if g.Start != nil {
		c.pos = g.Start.Clone()
	}
	return c
}

func (c *Cursor) top() *frame { return &c.stack[len(c.stack)-1] }

// Position is the current position. It belongs to the cursor: Clone it to
// keep it.
func (c *Cursor) Position() rules.Position { return c.pos }

// Depth is 0 on the main line, n inside n nested variations.
func (c *Cursor) Depth() int { return len(c.stack) - 1 }

// Ply is the number of plies played to reach the current position.
func (c *Cursor) Ply() int {
	f := c.top()
	if f.at > 0 {
		s := f.line[f.at-1]
		if s.Info.KeepsTurn {
			return s.Ply
		}
		return s.Ply + 1
	}
	if len(f.line) > 0 {
		return f.line[0].Ply
	}
	if len(c.stack) > 1 {
		return c.stack[len(c.stack)-2].line[c.stack[len(c.stack)-2].at].Ply
	}
	return 0
}

// Last is the move that led to the current position in the current line, or
// nil at the start of a line.
func (c *Cursor) Last() *Step {
	f := c.top()
	if f.at == 0 {
		return nil
	}
	return f.line[f.at-1]
}

// Next is the move that follows in the current line, or nil at its end.
func (c *Cursor) Next() *Step {
	f := c.top()
	if f.at >= len(f.line) {
		return nil
	}
	return f.line[f.at]
}

// Forward plays the next move of the current line.
func (c *Cursor) Forward() error {
	s := c.Next()
	if s == nil {
		return ErrNoMove
	}
	c.pos.Play(s.Move)
	c.top().at++
	return nil
}

// Back takes back the last move of the current line; at the start of a
// variation it leaves the variation (to the position before the move it
// replaces).
func (c *Cursor) Back() error {
	f := c.top()
	if f.at == 0 {
		if len(c.stack) == 1 {
			return ErrNoMove
		}
		return c.Exit()
	}
	f.at--
	c.rebuild()
	return nil
}

// Enter goes into variation i (0-based) of the next move: the cursor stays at
// the same position, at the start of the variation.
func (c *Cursor) Enter(i int) error {
	s := c.Next()
	if s == nil || i < 0 || i >= len(s.Variations) {
		return ErrNoMove
	}
	c.stack = append(c.stack, frame{line: s.Variations[i]})
	return nil
}

// Exit leaves the current variation, back to the position where it branched.
func (c *Cursor) Exit() error {
	if len(c.stack) == 1 {
		return ErrNoMove
	}
	c.stack = c.stack[:len(c.stack)-1]
	c.rebuild()
	return nil
}

// ToPly goes to the main-line position after ply plies (0 is the start).
func (c *Cursor) ToPly(ply int) error {
	c.stack = c.stack[:1]
	f := c.top()
	f.at = 0
	for f.at < len(f.line) {
		s := f.line[f.at]
		if s.Ply >= ply {
			break
		}
		f.at++
	}
	c.rebuild()
	if c.Ply() != ply {
		return ErrNoMove
	}
	return nil
}

// rebuild recomputes the position from the start along the stack.
func (c *Cursor) rebuild() {
	if c.g.Start == nil {
		return
	}
	c.pos = c.g.Start.Clone()
	for _, f := range c.stack {
		for _, s := range f.line[:f.at] {
			c.pos.Play(s.Move)
		}
	}
}
