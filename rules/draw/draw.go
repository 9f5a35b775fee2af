// Package draw describes how a game's board is drawn, as data: where its
// cells are, which coordinates are written around it and how its pieces
// look. Each game says it from its own package (a Drawer); the web page
// renders the description as SVG and the terminal replayer as text, so it
// holds no markup and no renderer's decisions.
//
// Decisions made here:
//   - Places are in cell units, x to the right and y down, from the side of
//     the game's first side (side 0 at the bottom); a renderer scales them
//     and turns the board half round to show it from the other side.
//   - A game that is not a Drawer is drawn from its square names (Guess):
//     a grid of files and ranks when its squares are a letter and a number,
//     nothing otherwise, so that a newly registered game still shows.
//   - A piece is its kind letter unless a Glyph says otherwise; what a
//     style shows without a glyph (a plain disc, the letter, a '+' for a
//     promoted piece) is the renderer's.
package draw

import (
	"sort"
	"strconv"
	"strings"

	"github.com/plateau/plateau/rules"
)

// Shape is how the cells of a board are laid out.
type Shape string

const (
	// Grid cells are squares; a cell's X and Y are its top-left corner.
	Grid Shape = "grid"
	// Ring cells are round; a cell's X and Y are its centre, R its radius.
	Ring Shape = "ring"
)

// Style is how pieces are drawn.
type Style string

const (
	// Shogi pieces are pointed tiles marked with the kind letter, the
	// second side's turned round.
	Shogi Style = "shogi"
	// Disc pieces are plain discs (draughts men); a promoted piece has a
	// crown.
	Disc Style = "disc"
	// Lettered pieces are discs marked with the kind letter.
	Lettered Style = "letter"
)

// Board is how a game's board is drawn.
type Board struct {
	Shape  Shape
	W, H   int // the board's width and height, in cells
	Cells  []Cell
	Labels []Label // coordinates written around the board
	Hands  bool    // pieces in hand are shown beside the board
	Style  Style
	// Colors are the fill colours of side 0's and side 1's pieces, as
	// "#rgb" or "#rrggbb".
	Colors [2]string
	// Glyphs are the pieces written otherwise than the style writes them.
	Glyphs []Glyph
	// Legend is a line naming the cells, for a board whose coordinates are
	// not written around it (a ring); "" for none.
	Legend string
	// Pieces is the piece legend: what each letter written on the board
	// and in the moves stands for, promoted forms included, in the order
	// the rules list them; nil for a game whose pieces need none (men and
	// kings).
	Pieces []Piece
}

// Piece names one kind of piece for a legend.
type Piece struct {
	Letter string // as on the board and in moves, upper case: "R"
	Name   string // "Rook"
	Mark   string // the character on the piece, if the game has one: "飛"
	// Promoted is the promoted form's name, written '+' before the
	// letter ("+R"), and PromotedMark its character; "" when the kind
	// does not promote.
	Promoted, PromotedMark string
}

// String is the legend entry: "R Rook 飛, +R Dragon 龍".
func (p Piece) String() string {
	s := strings.TrimSpace(p.Letter + " " + p.Name + " " + p.Mark)
	if p.Promoted != "" {
		s += ", " + strings.TrimSpace("+"+p.Letter+" "+p.Promoted+" "+p.PromotedMark)
	}
	return s
}

// Cell is one cell of the board.
type Cell struct {
	Name  string // square name as in rules.Placement; "" for a cell no piece uses (light squares)
	X, Y  float64
	Dark  bool
	Goal  bool    // a square that wins when reached (Sauts)
	Label string  // small text in the cell (a PDN square number)
	R     float64 // radius of a Ring cell
}

// Label is a coordinate written beside the board, centred on X, Y.
type Label struct {
	Text string
	X, Y float64
}

// Glyph is how one side's pieces of one kind are written, promoted or not,
// where the style's own way does not do.
type Glyph struct {
	Side rules.Side
	Kind byte // as rules.Placement.Kind
	// Mark is the text drawn on the piece ("L" on the wolf's disc); "" for
	// the style's.
	Mark string
	// Text is the piece where the board is only text (a terminal): one
	// character or two ("w" for a white man); "" for the style's.
	Text string
}

// Glyph returns the glyph of side's pieces of kind, and whether there is
// one.
func (b *Board) Glyph(side rules.Side, kind byte) (Glyph, bool) {
	for _, g := range b.Glyphs {
		if g.Side == side && g.Kind == kind {
			return g, true
		}
	}
	return Glyph{}, false
}

// A Drawer is a rules.Game that says how its board is drawn.
type Drawer interface {
	// Drawing is the board of the game whose start position is start; start
	// is nil when unknown (a record whose position could not be read) and
	// matters only to a game whose board depends on it (a size set by the
	// position).
	Drawing(start rules.Position) Board
}

// Of is the board of game g, whose start position is start (nil when
// unknown): g's own when it is a Drawer, else guessed from start's squares.
func Of(g rules.Game, start rules.Position) Board {
	if d, ok := g.(Drawer); ok {
		return d.Drawing(start)
	}
	return Guess(start)
}

// Letters are n letters from first: Letters('a', 3) is a, b, c.
func Letters(first byte, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = string(rune(first) + rune(i))
	}
	return out
}

// NumbersDown are n, n-1, … 1: ranks written from the top.
func NumbersDown(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = strconv.Itoa(n - i)
	}
	return out
}

// NumbersUp are 1 … n.
func NumbersUp(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = strconv.Itoa(i + 1)
	}
	return out
}

// Checkered lays out len(cols) × len(rows) square cells, cols left to right
// and rows top down, checkered from a light top-left corner, with the
// coordinates written on every side. A cell's name is its column then its
// row ("e4"), or its row then its column when rowFirst (Sauts' "G6").
func Checkered(cols, rows []string, rowFirst bool) Board {
	w, h := len(cols), len(rows)
	b := Board{Shape: Grid, W: w, H: h}
	for y, r := range rows {
		for x, c := range cols {
			name := c + r
			if rowFirst {
				name = r + c
			}
			b.Cells = append(b.Cells, Cell{Name: name, X: float64(x), Y: float64(y), Dark: (x+y)%2 == 1})
		}
		b.Labels = append(b.Labels, Label{Text: r, X: -0.4, Y: float64(y) + 0.5}, Label{Text: r, X: float64(w) + 0.4, Y: float64(y) + 0.5})
	}
	for x, c := range cols {
		b.Labels = append(b.Labels, Label{Text: c, X: float64(x) + 0.5, Y: -0.4}, Label{Text: c, X: float64(x) + 0.5, Y: float64(h) + 0.4})
	}
	return b
}

// Guess draws a grid for a game that does not say how it is drawn, from the
// square names of start (a letter then a number): files from the first
// letter to the last, ranks from the highest down to 1 (or to 0 when a
// square is on rank 0), lettered discs. Without such squares (or without
// start) it has no cells.
func Guess(start rules.Position) Board {
	colors := [2]string{"#fafafa", "#222"}
	b := Board{Shape: Grid, Style: Lettered, Colors: colors}
	if start == nil {
		return b
	}
	cols, top, bottom, ok := spread(start.Board())
	if !ok {
		return b
	}
	first, last := cols[0][0], cols[len(cols)-1][0]
	var rows []string
	for r := top; r >= bottom; r-- {
		rows = append(rows, strconv.Itoa(r))
	}
	out := Checkered(Letters(first, int(last-first)+1), rows, false)
	out.Style, out.Colors = Lettered, colors
	return out
}

// spread reads the squares of placements named by one letter then digits:
// the letters used, sorted, the highest rank and the lowest, at most 1 (a
// rank that is not a number counts as 0).
func spread(board []rules.Placement) (cols []string, top, bottom int, ok bool) {
	seen := map[string]bool{}
	bottom = 1
	for _, pl := range board {
		sq := pl.Square
		if sq == "" || strings.IndexAny(sq, "0123456789") != 1 {
			continue
		}
		if c := sq[:1]; !seen[c] {
			seen[c] = true
			cols = append(cols, c)
		}
		r, _ := strconv.Atoi(sq[1:]) // never negative: sq[1] is a digit
		top, bottom = max(top, r), min(bottom, r)
	}
	if len(cols) == 0 {
		return nil, 0, 0, false
	}
	sort.Strings(cols)
	return cols, top, bottom, true
}
