package tui

import (
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/charmbracelet/lipgloss"

	"github.com/plateau/plateau/replay/web"
	"github.com/plateau/plateau/rules"
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
	geo    web.Geometry
	sides  [2]string
	pieces map[string]rules.Placement // by square
	hands  [2][]rules.Placement
	last   map[string]bool // squares of the last move
	flip   bool
	// squat draws a round board with a cell unit 1.5 rows tall instead
	// of 2, for short screens.
	squat bool
}

func newBoard(geo web.Geometry, sides [2]string, pos rules.Position, last *rules.MoveInfo, flip bool) *board {
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

// glyph is the text of a piece: the kind letter (lower case for the second
// side, '+' before a promoted piece) or, for discs, w/b men and W/B kings
// in the dames family and ○/● otherwise.
func (b *board) glyph(pl rules.Placement) string {
	if g, ok := b.geo.Glyphs[strconv.Itoa(int(pl.Side))+string(pl.Kind)]; ok {
		return g
	}
	switch b.geo.Style {
	case "disc":
		switch pl.Kind {
		case 'M':
			return [2]string{"w", "b"}[pl.Side]
		case 'K':
			return [2]string{"W", "B"}[pl.Side]
		}
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
	if b.geo.Shape == "ring" {
		body = b.ring()
	} else {
		body = b.grid()
	}
	if !b.geo.Hands {
		return body
	}
	top, bottom := 1, 0
	if b.flip {
		top, bottom = 0, 1
	}
	return b.sides[top] + " in hand: " + b.hand(top) + "\n" + body + "\n" + b.sides[bottom] + " in hand: " + b.hand(bottom)
}

// grid draws a board of square cells with its coordinates around it; on a
// numbered board (cells with a Label) every dark square shows its number,
// beside the piece when there is one.
func (b *board) grid() string {
	g := b.geo
	if g.W == 0 || g.H == 0 {
		return "(no board drawing for this game)"
	}
	cells := make([][]*web.Cell, g.H)
	for y := range cells {
		cells[y] = make([]*web.Cell, g.W)
	}
	numbered := false
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
	// Coordinates: row labels left of the board, column labels above.
	rowLab := make([]string, g.H)
	colLab := make([]string, g.W)
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

// cell draws one grid cell cw columns wide.
func (b *board) cell(c *web.Cell, cw int, numbered bool) string {
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
// wide), or 1.5 rows when squat. Each side's cells are listed under it.
func (b *board) ring() string {
	g := b.geo
	ys := 2.0
	if b.squat {
		ys = 1.5
	}
	rows, cols := int(math.Round(float64(g.H)*ys))+1, g.W*5+1
	canvas := make([][]string, rows)
	for y := range canvas {
		canvas[y] = make([]string, cols)
		for x := range canvas[y] {
			canvas[y][x] = " "
		}
	}
	put := func(x, y float64, text string, st lipgloss.Style, turn bool) {
		if b.flip && turn {
			x, y = float64(g.W)-x, float64(g.H)-y
		}
		r, c := int(math.Round(y*ys)), int(math.Round(x*5))
		runes := []rune(text)
		c -= (len(runes) - 1) / 2
		for i, ch := range runes {
			if r >= 0 && r < rows && c+i >= 0 && c+i < cols {
				canvas[r][c+i] = st.Render(string(ch))
			}
		}
	}
	for _, l := range g.Labels {
		put(l.X, l.Y, l.Text, labelStyle, true)
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
		if c.Name == "c" {
			// The centre's brackets stay the right way round.
			x, y := c.X, c.Y
			if b.flip {
				x, y = float64(g.W)-x, float64(g.H)-y
			}
			put(x-0.4, y, "(", labelStyle, false)
			put(x+0.4, y, ")", labelStyle, false)
		}
		put(c.X, c.Y, text, st, true)
	}
	for len(canvas) > 0 && strings.TrimSpace(strings.Join(canvas[0], "")) == "" {
		canvas = canvas[1:]
	}
	var out strings.Builder
	for _, row := range canvas {
		out.WriteString(strings.TrimRight(strings.Join(row, ""), " "))
		out.WriteByte('\n')
	}
	out.WriteString(labelStyle.Render("outer ring o1–o12, inner ring i1–i12, centre c"))
	for side := 0; side < 2; side++ {
		var sq []string
		for name, pl := range b.pieces {
			if int(pl.Side) == side {
				sq = append(sq, name)
			}
		}
		sort.Slice(sq, func(i, j int) bool { return cellOrder(sq[i]) < cellOrder(sq[j]) })
		out.WriteString("\n" + sideStyle[side].Render([2]string{"○", "●"}[side]) + " " + b.sides[side] + ": " + strings.Join(sq, " "))
	}
	return out.String()
}

// cellOrder sorts Dejarik cell names: c, then the inner ring, then the
// outer ring, by number.
func cellOrder(name string) int {
	if name == "" || name == "c" {
		return 0
	}
	n, _ := strconv.Atoi(name[1:])
	if name[0] == 'o' {
		n += 100
	}
	return n
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
