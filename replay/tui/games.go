package tui

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/plateau/plateau/replay"
	"github.com/plateau/plateau/rules/draw"
)

// Games is a collection the replayer moves between: the games of a file.
// The replayer asks for one game at a time, so that a collection of many
// games need not be replayed, nor held, whole; the collection may still be
// growing (a file read on while the replayer runs), which the replayer
// shows, and redraws until it is complete.
type Games interface {
	// Len is the number of games so far.
	Len() int
	// Complete reports whether Len is final.
	Complete() bool
	// Title is game i's line in the game list (0-based): its players,
	// result and event, as the collection chooses.
	Title(i int) string
	// Game replays game i; an error (a record that does not read, a game
	// without a start position) says why it cannot be shown.
	Game(i int) (*replay.Game, error)
}

// NewGames returns a replayer at the start of game i (0-based) of a
// collection; the error is the one Games.Game gave for it.
func NewGames(gs Games, i int) (*Model, error) {
	g, err := gs.Game(i)
	if err != nil {
		return nil, err
	}
	m := New(g)
	m.games, m.cur = gs, i
	return m, nil
}

// growTick redraws the screen while the collection grows.
type growTick struct{}

// growing is the command that redraws the screen soon while the
// collection is not complete.
func (m *Model) growing() tea.Cmd {
	if m.games == nil || m.games.Complete() {
		return nil
	}
	return tea.Tick(300*time.Millisecond, func(time.Time) tea.Msg { return growTick{} })
}

// count is the collection's size as shown: "20000", or "1500 so far"
// while it grows.
func (m *Model) count() string {
	n := m.games.Len()
	if m.games.Complete() {
		return strconv.Itoa(n)
	}
	return fmt.Sprintf("%d so far", n)
}

// RunGames is Run on a collection, starting at game i (0-based).
func RunGames(gs Games, i int, in io.Reader, out io.Writer) error {
	m, err := NewGames(gs, i)
	if err != nil {
		return err
	}
	_, err = tea.NewProgram(m, tea.WithAltScreen(), tea.WithInput(in), tea.WithOutput(out)).Run()
	return err
}

// Game is the number (0-based) of the game shown in its collection, and
// the collection's size (1 without a collection).
func (m *Model) Game() (i, n int) {
	if m.games == nil {
		return 0, 1
	}
	return m.cur, m.games.Len()
}

// Listing reports whether the game list is open, and the game (0-based)
// under its cursor.
func (m *Model) Listing() (bool, int) { return m.listing, m.listAt }

// open shows game i of the collection from its start; a game that cannot
// be shown leaves the current one, with a message.
func (m *Model) open(i int) {
	if m.games == nil {
		m.msg = "one game only (replay a file of several games to move between them)"
		return
	}
	n := m.games.Len()
	if i >= n && !m.games.Complete() {
		m.msg = fmt.Sprintf("game %d is not read yet: %d games so far", i+1, n)
		return
	}
	if i < 0 || i >= n {
		m.msg = fmt.Sprintf("no game %d: the file has games 1 to %d", i+1, n)
		return
	}
	g, err := m.games.Game(i)
	if err != nil {
		m.msg = fmt.Sprintf("game %d cannot be shown: %v", i+1, err)
		return
	}
	m.g, m.cur = g, i
	m.geo = draw.Of(g.Rules, g.Start)
	m.stack = []frame{{line: g.Main}}
	m.input, m.choosing, m.listing = "", false, false
}

// openList opens the game list, its cursor on the current game.
func (m *Model) openList() {
	if m.games == nil {
		m.msg = "one game only: no game list"
		return
	}
	m.listing, m.listAt, m.input = true, m.cur, ""
}

// listKey handles a key while the game list is open: ↑↓ (j k) move, PgUp
// PgDn by a screen, Home End, digits then Enter go to a game number, Enter
// opens the game under the cursor, Esc or o closes the list.
func (m *Model) listKey(s string) {
	n, page := m.games.Len(), max(m.listRows()-1, 1)
	if len(s) == 1 && s[0] >= '0' && s[0] <= '9' {
		if len(m.input) < 9 {
			m.input += s
		}
		return
	}
	switch s {
	case "down", "j":
		m.listAt++
	case "up", "k":
		m.listAt--
	case "pgdown", " ":
		m.listAt += page
	case "pgup":
		m.listAt -= page
	case "home", "g":
		m.listAt = 0
	case "end", "G":
		m.listAt = n - 1
	case "backspace":
		if m.input != "" {
			m.input = m.input[:len(m.input)-1]
		}
	case "enter":
		if m.input != "" {
			k, _ := strconv.Atoi(m.input)
			m.input = ""
			if k < 1 || k > n {
				m.open(k - 1) // says why not
				return
			}
			m.listAt = k - 1
		}
		m.open(m.listAt)
	case "esc", "o":
		m.listing, m.input = false, ""
	case "q":
		m.quitting = true
	default:
		m.msg = "game list: ↑↓ PgUp PgDn to choose, Enter opens, a number then Enter goes to it, Esc closes"
	}
	m.listAt = min(max(m.listAt, 0), n-1)
}

// listRows is how many games the list shows at once: what the last
// View left for it.
func (m *Model) listRows() int { return max(m.listH, 3) }

// gameList draws the game list, scrolled to keep the cursor in view.
func (m *Model) gameList(width int) string {
	n, rows := m.games.Len(), m.listRows()
	top := min(max(m.listAt-rows/2, 0), max(n-rows, 0))
	digits := len(strconv.Itoa(n))
	lines := []string{titleStyle.Render("games of the file (" + m.count() + ")")}
	for i := top; i < min(top+rows, n); i++ {
		l := fmt.Sprintf("%*d  %s", digits, i+1, m.games.Title(i))
		l = ansi.Truncate(l, max(width-4, 10), "…")
		switch {
		case i == m.listAt:
			l = currentStyle.Render(l)
		case i == m.cur:
			l = titleStyle.Render(l)
		}
		lines = append(lines, l)
	}
	return listStyle.Render(strings.Join(lines, "\n"))
}

// gameKeys is the footer's part for a collection.
func (m *Model) gameKeys() string {
	if m.games == nil {
		return ""
	}
	return " · [/] game · o list"
}
