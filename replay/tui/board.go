package tui

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/charmbracelet/lipgloss"

	"github.com/plateau/plateau/rules"
	"github.com/plateau/plateau/rules/draw"
)

// Board styles. Colours are the 256-colour palette, so that they show on
// most terminals; lipgloss drops them where the terminal has none.
var (
	sideStyle = [2]lipgloss.Style{
		lipgloss.NewStyle().Bold(true).Foreground(lipgloss.Color("15")),
		lipgloss.NewStyle().Bold(true).Foreground(lipgloss.Color("209")),
	}
	darkStyle  = lipgloss.NewStyle().Background(lipgloss.Color("237"))
	lastStyle  = lipgloss.NewStyle().Background(lipgloss.Color("58"))
	labelStyle = lipgloss.NewStyle().Foreground(lipgloss.Color("245"))
	frameStyle = lipgloss.NewStyle().Border(lipgloss.NormalBorder()).BorderForeground(lipgloss.Color("240"))
)

// board is what drawBoard needs of a position.
type board struct {
	geo    draw.Board
	sides  [2]string
	pieces map[string]rules.Placement // by square
	hands  [2][]rules.Placement
	last   map[string]bool // squares of the last move
	flip   bool
	// squat draws a round board with a cell unit 1.5 rows tall instead
	// of 2, for short screens.
	squat bool
}

func newBoard(geo draw.Board, sides [2]string, pos rules.Position, last *rules.MoveInfo, flip bool) *board {
	b := &board{geo: geo, sides: sides, pieces: map[string]rules.Placement{}, last: map[string]bool{}, flip: flip}
	for _, pl := range pos.Board() {
		if pl.Square == "" {
			b.hands[pl.Side] = append(b.hands[pl.Side], pl)
			continue
		}
		b.pieces[pl.Square] = pl
	}
	if last != nil {
		for _, sq := range []string{last.From, last.To} {
			if sq != "" {
				b.last[sq] = true
			}
		}
	}
	return b
}

// glyph is the text of a piece: its drawing's Text glyph, else a disc is
// ○ or ● and a lettered piece its kind letter (lower case for the second
// side, '+' before a promoted piece).
func (b *board) glyph(pl rules.Placement) string {
	if g, ok := b.geo.Glyph(pl.Side, pl.Kind); ok && g.Text != "" {
		return g.Text
	}
	if b.geo.Style == draw.Disc {
		return [2]string{"○", "●"}[pl.Side]
	}
	t := string(pl.Kind)
	if pl.Side == 1 {
		t = strings.ToLower(t)
	}
	if pl.Promoted {
		t = "+" + t
	}
	return t
}

// hand writes one side's pieces in hand.
func (b *board) hand(side int) string {
	hs := append([]rules.Placement(nil), b.hands[side]...)
	sort.Slice(hs, func(i, j int) bool {
		if hs[i].Promoted != hs[j].Promoted {
			return !hs[i].Promoted
		}
		return hs[i].Kind < hs[j].Kind
	})
	var parts []string
	for _, pl := range hs {
		t := b.glyph(pl)
		if pl.Count > 1 {
			t += "×" + strconv.Itoa(pl.Count)
		}
		parts = append(parts, t)
	}
	if len(parts) == 0 {
		return "-"
	}
	return strings.Join(parts, " ")
}

// draw returns the board as lines of styled text.
func (b *board) draw() string {
	var body string
	if b.geo.Shape == draw.Ring {
		body = b.ring()
	} else {
		body = b.grid()
	}
	if b.geo.Hands {
		top, bottom := 1, 0
		if b.flip {
			top, bottom = 0, 1
		}
		body = b.sides[top] + " in hand: " + b.hand(top) + "\n" + body + "\n" + b.sides[bottom] + " in hand: " + b.hand(bottom)
	}
	return body
}

// legend is the piece legend to write under the board (draw.Board.Pieces),
// one piece a line after a blank one, "" for a game without one.
func (b *board) legend() string {
	if len(b.geo.Pieces) == 0 {
		return ""
	}
	out := "\n\n" + labelStyle.Render(fmt.Sprintf("pieces (%s upper case, %s lower case):", b.sides[0], b.sides[1]))
	for _, p := range b.geo.Pieces {
		out += "\n" + labelStyle.Render("  "+p.String())
	}
	return out
}

// grid draws a board of square cells with its coordinates around it; on a
// numbered board (cells with a Label) every dark square shows its number,
// beside the piece when there is one.
func (b *board) grid() string {
	g := b.geo
	if g.W == 0 || g.H == 0 {
		return "(no board drawing for this game)"
	}
	cells, numbered := b.cellsAt()
	rowLab, colLab := b.coordinates()
	lw := 0
	for _, t := range rowLab {
		lw = max(lw, len(t))
	}
	cw := 3
	if numbered {
		cw = 4
	}
	var out strings.Builder
	margin := strings.Repeat(" ", lw+1)
	cols := func() {
		if lw == 0 {
			return
		}
		out.WriteString(margin)
		for _, t := range colLab {
			out.WriteString(center(t, cw))
		}
		out.WriteByte('\n')
	}
	cols()
	for y := 0; y < g.H; y++ {
		if lw > 0 {
			out.WriteString(padLeft(rowLab[y], lw) + " ")
		}
		for x := 0; x < g.W; x++ {
			out.WriteString(b.cell(cells[y][x], cw, numbered))
		}
		if lw > 0 {
			out.WriteString(" " + rowLab[y])
		}
		out.WriteByte('\n')
	}
	cols()
	text := strings.TrimRight(out.String(), "\n")
	if numbered {
		// A numbered board has no coordinates around it: frame it.
		text = frameStyle.Render(text)
	}
	return text
}

// cellsAt places the grid's cells by row and column as seen (flipped or
// not); numbered reports a board whose cells show a label.
func (b *board) cellsAt() (cells [][]*draw.Cell, numbered bool) {
	g := b.geo
	cells = make([][]*draw.Cell, g.H)
	for y := range cells {
		cells[y] = make([]*draw.Cell, g.W)
	}
	for i := range g.Cells {
		c := &g.Cells[i]
		x, y := int(c.X), int(c.Y)
		if b.flip {
			x, y = g.W-1-x, g.H-1-y
		}
		if x >= 0 && x < g.W && y >= 0 && y < g.H {
			cells[y][x] = c
		}
		if c.Label != "" {
			numbered = true
		}
	}
	return cells, numbered
}

// coordinates are the grid's row labels (those left of the board) by row
// and its column labels (those above it) by column, as seen.
func (b *board) coordinates() (rowLab, colLab []string) {
	g := b.geo
	rowLab, colLab = make([]string, g.H), make([]string, g.W)
	for _, l := range g.Labels {
		if l.X < 0 {
			y := int(math.Floor(l.Y))
			if b.flip {
				y = g.H - 1 - y
			}
			if y >= 0 && y < g.H {
				rowLab[y] = l.Text
			}
		}
		if l.Y < 0 {
			x := int(math.Floor(l.X))
			if b.flip {
				x = g.W - 1 - x
			}
			if x >= 0 && x < g.W {
				colLab[x] = l.Text
			}
		}
	}
	return rowLab, colLab
}

// cell draws one grid cell cw columns wide.
func (b *board) cell(c *draw.Cell, cw int, numbered bool) string {
	if c == nil || c.Name == "" {
		return strings.Repeat(" ", cw)
	}
	st := lipgloss.NewStyle()
	if numbered && c.Dark {
		st = darkStyle
	}
	if b.last[c.Name] {
		st = lastStyle
	}
	pl, occupied := b.pieces[c.Name]
	var text string
	if numbered {
		// piece (1 column), number right-aligned in 2, a space
		p := " "
		if occupied {
			p = sideStyle[pl.Side].Inherit(st).Render(b.glyph(pl))
		}
		text = p + labelStyle.Inherit(st).Render(padLeft(c.Label, 2)) + st.Render(" ")
		return text
	}
	if !occupied {
		mark := "·"
		if c.Goal {
			mark = "◇"
		}
		return st.Render(center(mark, cw))
	}
	t := b.glyph(pl)
	pad := center(t, cw)
	i := strings.Index(pad, t)
	return st.Render(pad[:i]) + sideStyle[pl.Side].Inherit(st).Render(t) + st.Render(pad[i+len(t):])
}

// ring draws a round board (Dejarik) on a character canvas: a cell unit is
// five columns and two rows (terminal cells are about twice as tall as
// wide), or 1.5 rows when squat. A cell at the board's centre is written
// in brackets. Under the board come its legend and each side's cells.
func (b *board) ring() string {
	g := b.geo
	ys := 2.0
	if b.squat {
		ys = 1.5
	}
	cv := newCanvas(int(math.Round(float64(g.H)*ys))+1, g.W*5+1, ys)
	turn := func(x, y float64) (float64, float64) {
		if b.flip {
			return float64(g.W) - x, float64(g.H) - y
		}
		return x, y
	}
	for _, l := range g.Labels {
		x, y := turn(l.X, l.Y)
		cv.put(x, y, l.Text, labelStyle)
	}
	for _, c := range g.Cells {
		st := lipgloss.NewStyle()
		if b.last[c.Name] {
			st = lastStyle
		}
		text := "·"
		if pl, ok := b.pieces[c.Name]; ok {
			st = sideStyle[pl.Side].Inherit(st)
			text = b.glyph(pl)
		}
		x, y := turn(c.X, c.Y)
		if c.X == float64(g.W)/2 && c.Y == float64(g.H)/2 {
			// The centre's brackets stay the right way round.
			cv.put(x-0.4, y, "(", labelStyle)
			cv.put(x+0.4, y, ")", labelStyle)
		}
		cv.put(x, y, text, st)
	}
	var out strings.Builder
	out.WriteString(cv.String())
	if g.Legend != "" {
		out.WriteString("\n" + labelStyle.Render(g.Legend))
	}
	for side := 0; side < 2; side++ {
		var sq []string
		for name, pl := range b.pieces {
			if int(pl.Side) == side {
				sq = append(sq, name)
			}
		}
		sort.Slice(sq, func(i, j int) bool { return nameLess(sq[i], sq[j]) })
		out.WriteString("\n" + sideStyle[side].Render([2]string{"○", "●"}[side]) + " " + b.sides[side] + ": " + strings.Join(sq, " "))
	}
	return out.String()
}

// canvas is a grid of styled characters that text is put on by board
// coordinates: x five columns a unit, y ys rows a unit.
type canvas struct {
	cells [][]string
	ys    float64
}

func newCanvas(rows, cols int, ys float64) *canvas {
	cv := &canvas{cells: make([][]string, rows), ys: ys}
	for y := range cv.cells {
		cv.cells[y] = make([]string, cols)
		for x := range cv.cells[y] {
			cv.cells[y][x] = " "
		}
	}
	return cv
}

// put writes text centred on x, y; what falls outside the canvas is lost.
func (cv *canvas) put(x, y float64, text string, st lipgloss.Style) {
	r, c := int(math.Round(y*cv.ys)), int(math.Round(x*5))
	runes := []rune(text)
	c -= (len(runes) - 1) / 2
	for i, ch := range runes {
		if r >= 0 && r < len(cv.cells) && c+i >= 0 && c+i < len(cv.cells[r]) {
			cv.cells[r][c+i] = st.Render(string(ch))
		}
	}
}

// String is the canvas without its blank top rows and trailing spaces,
// without a final newline.
func (cv *canvas) String() string {
	rows := cv.cells
	for len(rows) > 0 && strings.TrimSpace(strings.Join(rows[0], "")) == "" {
		rows = rows[1:]
	}
	lines := make([]string, len(rows))
	for i, row := range rows {
		lines[i] = strings.TrimRight(strings.Join(row, ""), " ")
	}
	return strings.Join(lines, "\n")
}

// nameLess orders square names as they are listed: by their letters, then
// by the number that follows them (c, i1, i2 … i12, o1 …).
func nameLess(a, b string) bool {
	pa, na := splitName(a)
	pb, nb := splitName(b)
	if pa != pb {
		return pa < pb
	}
	if na != nb {
		return na < nb
	}
	return a < b
}

// splitName splits a square name into its leading letters and the value of
// the digits after them (0 when there are none or they are not a number).
func splitName(name string) (string, int) {
	i := strings.IndexAny(name, "0123456789")
	if i < 0 {
		return name, 0
	}
	n, _ := strconv.Atoi(name[i:])
	return name[:i], n
}

func padLeft(s string, w int) string {
	if n := lipgloss.Width(s); n < w {
		return strings.Repeat(" ", w-n) + s
	}
	return s
}

func center(s string, w int) string {
	n := lipgloss.Width(s)
	if n >= w {
		return s
	}
	left := (w - n) / 2
	return strings.Repeat(" ", left) + s + strings.Repeat(" ", w-n-left)
}
