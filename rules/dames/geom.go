package dames

import (
	"strconv"

	"github.com/plateau/plateau/rules"
)

// A board is a grid of w columns and h rows of cells; its squares are the
// cells pieces stand on: the dark cells of a checkered board, or every cell
// (Turkish). Square indexes are 0-based inside the package, in the order of
// the PDN numbering (square number minus 1). Rows run from the top of the
// diagram (Black's side) to the bottom (White's side), columns from left to
// right as White sees them.
//
// Where the dark cells are and where the numbering starts are parameters,
// read from the PDN GameType of each ruleset (gametype.rst, "from the
// perspective of the starting player", turned here so that White is at the
// bottom):
//   - a1Dark: the bottom-left corner is a dark square (invert flag 0), so
//     each player has a dark square in the corner at his left;
//   - fromBottomRight: square 1 is the first dark square of White's row
//     counted from the right, the numbering runs right to left and up
//     (Spanish and Portuguese, N1 with the invert flag 1; Thai, N2 seen
//     from Black who starts); otherwise square 1 is the first dark square
//     of the top row from the left and the numbering runs left to right and
//     down (international, English, Italian).
//
// Directions: the four diagonals, then the four orthogonals. On a checkered
// board the next square orthogonally is two cells away (the same colour, as
// Frisian captures need); on a board where every cell plays it is the next
// cell. The diagonals come in the order the generator has always listed
// moves in.
const (
	upLeft = iota
	upRight
	downLeft
	downRight
	up
	down
	left
	right
	nDirs
)

// dirSet is a set of directions, bit d for direction d.
type dirSet uint8

const (
	diagonals   dirSet = 1<<upLeft | 1<<upRight | 1<<downLeft | 1<<downRight
	orthogonals dirSet = 1<<up | 1<<down | 1<<left | 1<<right
	upward      dirSet = 1<<upLeft | 1<<upRight | 1<<up
	downward    dirSet = 1<<downLeft | 1<<downRight | 1<<down
	sideways    dirSet = 1<<left | 1<<right
)

// The most squares, rows and columns of the boards the package plays
// (Canadian draughts: 12×12, 72 squares).
const (
	maxSq   = 72
	maxSide = 12
	maxRay  = maxSide - 1
)

var dirDelta = [nDirs][2]int{{-1, -1}, {-1, 1}, {1, -1}, {1, 1}, {-1, 0}, {1, 0}, {0, -1}, {0, 1}}

// opposite is the direction back along the same line.
var opposite = [nDirs]int{downRight, downLeft, upRight, upLeft, down, up, right, left}

type geom struct {
	w, h            int
	n               int  // squares
	every           bool // every cell is a square (Turkish)
	a1Dark          bool
	fromBottomRight bool
	row             [maxSq]int8
	col             [maxSq]int8
	at              [maxSide][maxSide]int8 // square at (row, col), -1 on a cell that is no square
	ray             [maxSq][nDirs][maxRay]int8
	rayN            [maxSq][nDirs]int8
	steps           [maxSq][nDirs]int8 // the next square in each direction, -1 off board
	layouts         [2]*rules.Layout   // numeric and algebraic square names (cells.go)
	menOnly         [2]*rules.Layout   // the same without kings: loup-moutons's (cells.go)
}

var (
	geom10  = newGeom(10, 10, true, false, false)
	geom8   = newGeom(8, 8, true, false, false)
	geom8i  = newGeom(8, 8, false, false, false) // Italian: square 1 the top-left corner
	geom8s  = newGeom(8, 8, false, true, false)  // Spanish, Portuguese: square 1 the bottom-right corner
	geom8t  = newGeom(8, 8, true, true, false)   // Thai: square 1 White's g1
	geom12  = newGeom(12, 12, true, false, false)
	geom108 = newGeom(10, 8, true, false, false) // Spantsiretti: 10 columns, 8 rows
	geom8x  = newGeom(8, 8, true, false, true)   // Turkish: every cell
)

// square reports whether the cell at row r, column c is a square.
func (g *geom) square(r, c int) bool {
	if g.every {
		return true
	}
	dark := (g.h-1-r+c)%2 == 0 // the parity of a1
	return dark == g.a1Dark
}

func newGeom(w, h int, a1Dark, fromBottomRight, every bool) *geom {
	g := &geom{w: w, h: h, a1Dark: a1Dark, fromBottomRight: fromBottomRight, every: every}
	for r := range g.at {
		for c := range g.at[r] {
			g.at[r][c] = -1
		}
	}
	for i := 0; i < w*h; i++ {
		r, c := i/w, i%w
		if fromBottomRight {
			r, c = h-1-r, w-1-c
		}
		if !g.square(r, c) {
			continue
		}
		g.row[g.n], g.col[g.n] = int8(r), int8(c)
		g.at[r][c] = int8(g.n)
		g.n++
	}
	orth := 2
	if every {
		orth = 1
	}
	for s := 0; s < g.n; s++ {
		for d := 0; d < nDirs; d++ {
			dr, dc := dirDelta[d][0], dirDelta[d][1]
			if d >= up {
				dr, dc = dr*orth, dc*orth
			}
			g.steps[s][d] = -1
			r, c := int(g.row[s]), int(g.col[s])
			for {
				r, c = r+dr, c+dc
				if r < 0 || c < 0 || r >= h || c >= w {
					break
				}
				if g.rayN[s][d] == 0 {
					g.steps[s][d] = g.at[r][c]
				}
				g.ray[s][d][g.rayN[s][d]] = g.at[r][c]
				g.rayN[s][d]++
			}
		}
	}
	g.layouts = [2]*rules.Layout{newLayout(g, false), newLayout(g, true)}
	g.menOnly = [2]*rules.Layout{withoutKings(g.layouts[0]), withoutKings(g.layouts[1])}
	return g
}

// forward reports whether direction d leads towards side's crowning row.
func forward(side, d int) bool {
	if side == white {
		return upward&(1<<d) != 0
	}
	return downward&(1<<d) != 0
}

// farRow reports whether square s is the crowning row of side (White crowns
// on row 0, Black on the last row).
func (g *geom) farRow(s int, side int) bool {
	if side == white {
		return g.row[s] == 0
	}
	return int(g.row[s]) == g.h-1
}

// alg is the algebraic name of square s ("a1" the bottom-left corner, files
// a, b, … left to right, ranks 1, 2, … from White's side).
func (g *geom) alg(s int) string {
	return string(rune('a'+g.col[s])) + strconv.Itoa(g.h-int(g.row[s]))
}

// algSquare reads an algebraic square: -1 when it is not a square of the
// board.
func (g *geom) algSquare(file byte, rank int) int {
	c, r := int(file)-'a', g.h-rank
	if c < 0 || c >= g.w || r < 0 || r >= g.h {
		return -1
	}
	return int(g.at[r][c])
}

// size is "10×10", "12×12", "10×8" (columns × rows).
func (g *geom) size() string { return strconv.Itoa(g.w) + "×" + strconv.Itoa(g.h) }
