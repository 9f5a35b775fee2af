package dames

// Square indexes are 0-based inside the package (PDN square number minus 1).
// Rows run from the top of the diagram (row 0 holds squares 1–5 on 10×10,
// Black's first row) to the bottom (White's first row). On even rows the dark
// squares are the odd columns, so square 1 is the second square of the top
// row and the bottom-left corner (46, or 29 on 8×8) is dark: each player has
// a dark square in the corner at his left, as the rule text asks.

// Directions: 0 up-left, 1 up-right (White's forward), 2 down-left,
// 3 down-right (Black's forward).
const (
	upLeft = iota
	upRight
	downLeft
	downRight
)

type geom struct {
	side int // 10 or 8
	// mirror: the dark squares are the even columns of even rows, so square
	// 1 is the top-left corner (Italian, PDN notation N2 with invert flag 1).
	mirror bool
	half   int // squares per row
	n      int // squares: 50 or 32
	row    [50]int8
	col    [50]int8
	at     [10][10]int8 // square at (row, col), -1 on a light square
	ray    [50][4][9]int8
	rayN   [50][4]int8
	steps  [50][4]int8 // the neighbouring square in each direction, -1 off board
}

var (
	geom10 = newGeom(10, false)
	geom8  = newGeom(8, false)
	geom8i = newGeom(8, true)
)

func newGeom(side int, mirror bool) *geom {
	g := &geom{side: side, half: side / 2, n: side * side / 2, mirror: mirror}
	for r := range g.at {
		for c := range g.at[r] {
			g.at[r][c] = -1
		}
	}
	for s := 0; s < g.n; s++ {
		r := s / g.half
		c := 2 * (s % g.half)
		if (r%2 == 0) != mirror {
			c++
		}
		g.row[s], g.col[s] = int8(r), int8(c)
		g.at[r][c] = int8(s)
	}
	dr := [4]int{-1, -1, 1, 1}
	dc := [4]int{-1, 1, -1, 1}
	for s := 0; s < g.n; s++ {
		for d := 0; d < 4; d++ {
			g.steps[s][d] = -1
			r, c := int(g.row[s]), int(g.col[s])
			for {
				r, c = r+dr[d], c+dc[d]
				if r < 0 || c < 0 || r >= side || c >= side {
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
	return g
}

// farRow reports whether square s is the crowning row of side (White crowns
// on row 0, Black on the last row).
func (g *geom) farRow(s int, side int) bool {
	if side == white {
		return g.row[s] == 0
	}
	return int(g.row[s]) == g.side-1
}

// alg is the algebraic name of square s ("a1" the bottom-left corner, files
// a–h left to right, ranks 1–8 from White's side).
func (g *geom) alg(s int) string {
	return string([]byte{'a' + byte(g.col[s]), byte('0' + g.side - int(g.row[s]))})
}

// algSquare reads an algebraic square name; -1 when it is not a dark square
// of the board.
func (g *geom) algSquare(file, rank byte) int {
	c, r := int(file-'a'), g.side-int(rank-'0')
	if c < 0 || c >= g.side || r < 0 || r >= g.side {
		return -1
	}
	return int(g.at[r][c])
}
