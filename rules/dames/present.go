package dames

import (
	"strconv"

	"github.com/plateau/plateau/rules"
	"github.com/plateau/plateau/rules/draw"
)

var (
	_ draw.Drawer    = (*Game)(nil)
	_ rules.Profiler = (*Game)(nil)
)

// Drawing implements draw.Drawer for every ruleset of the package, from its
// board: the size of start's board (loup-moutons may be played on 10×10),
// or the ruleset's when start is nil; the dark squares where the board's
// numbering puts them (square 1 the top row's second cell, or its first
// on a mirrored board), each showing its PDN number, or named a1–h8 with
// the files and ranks written around the board in the algebraic rulesets.
// Men are plain discs, kings crowned; in text, w and b men, W and B kings,
// and the wolf L. White is at the bottom in every ruleset, as each game's
// diagrams are drawn, also in checkers and pool, where Black is side 0
// (doc.go): their diagrams put Black, on 1–12, at the top. Colours and
// glyphs are given by side, so Black's men are dark whatever its side.
func (g *Game) Drawing(start rules.Position) draw.Board {
	p, ok := start.(*Position)
	if !ok || p.g != g {
		p = g.start()
	}
	geo, squares := p.geo, p.Layout().Squares
	b := draw.Board{Shape: draw.Grid, W: geo.w, H: geo.h, Style: draw.Disc}
	b.Colors[g.side(white)], b.Colors[g.side(black)] = "#fafafa", "#222"
	for y := 0; y < geo.h; y++ {
		for x := 0; x < geo.w; x++ {
			c := draw.Cell{X: float64(x), Y: float64(y)}
			if s := int(geo.at[y][x]); s >= 0 {
				// every cell plays on a Turkish board: checkered as a
				// chessboard, a1 dark
				c.Name, c.Dark = squares[s], !geo.every || (geo.h-1-y+x)%2 == 0
				if num := strconv.Itoa(s + 1); c.Name == num {
					c.Label = num
				}
			}
			b.Cells = append(b.Cells, c)
		}
	}
	if squares[0] != "1" { // named a1–h8: write the files and ranks
		for i := 0; i < geo.h; i++ {
			b.Labels = append(b.Labels, draw.Label{Text: strconv.Itoa(geo.h - i), X: -0.4, Y: float64(i) + 0.5})
		}
		for i := 0; i < geo.w; i++ {
			b.Labels = append(b.Labels, draw.Label{Text: string(rune('a' + i)), X: float64(i) + 0.5, Y: float64(geo.h) + 0.4})
		}
	}
	w, bl := g.side(white), g.side(black)
	if g.v == vLoup {
		b.Glyphs = []draw.Glyph{{Side: bl, Kind: 'M', Mark: "L", Text: "L"}}
	}
	b.Glyphs = append(b.Glyphs,
		draw.Glyph{Side: w, Kind: 'M', Text: "w"}, draw.Glyph{Side: bl, Kind: 'M', Text: "b"},
		draw.Glyph{Side: w, Kind: 'K', Text: "W"}, draw.Glyph{Side: bl, Kind: 'K', Text: "B"})
	return b
}

// start is the ruleset's standard start position.
func (g *Game) start() *Position {
	p, err := g.parseFEN("")
	if err != nil {
		panic("dames: the start position of " + g.id + " does not read: " + err.Error())
	}
	return p
}

// Profile implements rules.Profiler. The Schmidt games and draughts are
// long on a 10×10 board (a ply limit of 200), draw by agreement now and
// then and resign four pieces down, each move tried with the opponent's
// replies; draughts write PDN points. In loup-moutons nobody resigns or
// agrees a draw, and the book is short. The 8×8 families take the
// defaults, and the other families of larger boards those of draughts;
// the rulesets that write points say so first. Nobody resigns in
// antidraughts, where the side with fewer pieces is winning.
func (g *Game) Profile() rules.Profile {
	p := rules.DefaultProfile()
	if g.f.points {
		p.Wins = [2][]string{{"2-0", "1-0"}, {"0-2", "0-1"}}
		p.Draws = []string{"1-1", "1/2-1/2"}
	}
	if g.v == vFamily && g.f.geo.n > 32 {
		p.Agree = 0.02
		p.MaxPlies = 200
		p.Resign = 4
		p.Replies = true
	}
	if g.f.outcome == outLoser && g.v == vFamily {
		p.Resign = 0
	}
	switch g.v {
	case vDraughts:
		p.Wins = [2][]string{{"2-0", "1-0"}, {"0-2", "0-1"}}
		p.Draws = []string{"1-1", "1/2-1/2"}
		p.Agree = 0.02
		p.MaxPlies = 200
		p.Resign = 4
		p.Replies = true
	case vDames, vBrigand:
		p.MaxPlies = 200
		p.Agree = 0.01
		p.Resign = 4
		p.Replies = true
	case vLoup:
		p.Resign = 0
		p.Agree = 0
		p.BookDepth = 4
		p.BookWidth = []int{3, 2, 2, 2}
	}
	return p
}
