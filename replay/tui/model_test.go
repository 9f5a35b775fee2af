package tui

import (
	"os"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/plateau/plateau/record"
	"github.com/plateau/plateau/replay"
	_ "github.com/plateau/plateau/rules/all"
)

const samples = "../../samples"

// load replays game n (1-based) of a record file.
func load(t *testing.T, path string, n int) *replay.Game {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r := record.NewReader(f, path)
	for i := 1; ; i++ {
		rec, err := r.Next()
		if err != nil {
			t.Fatalf("%s: game %d: %v", path, n, err)
		}
		if i == n {
			g := replay.Replay(rec, replay.Options{DefaultGame: "draughts"})
			if g.Start == nil {
				t.Fatalf("%s: game %d: %v", path, n, g.Err)
			}
			return g
		}
	}
}

// parse replays a record given as text.
func parse(t *testing.T, text string) *replay.Game {
	t.Helper()
	rec, err := record.NewReader(strings.NewReader(text), "test.pdn").Next()
	if err != nil {
		t.Fatal(err)
	}
	g := replay.Replay(rec, replay.Options{})
	if g.Err != nil {
		t.Fatal(g.Err)
	}
	return g
}

func key(s string) tea.KeyMsg {
	switch s {
	case "right":
		return tea.KeyMsg{Type: tea.KeyRight}
	case "left":
		return tea.KeyMsg{Type: tea.KeyLeft}
	case "up":
		return tea.KeyMsg{Type: tea.KeyUp}
	case "down":
		return tea.KeyMsg{Type: tea.KeyDown}
	case "home":
		return tea.KeyMsg{Type: tea.KeyHome}
	case "end":
		return tea.KeyMsg{Type: tea.KeyEnd}
	case "enter":
		return tea.KeyMsg{Type: tea.KeyEnter}
	case "esc":
		return tea.KeyMsg{Type: tea.KeyEsc}
	case "backspace":
		return tea.KeyMsg{Type: tea.KeyBackspace}
	case "ctrl+c":
		return tea.KeyMsg{Type: tea.KeyCtrlC}
	case "space":
		return tea.KeyMsg{Type: tea.KeySpace, Runes: []rune{' '}}
	}
	return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s)}
}

// twoVariations has two variations of Sente's second move, a comment and
// a NAG.
const twoVariations = `[Game "ogi"]
[Event "Test event"]
[Sente "Sente, A."]
[Gote "Gote, B."]
[Result "*"]

1. Rg2-f2 Id8-c7 {solid} 2. La1-a2 $1 (2. Lh1-h2 Pb6-b5 3. Pd3-d4) (2. Pd3-d4
Ic7-d8) 2... Ic7-d8 3. Lh1-h2 *
`

// TestKeys plays key sequences and checks where the replayer stands.
func TestKeys(t *testing.T) {
	tests := []struct {
		name     string
		keys     []string
		ply      int
		depth    int
		last     string // text of the last move, "" at the start
		flipped  bool
		choosing bool
		quit     bool
		msg      string // part of the message, "" for none
	}{
		{name: "start", keys: nil, ply: 0},
		{name: "arrows", keys: []string{"right", "right"}, ply: 2, last: "Id8-c7"},
		{name: "l and j forward", keys: []string{"l", "j", "down", "space"}, ply: 4, last: "Ic7-d8"},
		{name: "h and k back", keys: []string{"end", "h", "k", "left", "up"}, ply: 1, last: "Rg2-f2"},
		{name: "back at start", keys: []string{"left"}, ply: 0, msg: "start of the game"},
		{name: "end", keys: []string{"end"}, ply: 5, last: "Lh1-h2"},
		{name: "G and g", keys: []string{"G", "g"}, ply: 0},
		{name: "home", keys: []string{"end", "home"}, ply: 0},
		{name: "past the end", keys: []string{"end", "right"}, ply: 5, last: "Lh1-h2", msg: "end of the game"},
		{name: "jump", keys: []string{"4", "enter"}, ply: 4, last: "Ic7-d8"},
		{name: "jump edited", keys: []string{"4", "backspace", "3", "enter"}, ply: 3, last: "La1-a2"},
		{name: "jump cancelled", keys: []string{"4", "esc", "right"}, ply: 1, last: "Rg2-f2"},
		{name: "jump too far", keys: []string{"right", "9", "enter"}, ply: 1, last: "Rg2-f2", msg: "no ply 9"},
		{name: "no variation here", keys: []string{"v"}, ply: 0, msg: "no variation"},
		{name: "chooser opens", keys: []string{"right", "right", "v"}, ply: 2, last: "Id8-c7", choosing: true},
		{name: "chooser down enter", keys: []string{"right", "right", "v", "down", "enter"}, ply: 3, depth: 1, last: "Pd3-d4"},
		{name: "chooser wraps", keys: []string{"right", "right", "v", "up", "enter"}, ply: 3, depth: 1, last: "Pd3-d4"},
		{name: "chooser digit", keys: []string{"right", "right", "v", "1"}, ply: 3, depth: 1, last: "Lh1-h2"},
		{name: "chooser esc", keys: []string{"right", "right", "v", "esc"}, ply: 2, last: "Id8-c7"},
		{name: "in a variation", keys: []string{"right", "right", "v", "1", "right", "right"}, ply: 5, depth: 1, last: "Pd3-d4"},
		{name: "variation end", keys: []string{"right", "right", "v", "1", "G", "right"}, ply: 5, depth: 1, last: "Pd3-d4", msg: "end of the variation"},
		{name: "x leaves", keys: []string{"right", "right", "v", "1", "right", "x"}, ply: 2, last: "Id8-c7"},
		{name: "back from first move leaves", keys: []string{"right", "right", "v", "2", "left"}, ply: 2, last: "Id8-c7"},
		{name: "x on the main line", keys: []string{"x"}, ply: 0, msg: "not in a variation"},
		{name: "jump inside variation", keys: []string{"right", "right", "v", "1", "4", "enter"}, ply: 4, depth: 1, last: "Pb6-b5"},
		{name: "jump out of variation", keys: []string{"right", "right", "v", "1", "1", "enter"}, ply: 1, last: "Rg2-f2"},
		{name: "home leaves variation", keys: []string{"right", "right", "v", "1", "home"}, ply: 0},
		{name: "flip", keys: []string{"f"}, flipped: true},
		{name: "flip twice", keys: []string{"f", "right", "f"}, ply: 1, last: "Rg2-f2"},
		{name: "help takes the next key", keys: []string{"?", "right"}, ply: 0},
		{name: "q", keys: []string{"right", "q"}, ply: 1, last: "Rg2-f2", quit: true},
		{name: "ctrl+c", keys: []string{"ctrl+c"}, quit: true},
		{name: "unknown key", keys: []string{"z"}, msg: "unknown key"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := New(parse(t, twoVariations))
			var cmd tea.Cmd
			for _, k := range tt.keys {
				_, cmd = m.Update(key(k))
			}
			last := ""
			if s := m.Last(); s != nil {
				last = s.Text
			}
			choosing, _ := m.Choosing()
			if m.Ply() != tt.ply || m.Depth() != tt.depth || last != tt.last || m.Flipped() != tt.flipped || choosing != tt.choosing || m.Quitting() != tt.quit {
				t.Errorf("keys %v: ply %d depth %d last %q flipped %v choosing %v quit %v; want ply %d depth %d last %q flipped %v choosing %v quit %v",
					tt.keys, m.Ply(), m.Depth(), last, m.Flipped(), choosing, m.Quitting(), tt.ply, tt.depth, tt.last, tt.flipped, tt.choosing, tt.quit)
			}
			if tt.quit != (cmd != nil) {
				t.Errorf("keys %v: quit command %v, want %v", tt.keys, cmd != nil, tt.quit)
			}
			if (tt.msg == "") != (m.Message() == "") || !strings.Contains(m.Message(), tt.msg) {
				t.Errorf("keys %v: message %q, want one with %q", tt.keys, m.Message(), tt.msg)
			}
			// The position is the one the moves played lead to.
			if s := m.Last(); s != nil && m.Position().Key() != s.Key {
				t.Errorf("keys %v: position key %x, the last move's %x", tt.keys, m.Position().Key(), s.Key)
			}
		})
	}
}

// TestViewShows checks what the screen says at a few points of a game.
func TestViewShows(t *testing.T) {
	m := New(parse(t, twoVariations))
	m.Update(tea.WindowSizeMsg{Width: 110, Height: 36})
	screen := func() string { return m.View() }
	for _, want := range []string{"Ōgi · Test event", "Sente Sente, A.", "Gote Gote, B.", "start position", "main line", "1.  Rg2-f2"} {
		if !strings.Contains(screen(), want) {
			t.Errorf("start screen lacks %q:\n%s", want, screen())
		}
	}
	for _, k := range []string{"right", "right"} {
		m.Update(key(k))
	}
	for _, want := range []string{"▶Id8-c7", "move 1... Id8-c7", "solid", "instead of La1-a2: 1) 2. Lh1-h2  2) 2. Pd3-d4", "ply 2 · Sente to move"} {
		if !strings.Contains(screen(), want) {
			t.Errorf("screen at ply 2 lacks %q:\n%s", want, screen())
		}
	}
	m.Update(key("right"))
	for _, want := range []string{"▶La1-a2! +2", "(good move)"} {
		if !strings.Contains(screen(), want) {
			t.Errorf("screen at ply 3 lacks %q:\n%s", want, screen())
		}
	}
	for _, k := range []string{"left", "v", "2"} {
		m.Update(key(k))
	}
	for _, want := range []string{"variation", "in a variation (depth 1", "▶Pd3-d4", "Ic7-d8"} {
		if !strings.Contains(screen(), want) {
			t.Errorf("screen in the variation lacks %q:\n%s", want, screen())
		}
	}
	if strings.Contains(screen(), "La1-a2") {
		t.Errorf("the variation's list still shows the move it replaces:\n%s", screen())
	}
	m.Update(key("?"))
	if !strings.Contains(screen(), "flip the board") {
		t.Errorf("help screen lacks the keys:\n%s", screen())
	}
}

// TestViewInvalidRecord: a broken record shows its error in the header and
// where the moves stop.
func TestViewInvalidRecord(t *testing.T) {
	m := New(load(t, samples+"/broken/jetan-path-blocked.pdn", 1))
	if m.g.Err == nil {
		t.Fatal("the broken sample replays without error")
	}
	m.Update(key("end"))
	v := strings.Join(strings.Fields(m.View()), " ") // lines are wrapped
	for _, want := range []string{"invalid record (line", "the record stops being valid here: " + m.g.Err.Error(), "position: "} {
		if !strings.Contains(v, want) {
			t.Errorf("screen lacks %q:\n%s", want, v)
		}
	}
}

// TestMoveListScrolls: on a short screen the list keeps the current move
// in view, and says that rows are hidden.
func TestMoveListScrolls(t *testing.T) {
	m := New(load(t, samples+"/draughts/draughts.pdn", 1))
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 24})
	for _, ply := range []string{"1", "40", "80"} {
		for _, k := range ply {
			m.Update(key(string(k)))
		}
		m.Update(key("enter"))
		v := m.View()
		if n := strings.Count(v, "\n") + 1; n > 24 {
			t.Errorf("ply %s: the screen has %d lines for 24 rows", ply, n)
		}
		cur := m.Last().Text
		if !strings.Contains(v, "▶"+cur) {
			t.Errorf("ply %s: the current move %s is not in view:\n%s", ply, cur, v)
		}
		if ply != "1" && !strings.Contains(v, "more") {
			t.Errorf("ply %s: the list does not say rows are hidden above:\n%s", ply, v)
		}
	}
}
