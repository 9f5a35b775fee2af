package web

import (
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/plateau/plateau/rules"
)

// Geometry is how to draw a game's board, in cell units: the page scales it.
type Geometry struct {
	// Shape is "grid" (square cells, X and Y the cell's top-left corner) or
	// "ring" (round cells, X and Y the cell's centre).
	Shape string `json:"shape"`
	W     int    `json:"w"` // width and height of the board in cells
	H     int    `json:"h"`
	Cells []Cell `json:"cells"`
	// Labels are the coordinates written around the board.
	Labels []Label `json:"labels,omitempty"`
	// Hands is true when pieces in hand are shown beside the board.
	Hands bool `json:"hands,omitempty"`
	// Style names how pieces are drawn: "shogi" (pointed tiles, side 1
	// turned round), "disc" (draughts men, kings with a crown ring),
	// "letter" (discs marked with the kind letter).
	Style string `json:"style"`
	// Colors are the fill colours of side 0's and side 1's pieces.
	Colors [2]string `json:"colors"`
	// Glyphs overrides the text drawn on a piece: key side digit + kind
	// letter ("1M"), value the text.
	Glyphs map[string]string `json:"glyphs,omitempty"`
}

// Cell is one cell of the board.
type Cell struct {
	Name  string  `json:"name,omitempty"` // square name; "" for a cell no piece uses (light squares)
	X     float64 `json:"x"`
	Y     float64 `json:"y"`
	Dark  bool    `json:"dark,omitempty"`
	Goal  bool    `json:"goal,omitempty"`
	Label string  `json:"label,omitempty"` // small text in the cell (PDN square number)
	R     float64 `json:"r,omitempty"`     // radius of a ring cell
}

// Label is a coordinate written beside the board, centred on X, Y.
type Label struct {
	Text string  `json:"text"`
	X    float64 `json:"x"`
	Y    float64 `json:"y"`
}

// GeometryOf returns the board to draw for a game whose start position is
// start (nil when the record has none).
func GeometryOf(id string, start rules.Position) Geometry {
	switch id {
	case "ogi":
		g := grid(8, 8, letters('a', 8), numbersDown(8), false)
		g.Hands, g.Style, g.Colors = true, "shogi", [2]string{"#f3d9a4", "#f3d9a4"}
		return g
	case "jetan":
		g := grid(10, 10, letters('a', 10), numbersDown(10), false)
		g.Style, g.Colors = "letter", [2]string{"#222", "#f08a24"}
		return g
	case "sauts":
		g := grid(8, 8, numbersUp(8), letters('A', 8), true)
		for i := range g.Cells {
			switch g.Cells[i].Name {
			case "A4", "A5", "H4", "H5":
				g.Cells[i].Goal = true
			}
		}
		g.Style, g.Colors = "disc", [2]string{"#fafafa", "#222"}
		return g
	case "dames", "dames-brigand", "draughts":
		return pdn(10, id)
	case "checkers", "pool", "italian", "russian", "brazilian", "czech":
		return pdn(8, id)
	case "loup-moutons":
		n := 8
		if c, ok := start.(rules.Cells); ok && len(c.Layout().Squares) > 32 {
			n = 10 // a 10×10 start, whether or not it names a square above 32
		}
		return pdn(n, id)
	case "dejarik":
		return ring()
	}
	return guess(start)
}

func letters(first byte, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = string(rune(first) + rune(i))
	}
	return out
}

// numbersDown is n, n-1, … 1 (ranks from the top).
func numbersDown(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = strconv.Itoa(n - i)
	}
	return out
}

// numbersUp is 1 … n.
func numbersUp(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = strconv.Itoa(i + 1)
	}
	return out
}

// grid lays out cols × rows square cells; names are column+row, or
// row+column when rowFirst (Sauts' "G6"). cols are left to right, rows top
// down. Cells are checkered from a light top-left corner.
func grid(w, h int, cols, rows []string, rowFirst bool) Geometry {
	g := Geometry{Shape: "grid", W: w, H: h}
	for y, r := range rows {
		for x, c := range cols {
			name := c + r
			if rowFirst {
				name = r + c
			}
			g.Cells = append(g.Cells, Cell{Name: name, X: float64(x), Y: float64(y), Dark: (x+y)%2 == 1})
		}
		g.Labels = append(g.Labels, Label{Text: r, X: -0.4, Y: float64(y) + 0.5}, Label{Text: r, X: float64(w) + 0.4, Y: float64(y) + 0.5})
	}
	for x, c := range cols {
		g.Labels = append(g.Labels, Label{Text: c, X: float64(x) + 0.5, Y: -0.4}, Label{Text: c, X: float64(x) + 0.5, Y: float64(h) + 0.4})
	}
	return g
}

// pdn lays out an n×n draughts board with its dark squares numbered as in
// PDN: 1 is the second cell of the top row, rows alternate the dark cells.
// Italian (PDN GameType 22) is mirrored: 1 is the top-left corner. Russian,
// Brazilian and Czech name their squares a1–h8 (a1 the bottom-left corner),
// written around the board.
func pdn(n int, id string) Geometry {
	g := Geometry{Shape: "grid", W: n, H: n, Style: "disc", Colors: [2]string{"#fafafa", "#222"}}
	per := n / 2
	mirror := id == "italian"
	alg := id == "russian" || id == "brazilian" || id == "czech"
	for y := 0; y < n; y++ {
		for x := 0; x < n; x++ {
			c := Cell{X: float64(x), Y: float64(y)}
			if ((x+y)%2 == 1) != mirror {
				num := strconv.Itoa(y*per + x/2 + 1)
				c.Name, c.Dark, c.Label = num, true, num
				if alg {
					c.Name, c.Label = string(rune('a'+x))+strconv.Itoa(n-y), ""
				}
			}
			g.Cells = append(g.Cells, c)
		}
	}
	if alg {
		for i := 0; i < n; i++ {
			f, r := string(rune('a'+i)), strconv.Itoa(n-i)
			g.Labels = append(g.Labels, Label{Text: r, X: -0.4, Y: float64(i) + 0.5}, Label{Text: f, X: float64(i) + 0.5, Y: float64(n) + 0.4})
		}
	}
	if id == "loup-moutons" {
		g.Glyphs = map[string]string{"1M": "L"}
	}
	return g
}

// ring lays out the Dejarik board: centre, inner and outer rings of twelve,
// 12 at the top, clockwise.
func ring() Geometry {
	const size, centre = 10.0, 5.0
	g := Geometry{Shape: "ring", W: size, H: size, Style: "disc", Colors: [2]string{"#fafafa", "#222"}}
	g.Cells = append(g.Cells, Cell{Name: "c", X: centre, Y: centre, R: 0.55, Dark: true})
	for k := 1; k <= 12; k++ {
		a := float64(k) * math.Pi / 6
		s, c := math.Sin(a), -math.Cos(a)
		g.Cells = append(g.Cells,
			Cell{Name: "i" + strconv.Itoa(k), X: centre + 2.1*s, Y: centre + 2.1*c, R: 0.5},
			Cell{Name: "o" + strconv.Itoa(k), X: centre + 3.9*s, Y: centre + 3.9*c, R: 0.5, Dark: true})
		g.Labels = append(g.Labels, Label{Text: strconv.Itoa(k), X: centre + 4.75*s, Y: centre + 4.75*c})
	}
	return g
}

// guess draws a grid for an unknown game from its square names (a letter
// and a number, either way round); without squares it draws nothing.
func guess(start rules.Position) Geometry {
	g := Geometry{Shape: "grid", Style: "letter", Colors: [2]string{"#fafafa", "#222"}}
	if start == nil {
		return g
	}
	var cols, rows []string
	seenC, seenR := map[string]bool{}, map[string]bool{}
	for _, pl := range start.Board() {
		sq := pl.Square
		i := strings.IndexAny(sq, "0123456789")
		if sq == "" || i != 1 {
			continue
		}
		c, r := sq[:1], sq[1:]
		if !seenC[c] {
			seenC[c] = true
			cols = append(cols, c)
		}
		if !seenR[r] {
			seenR[r] = true
			rows = append(rows, r)
		}
	}
	if len(cols) == 0 {
		return g
	}
	sort.Strings(cols)
	sort.Slice(rows, func(i, j int) bool {
		a, _ := strconv.Atoi(rows[i])
		b, _ := strconv.Atoi(rows[j])
		return a > b
	})
	// Fill gaps so that the board is a full rectangle.
	first, last := cols[0][0], cols[len(cols)-1][0]
	top, _ := strconv.Atoi(rows[0])
	bottom, _ := strconv.Atoi(rows[len(rows)-1])
	bottom = min(bottom, 1)
	cols = letters(first, int(last-first)+1)
	rows = rows[:0]
	for r := top; r >= bottom; r-- {
		rows = append(rows, strconv.Itoa(r))
	}
	out := grid(len(cols), len(rows), cols, rows, false)
	out.Style, out.Colors = g.Style, g.Colors
	return out
}
