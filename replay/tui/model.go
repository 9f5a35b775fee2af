package tui

import (
	"fmt"
	"strconv"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/plateau/plateau/replay"
	"github.com/plateau/plateau/rules"
	"github.com/plateau/plateau/rules/draw"
)

// frame is one line of the move tree being walked: the main line at the
// bottom of the stack, each variation above the line it branches from.
type frame struct {
	line []*replay.Step
	at   int // moves of line played
}

// Model is the replayer's state. Its zero value is not usable: call New.
type Model struct {
	g     *replay.Game
	geo   draw.Board
	stack []frame
	flip  bool

	input    string // digits typed for a jump
	choosing bool   // the variation chooser is open
	choice   int    // the variation under the chooser's cursor
	help     bool
	msg      string // one-line feedback (what a key could not do)
	quitting bool

	width, height int

	// games is the collection the game belongs to (nil: one game), cur
	// the game's number in it (0-based); listing says the game list is
	// open, listAt is the game under its cursor.
	games   Games
	cur     int
	listing bool
	listAt  int
	listH   int // the list's rows on the screen, as View last laid it out
}

// New returns a replayer at the start of a replayed game, which must have a
// start position (g.Start not nil).
func New(g *replay.Game) *Model {
	return &Model{
		g:      g,
		geo:    draw.Of(g.Rules, g.Start),
		stack:  []frame{{line: g.Main}},
		width:  100,
		height: 40,
	}
}

func (m *Model) top() *frame { return &m.stack[len(m.stack)-1] }

// Depth is 0 on the main line, n inside n nested variations.
func (m *Model) Depth() int { return len(m.stack) - 1 }

// Flipped reports whether the board is seen from the second side.
func (m *Model) Flipped() bool { return m.flip }

// Quitting reports whether the user asked to quit.
func (m *Model) Quitting() bool { return m.quitting }

// Message is the feedback line: what the last key could not do, or "".
func (m *Model) Message() string { return m.msg }

// Choosing reports whether the variation chooser is open, and which
// variation (0-based) it points at.
func (m *Model) Choosing() (bool, int) { return m.choosing, m.choice }

// Last is the move that led to the current position, or nil at the start
// of the game (at the start of a variation it is the parent line's last).
func (m *Model) Last() *replay.Step {
	for i := len(m.stack) - 1; i >= 0; i-- {
		if f := m.stack[i]; f.at > 0 {
			return f.line[f.at-1]
		}
	}
	return nil
}

// Next is the move that follows in the current line, or nil at its end.
func (m *Model) Next() *replay.Step {
	f := m.top()
	if f.at >= len(f.line) {
		return nil
	}
	return f.line[f.at]
}

// Ply is the number of plies played to reach the current position.
func (m *Model) Ply() int {
	if s := m.Last(); s != nil {
		if s.Info.KeepsTurn {
			return s.Ply
		}
		return s.Ply + 1
	}
	return 0
}

// Position is the current position, rebuilt from the start (a few hundred
// moves at most: cheaper than keeping undo information).
func (m *Model) Position() rules.Position {
	pos := m.g.Start.Clone()
	for _, f := range m.stack {
		for _, s := range f.line[:f.at] {
			pos.Play(s.Move)
		}
	}
	return pos
}

// path is the line shown in the move list: the moves played in the parent
// lines up to each branch, then the whole current line; cur is how many of
// them are played.
func (m *Model) path() (steps []*replay.Step, cur int) {
	for i, f := range m.stack {
		if i == len(m.stack)-1 {
			steps = append(steps, f.line...)
			cur += f.at
		} else {
			steps = append(steps, f.line[:f.at]...)
			cur += f.at
		}
	}
	return steps, cur
}

// forward plays the next move of the current line.
func (m *Model) forward() {
	f := m.top()
	if f.at < len(f.line) {
		f.at++
		return
	}
	if m.Depth() > 0 {
		m.msg = "end of the variation (x leaves it)"
	} else {
		m.msg = "end of the game"
	}
}

// back takes back the last move; from a variation's first move it leaves
// the variation.
func (m *Model) back() {
	f := m.top()
	if f.at == 0 && m.Depth() == 0 {
		m.msg = "start of the game"
		return
	}
	if f.at > 0 {
		f.at--
	}
	if f.at == 0 && m.Depth() > 0 {
		m.stack = m.stack[:len(m.stack)-1]
	}
}

// exit leaves the current variation, to the position where it branched.
func (m *Model) exit() {
	if m.Depth() == 0 {
		m.msg = "not in a variation"
		return
	}
	m.stack = m.stack[:len(m.stack)-1]
}

// enter goes into variation i of the next move and plays its first move.
func (m *Model) enter(i int) {
	next := m.Next()
	if next == nil || i < 0 || i >= len(next.Variations) || len(next.Variations[i]) == 0 {
		m.msg = "no such variation"
		return
	}
	m.stack = append(m.stack, frame{line: next.Variations[i], at: 1})
}

// startVariation answers v: enter the one variation, or open the chooser.
func (m *Model) startVariation() {
	next := m.Next()
	if next == nil || len(next.Variations) == 0 {
		m.msg = "no variation of the next move here"
		return
	}
	if len(next.Variations) == 1 {
		m.enter(0)
		return
	}
	m.choosing, m.choice = true, 0
}

// jump goes to a ply: along the current variation when it reaches that ply,
// else along the main line.
func (m *Model) jump(ply int) {
	if m.Depth() > 0 {
		f := m.top()
		first := m.Ply() - f.at
		if len(f.line) > 0 {
			first = f.line[0].Ply
		}
		if ply > first && ply <= lineEnd(f.line, first) {
			f.at = upTo(f.line, ply)
			return
		}
	}
	end := lineEnd(m.g.Main, 0)
	if ply < 0 || ply > end {
		m.msg = fmt.Sprintf("no ply %d: the game has plies 0 to %d", ply, end)
		return
	}
	m.stack = m.stack[:1]
	m.stack[0].at = upTo(m.g.Main, ply)
}

// lineEnd is the ply reached at the end of a line starting at ply first.
func lineEnd(line []*replay.Step, first int) int {
	if len(line) == 0 {
		return first
	}
	s := line[len(line)-1]
	if s.Info.KeepsTurn {
		return s.Ply
	}
	return s.Ply + 1
}

// upTo is how many moves of line are played to stand after ply plies (a huff
// that opens ply N belongs to the next ply, as in Cursor.ToPly).
func upTo(line []*replay.Step, ply int) int {
	n := 0
	for n < len(line) && line[n].Ply < ply {
		n++
	}
	return n
}

// Init implements tea.Model: a growing collection is redrawn as it grows.
func (m *Model) Init() tea.Cmd { return m.growing() }

// Update implements tea.Model: keys move through the game; a window size
// is kept for the layout.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
	case growTick:
		return m, m.growing()
	case tea.KeyMsg:
		if msg.Type == tea.KeyRunes && len(msg.Runes) > 1 && !msg.Paste {
			// Keys typed faster than they are read come as one message.
			for _, r := range msg.Runes {
				m.key(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}})
				if m.quitting {
					break
				}
			}
		} else {
			m.key(msg)
		}
		if m.quitting {
			return m, tea.Quit
		}
	}
	return m, nil
}

// key handles one key press.
func (m *Model) key(k tea.KeyMsg) {
	m.msg = ""
	s := k.String()
	if s == "ctrl+c" {
		m.quitting = true
		return
	}
	if m.help {
		m.help = false
		if s == "q" {
			m.quitting = true
		}
		return
	}
	if m.choosing {
		m.chooseKey(s)
		return
	}
	if m.listing {
		m.listKey(s)
		return
	}
	if len(s) == 1 && s[0] >= '0' && s[0] <= '9' {
		if len(m.input) < 6 {
			m.input += s
		}
		return
	}
	if m.input != "" {
		switch s {
		case "enter":
			n, _ := strconv.Atoi(m.input)
			m.input = ""
			m.jump(n)
			return
		case "backspace":
			m.input = m.input[:len(m.input)-1]
			return
		case "esc":
			m.input = ""
			return
		}
		m.input = "" // any other key drops the number and acts
	}
	switch s {
	case "right", "l", "j", "down", " ", "n":
		m.forward()
	case "left", "h", "k", "up", "backspace", "p":
		m.back()
	case "home", "g":
		m.stack = m.stack[:1]
		m.stack[0].at = 0
	case "end", "G":
		m.top().at = len(m.top().line)
	case "v":
		m.startVariation()
	case "x":
		m.exit()
	case "]":
		m.open(m.cur + 1)
	case "[":
		m.open(m.cur - 1)
	case "o":
		m.openList()
	case "f":
		m.flip = !m.flip
	case "?":
		m.help = true
	case "q":
		m.quitting = true
	case "esc":
	default:
		m.msg = "unknown key " + strconv.Quote(s) + " (? for help)"
	}
}

// chooseKey handles a key while the variation chooser is open.
func (m *Model) chooseKey(s string) {
	n := len(m.Next().Variations)
	switch s {
	case "down", "j", "v", "tab":
		m.choice = (m.choice + 1) % n
	case "up", "k", "shift+tab":
		m.choice = (m.choice + n - 1) % n
	case "enter", "right", "l":
		m.choosing = false
		m.enter(m.choice)
	case "esc", "x", "left", "h":
		m.choosing = false
	case "q":
		m.choosing = false
		m.quitting = true
	default:
		if len(s) == 1 && s[0] >= '1' && s[0] <= '9' && int(s[0]-'1') < n {
			m.choosing = false
			m.enter(int(s[0] - '1'))
			return
		}
		m.msg = "choose a variation: ↑↓ and Enter, or its number; Esc cancels"
	}
}
