package tui

import (
	"io"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/plateau/plateau/replay"
)

// Run shows a replayed game full-screen on the alternate screen of the
// terminal out, reading keys from in (a terminal: it is put in raw mode for
// the run), until the user quits. The game must have a start position.
func Run(g *replay.Game, in io.Reader, out io.Writer) error {
	p := tea.NewProgram(New(g), tea.WithAltScreen(), tea.WithInput(in), tea.WithOutput(out))
	_, err := p.Run()
	return err
}
