package web

import (
	"strconv"

	"github.com/plateau/plateau/rules"
	"github.com/plateau/plateau/rules/draw"
)

// Geometry is how to draw a game's board, in cell units: the page scales it.
// It is the game's draw.Board in the page's JSON.
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
	// Pieces is the piece legend (draw.Board.Pieces): what each letter
	// stands for, and its promoted form ("+R").
	Pieces []Piece `json:"pieces,omitempty"`
}

// Piece is one entry of the piece legend.
type Piece struct {
	Letter       string `json:"letter"`
	Name         string `json:"name"`
	Mark         string `json:"mark,omitempty"`         // the character on the piece
	Promoted     string `json:"promoted,omitempty"`     // the promoted form's name
	PromotedMark string `json:"promotedMark,omitempty"` // and its character
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

// GeometryOf returns the board to draw for the game of id (as a record's
// Game tag names it) whose start position is start (nil when the record has
// none): the game's own drawing (draw.Of), or one guessed from start for a
// game Plateau does not play.
func GeometryOf(id string, start rules.Position) Geometry {
	var b draw.Board
	if g, err := rules.Lookup(id); err == nil {
		b = draw.Of(g, start)
	} else {
		b = draw.Guess(start)
	}
	return geometry(b)
}

// geometry is b in the page's JSON.
func geometry(b draw.Board) Geometry {
	g := Geometry{Shape: string(b.Shape), W: b.W, H: b.H, Hands: b.Hands, Style: string(b.Style), Colors: b.Colors}
	for _, c := range b.Cells {
		g.Cells = append(g.Cells, Cell{Name: c.Name, X: c.X, Y: c.Y, Dark: c.Dark, Goal: c.Goal, Label: c.Label, R: c.R})
	}
	for _, l := range b.Labels {
		g.Labels = append(g.Labels, Label{Text: l.Text, X: l.X, Y: l.Y})
	}
	for _, gl := range b.Glyphs {
		if gl.Mark == "" {
			continue
		}
		if g.Glyphs == nil {
			g.Glyphs = map[string]string{}
		}
		g.Glyphs[strconv.Itoa(int(gl.Side))+string(gl.Kind)] = gl.Mark
	}
	for _, p := range b.Pieces {
		g.Pieces = append(g.Pieces, Piece(p))
	}
	return g
}
