package tui

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/plateau/plateau/replay"
)

// sampleGames are the games of a sample file as a collection, game 3
// unreadable.
type sampleGames struct {
	t     *testing.T
	path  string
	n     int
	asked []int
}

func (s *sampleGames) Len() int           { return s.n }
func (s *sampleGames) Complete() bool     { return true }
func (s *sampleGames) Title(i int) string { return fmt.Sprintf("title of game %d", i+1) }
func (s *sampleGames) Game(i int) (*replay.Game, error) {
	s.asked = append(s.asked, i)
	if i == 2 {
		return nil, errors.New("broken record")
	}
	return load(s.t, s.path, i+1), nil
}

// TestGamesKeys: ] and [ move between the games of a collection, one game
// asked for at a time; a game that cannot be shown leaves the current
// one with a message; the list opens on the current game, moves, and a
// number then Enter opens that game.
func TestGamesKeys(t *testing.T) {
	gs := &sampleGames{t: t, path: "../../samples/jetan/club.pdn", n: 20}
	m, err := NewGames(gs, 0)
	if err != nil {
		t.Fatal(err)
	}
	m.Update(tea.WindowSizeMsg{Width: 110, Height: 40})
	steps := []struct {
		keys     []string
		game     int // 0-based, after the keys
		listing  bool
		listAt   int
		msg      string
		inScreen string
	}{
		{nil, 0, false, 0, "", "game 1 of 20 · Jetan"},
		{[]string{"right", "right", "]"}, 1, false, 0, "", "game 2 of 20"},
		{[]string{"]"}, 1, false, 0, "game 3 cannot be shown: broken record", "game 3 cannot be shown"},
		{[]string{"["}, 0, false, 0, "", "game 1 of 20"},
		{[]string{"["}, 0, false, 0, "no game 0: the file has games 1 to 20", ""},
		{[]string{"o"}, 0, true, 0, "", "games of the file (20)"},
		{[]string{"down", "down", "down"}, 0, true, 3, "", "title of game 4"},
		{[]string{"enter"}, 3, false, 0, "", "game 4 of 20"},
		{[]string{"o", "1", "9", "enter"}, 18, false, 18, "", "game 19 of 20"},
		{[]string{"o", "end", "up", "esc"}, 18, false, 18, "", "game 19 of 20"},
		{[]string{"o", "9", "9", "enter"}, 18, true, 18, "no game 99: the file has games 1 to 20", "go to game"},
	}
	for _, st := range steps {
		for _, k := range st.keys {
			m.Update(key(k))
		}
		i, n := m.Game()
		listing, at := m.Listing()
		if i != st.game || n != 20 || listing != st.listing || (listing && at != st.listAt) || m.Message() != st.msg {
			t.Errorf("after %v: game %d of %d, listing %v at %d, message %q; want game %d, listing %v at %d, %q",
				st.keys, i, n, listing, at, m.Message(), st.game, st.listing, st.listAt, st.msg)
		}
		if st.inScreen != "" && !strings.Contains(m.View(), st.inScreen) && m.Message() == "" {
			t.Errorf("after %v: the screen lacks %q:\n%s", st.keys, st.inScreen, m.View())
		}
		if m.Ply() != 0 {
			t.Errorf("after %v: ply %d; a game opens at its start", st.keys, m.Ply())
		}
	}
	if len(gs.asked) != 6 {
		t.Errorf("games asked for: %v; one for each game opened or tried", gs.asked)
	}
}

// TestPieceLegend: Ōgi's board has the legend of its pieces and their
// promoted forms, saying which case is which side; a draughts board has
// none.
func TestPieceLegend(t *testing.T) {
	m := New(load(t, "../../samples/ogi/osaka-club.pdn", 1))
	m.Update(tea.WindowSizeMsg{Width: 110, Height: 40})
	for _, want := range []string{"pieces (Sente upper case, Gote lower case):", "R Rook 飛, +R Dragon 龍", "P Pawn 歩, +P Tokin と"} {
		if !strings.Contains(m.View(), want) {
			t.Errorf("Ōgi screen lacks %q:\n%s", want, m.View())
		}
	}
	d := New(load(t, "../../samples/draughts/draughts.pdn", 1))
	if strings.Contains(d.View(), "pieces (") {
		t.Errorf("a draughts board with a piece legend:\n%s", d.View())
	}
}

// growingGames is a collection still being read: n games so far.
type growingGames struct {
	sampleGames
	complete bool
}

func (g *growingGames) Complete() bool { return g.complete }

// TestGamesGrowing: while the collection grows the replayer says how many
// games so far, refuses a game not read yet with that reason, and asks to
// be redrawn; once complete it shows the total.
func TestGamesGrowing(t *testing.T) {
	gs := &growingGames{sampleGames: sampleGames{t: t, path: "../../samples/jetan/club.pdn", n: 5}}
	m, err := NewGames(gs, 0)
	if err != nil {
		t.Fatal(err)
	}
	m.Update(tea.WindowSizeMsg{Width: 110, Height: 40})
	if m.Init() == nil || !strings.Contains(m.View(), "game 1 of 5 so far") {
		t.Errorf("growing: no redraw asked, or the header lacks the count so far:\n%s", m.View())
	}
	m.Update(key("o"))
	for _, k := range []string{"9", "enter"} {
		m.Update(key(k))
	}
	if m.Message() != "game 9 is not read yet: 5 games so far" {
		t.Errorf("game 9 of a growing collection: %q", m.Message())
	}
	gs.n, gs.complete = 20, true
	if _, cmd := m.Update(growTick{}); cmd != nil {
		t.Error("complete: still asks to be redrawn")
	}
	m.Update(key("esc"))
	if !strings.Contains(m.View(), "game 1 of 20 ·") {
		t.Errorf("complete: header lacks the total:\n%s", m.View())
	}
}
