package dejarik

import (
	"math"
	"math/bits"
	"strconv"
	"strings"
)

// Diagram symbols.
const (
	symWhite = '○'
	symBlack = '●'
	symEmpty = '·'
)

// Layout of the clock face: 12 at the top, numbers running clockwise.
// Terminal cells are about twice as tall as wide, so x radii are doubled.
const (
	dgRows  = 21
	dgCols  = 60
	dgMidY  = 10
	dgMidX  = 29
	dgInRy  = 4
	dgOutRy = 7.6
	dgNumRy = 9.6
	dgXs    = 2.3
)

// clock returns the row and column of ring position k at radius ry.
func clock(k int, ry float64) (int, int) {
	a := float64(k%ring) * math.Pi / 6
	y := float64(dgMidY) - ry*math.Cos(a)
	x := float64(dgMidX) + dgXs*ry*math.Sin(a)
	return int(math.Round(y)), int(math.Round(x))
}

// Diagram draws the board as a clock face: the outer ring o1–o12 with its
// numbers outside, the inner ring i1–i12 inside it (iK on the same ray as
// oK), the centre c in the middle; ○ White, ● Black, · empty.
func (p *Position) Diagram() string {
	var g [dgRows][dgCols]rune
	for y := range g {
		for x := range g[y] {
			g[y][x] = ' '
		}
	}
	sym := func(c int) rune {
		switch {
		case p.pawns[White]&bit(c) != 0:
			return symWhite
		case p.pawns[Black]&bit(c) != 0:
			return symBlack
		}
		return symEmpty
	}
	for k := 1; k <= ring; k++ {
		y, x := clock(k, dgInRy)
		g[y][x] = sym(inner(k))
		y, x = clock(k, dgOutRy)
		g[y][x] = sym(outer(k))
		y, x = clock(k, dgNumRy)
		n := []rune(strconv.Itoa(k))
		x -= (len(n) - 1) / 2
		copy(g[y][x:], n)
	}
	g[dgMidY][dgMidX] = sym(centre)
	g[dgMidY][dgMidX-2] = '('
	g[dgMidY][dgMidX+2] = ')'

	var b strings.Builder
	for y := range g {
		b.WriteString(strings.TrimRight(string(g[y][:]), " "))
		b.WriteByte('\n')
	}
	b.WriteString("outer ring o1–o12, inner ring i1–i12 (iK in front of oK), (c) centre\n")
	for _, side := range [2]int{0, 1} {
		b.WriteString(string("○●"[side*len("○") : (side+1)*len("○")]))
		b.WriteString(" " + Game.Sides()[side] + ": ")
		var cells []string
		for set := p.pawns[side]; set != 0; set &= set - 1 {
			cells = append(cells, cellName(bits.TrailingZeros32(set)))
		}
		b.WriteString(strings.Join(cells, " "))
		if p.first[side] {
			b.WriteString(" (first turn to come)")
		}
		b.WriteByte('\n')
	}
	b.WriteString(Game.Sides()[p.toMove] + " to move\n")
	return b.String()
}
