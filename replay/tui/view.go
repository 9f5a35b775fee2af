package tui

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/charmbracelet/lipgloss"

	"github.com/plateau/plateau/replay"
	"github.com/plateau/plateau/rules"
)

var (
	titleStyle   = lipgloss.NewStyle().Bold(true)
	dimStyle     = lipgloss.NewStyle().Foreground(lipgloss.Color("245"))
	errStyle     = lipgloss.NewStyle().Foreground(lipgloss.Color("203"))
	currentStyle = lipgloss.NewStyle().Reverse(true).Bold(true)
	commentStyle = lipgloss.NewStyle().Foreground(lipgloss.Color("151"))
	listStyle    = lipgloss.NewStyle().Border(lipgloss.RoundedBorder()).BorderForeground(lipgloss.Color("240")).Padding(0, 1)
)

// Keys is the key help, shown by ? and in the command's description.
const Keys = `→ l j ↓ Space   next move
← h k ↑ Bksp    previous move (from a variation's first move: leave it)
Home g          start of the game
End G           end of the current line
N Enter         go to ply N (of the variation if it reaches N, else the main line)
v               enter the variation of the next move (several: ↑↓ or 1-9, Enter)
x               leave the variation, back to where it branched
] [             next, previous game of the file
o               the file's game list (↑↓ PgUp PgDn, a number, Enter opens)
f               flip the board
?               this help (any key closes it)
q Ctrl-C        quit`

// nagNames are the common NAGs' symbols and meanings (PGN standard).
var nagNames = map[int][2]string{
	1: {"!", "good move"}, 2: {"?", "mistake"}, 3: {"!!", "brilliant move"},
	4: {"??", "blunder"}, 5: {"!?", "interesting move"}, 6: {"?!", "dubious move"},
	7: {"□", "forced move"}, 8: {"", "the only move"}, 9: {"", "worst move"},
	10: {"=", "drawish position"}, 13: {"∞", "unclear position"},
	14: {"⩲", "slight advantage to the first side"}, 15: {"⩱", "slight advantage to the second side"},
	16: {"±", "advantage to the first side"}, 17: {"∓", "advantage to the second side"},
	18: {"+-", "decisive advantage to the first side"}, 19: {"-+", "decisive advantage to the second side"},
	22: {"⨀", "zugzwang (first side)"}, 23: {"⨀", "zugzwang (second side)"},
	32: {"", "development advantage"}, 36: {"→", "initiative"}, 40: {"↑", "attack"},
	132: {"⇆", "counterplay"}, 146: {"N", "novelty"},
}

// nagSuffix is the move's NAGs as symbols ($n when there is none).
func nagSuffix(nags []int) string {
	var b strings.Builder
	for _, n := range nags {
		if s := nagNames[n][0]; s != "" && n <= 6 {
			b.WriteString(s)
		} else if s != "" {
			b.WriteString(" " + s)
		} else {
			b.WriteString(" $" + strconv.Itoa(n))
		}
	}
	return b.String()
}

// nagText is the NAGs spelled out.
func nagText(nags []int) string {
	var parts []string
	for _, n := range nags {
		name := nagNames[n][1]
		if name == "" {
			name = "NAG $" + strconv.Itoa(n)
		}
		parts = append(parts, name)
	}
	return strings.Join(parts, ", ")
}

func orDash(s string) string {
	if s == "" || s == "?" || s == "????.??.??" {
		return "—"
	}
	return s
}

// header is the game's identity: game, event, site, date, round; the
// players; the result and termination; the record's first error.
func (m *Model) header() string {
	rec := m.g.Record
	sides := m.g.Rules.Sides()
	parts := []string{m.g.Rules.Name()}
	if i, n := m.Game(); n > 1 || (m.games != nil && !m.games.Complete()) {
		parts = append([]string{fmt.Sprintf("game %d of %s", i+1, m.count())}, parts...)
	}
	for _, t := range []string{"Event", "Site", "Date"} {
		if v := rec.Tag(t); orDash(v) != "—" {
			parts = append(parts, v)
		}
	}
	if v := rec.Tag("Round"); orDash(v) != "—" {
		parts = append(parts, "round "+v)
	}
	line1 := titleStyle.Render(strings.Join(parts, " · "))
	res := orDash(m.g.Result)
	if t := m.g.Termination(); t != "" {
		res += " (" + t + ")"
	}
	line2 := fmt.Sprintf("%s %s  vs  %s %s   %s",
		dimStyle.Render(sides[0]), titleStyle.Render(orDash(rec.Tag(sides[0]))),
		dimStyle.Render(sides[1]), titleStyle.Render(orDash(rec.Tag(sides[1]))),
		titleStyle.Render(res))
	out := line1 + "\n" + line2
	if e := m.g.Err; e != nil {
		out += "\n" + errStyle.Render(fmt.Sprintf("invalid record (line %d): %v", e.Pos.Line, e))
	}
	for _, w := range m.g.Warnings {
		out += "\n" + dimStyle.Render("warning: "+w.Text)
	}
	return out
}

// moveRows lays out the current path two plies a row; it returns the rows
// and the row of the current move (-1 at the start).
func (m *Model) moveRows() (rows []string, curRow int) {
	steps, cur := m.path()
	curRow = -1
	var b strings.Builder
	flush := func() {
		if b.Len() > 0 {
			rows = append(rows, b.String())
			b.Reset()
		}
	}
	// Moves are padded to one width so that the two columns line up.
	w := 0
	for _, s := range steps {
		w = max(w, lipgloss.Width(moveCell(s)))
	}
	for i, s := range steps {
		if i == 0 || (s.Ply%2 == 0 && !steps[i-1].Info.KeepsTurn) {
			flush()
			b.WriteString(dimStyle.Render(padLeft(replay.PlyString(s.Ply), 5)) + " ")
		}
		text := s.Text + nagSuffix(s.Src.NAGs)
		pad := strings.Repeat(" ", w-lipgloss.Width(moveCell(s)))
		mark := " "
		switch {
		case i == cur-1:
			mark = "▶"
			text = currentStyle.Render(text)
			curRow = len(rows)
		case i >= cur:
			text = dimStyle.Render(text)
		}
		b.WriteString(mark + text)
		if n := len(s.Variations); n > 0 {
			b.WriteString(dimStyle.Render(" +" + strconv.Itoa(n)))
		}
		b.WriteString(pad + " ")
	}
	flush()
	return rows, curRow
}

// moveCell is a move's text in the list, without styles: the move, its
// NAG symbols, and " +n" when it has n variations.
func moveCell(s *replay.Step) string {
	t := s.Text + nagSuffix(s.Src.NAGs)
	if n := len(s.Variations); n > 0 {
		t += " +" + strconv.Itoa(n)
	}
	return t
}

// moveList is the scrolled move list, height rows tall.
func (m *Model) moveList(height, width int) string {
	rows, cur := m.moveRows()
	title := "main line"
	if d := m.Depth(); d > 0 {
		title = "variation"
		if d > 1 {
			title += " (depth " + strconv.Itoa(d) + ")"
		}
	}
	height = max(height, 3)
	first := 0
	if len(rows) > height-1 {
		first = max(0, min(cur-(height-1)/2, len(rows)-(height-1)))
	}
	end := min(len(rows), first+height-1)
	lines := []string{dimStyle.Render(title)}
	if first > 0 {
		lines[0] += dimStyle.Render("  ↑" + strconv.Itoa(first) + " more")
	}
	lines = append(lines, rows[first:end]...)
	if end < len(rows) {
		lines[len(lines)-1] += dimStyle.Render("  ↓")
	}
	if len(rows) == 0 {
		lines = append(lines, dimStyle.Render("(no moves)"))
	}
	return listStyle.Width(width).Height(height).Render(strings.Join(lines, "\n"))
}

// status is the position line, the current move with its NAGs and
// comments, and what follows (variations of the next move).
func (m *Model) status(width int) string {
	pos := m.Position()
	sides := m.g.Rules.Sides()
	var lines []string
	where := fmt.Sprintf("ply %d · %s to move", m.Ply(), sides[pos.ToMove()])
	if o := pos.Outcome(); o.Over {
		where = fmt.Sprintf("ply %d · game over: %s (%s)", m.Ply(), o.Result, o.Reason)
	}
	if d := m.Depth(); d > 0 {
		where += fmt.Sprintf(" · in a variation (depth %d, x leaves it)", d)
	}
	if m.flip {
		where += " · board flipped"
	}
	lines = append(lines, where)
	var comments []string
	if last := m.Last(); last != nil {
		mv := "move " + replay.PlyString(last.Ply) + " " + titleStyle.Render(last.Text+nagSuffix(last.Src.NAGs))
		if len(last.Src.NAGs) > 0 {
			mv += dimStyle.Render("  (" + nagText(last.Src.NAGs) + ")")
		}
		if last.Info.Note != "" {
			mv += errStyle.Render("  " + last.Info.Note)
		}
		lines = append(lines, mv)
		comments = append(append(comments, last.Src.Before...), last.Src.After...)
	} else {
		lines = append(lines, "start position")
		comments = append(comments, m.g.Record.Intro...)
	}
	if len(comments) > 0 {
		c := lipgloss.NewStyle().Width(max(width-2, 20)).Render(strings.Join(comments, " "))
		cl := strings.Split(c, "\n")
		if len(cl) > 4 {
			cl = append(cl[:3], "…")
		}
		for _, l := range cl {
			lines = append(lines, commentStyle.Render("  "+l))
		}
	}
	if next := m.Next(); next != nil && len(next.Variations) > 0 {
		lines = append(lines, m.variations(next))
	} else if next == nil && m.Depth() == 0 && m.g.Err != nil {
		lines = append(lines, errStyle.Render("the record stops being valid here: "+m.g.Err.Error()))
	} else if next == nil && m.Depth() == 0 {
		end := "end of the game: " + orDash(m.g.Result)
		if t := m.g.Termination(); t != "" {
			end += " (" + t + ")"
		}
		lines = append(lines, dimStyle.Render(end))
	}
	lines = append(lines, dimStyle.Render("position: "+pos.String()))
	return strings.Join(lines, "\n")
}

// variations lists the alternatives to the next move; with the chooser
// open, the one under its cursor is highlighted.
func (m *Model) variations(next *replay.Step) string {
	var parts []string
	for i, v := range next.Variations {
		if len(v) == 0 {
			continue
		}
		t := fmt.Sprintf("%d) %s %s", i+1, replay.PlyString(v[0].Ply), v[0].Text+nagSuffix(v[0].Src.NAGs))
		if m.choosing && i == m.choice {
			t = currentStyle.Render(t)
		}
		parts = append(parts, t)
	}
	head := fmt.Sprintf("instead of %s: ", next.Text)
	if m.choosing {
		return head + strings.Join(parts, "  ") + dimStyle.Render("   ↑↓ or 1-9, Enter enters, Esc cancels")
	}
	return head + strings.Join(parts, "  ") + dimStyle.Render("   v enters")
}

// View implements tea.Model.
func (m *Model) View() string {
	if m.quitting {
		return ""
	}
	head := m.header()
	var last *rules.MoveInfo
	if s := m.Last(); s != nil {
		last = &s.Info
	}
	b := newBoard(m.geo, m.g.Rules.Sides(), m.Position(), last, m.flip)
	b.squat = m.height < 34 // a round board fits 80×24 squat
	bd := b.draw()
	stat := m.status(m.width)
	foot := dimStyle.Render("→/← step · Home/End · N Enter ply · v/x variation" + m.gameKeys() + " · f flip · ? help · q quit")
	switch {
	case m.listing && m.input != "":
		foot = "go to game: " + m.input + "▏" + dimStyle.Render("  (Enter goes, Esc closes the list)")
	case m.listing && m.msg == "":
		foot = dimStyle.Render("↑↓ PgUp PgDn choose · Enter opens · a number then Enter · Esc closes")
	case m.input != "":
		foot = "go to ply: " + m.input + "▏" + dimStyle.Render("  (Enter goes, Esc cancels)")
	case m.msg != "":
		foot = errStyle.Render(m.msg)
	}
	wrap := lipgloss.NewStyle().Width(max(m.width, 20))
	// The body's rows: the screen less the header, the status and the key
	// line. The piece legend goes under the board when it fits.
	room := m.height - lipgloss.Height(wrap.Render(head)) - lipgloss.Height(wrap.Render(stat)) - 2
	if lg := b.legend(); lg != "" && lipgloss.Height(bd)+lipgloss.Height(lg)-1 <= room {
		bd += lg
	}
	m.listH = room - 3 // the game list's rows, inside its frame and title
	boardW := lipgloss.Width(bd)
	listW := min(max(24, m.width-boardW-4), 48)
	bodyH := lipgloss.Height(bd)
	// The list takes the rows the rest of the screen leaves, at least the
	// board's height.
	rest := lipgloss.Height(lipgloss.NewStyle().Width(max(m.width, 20)).Render(head+"\n"+stat)) + 3
	listH := max(bodyH, m.height-rest) - 2
	var body string
	switch {
	case m.help:
		body = listStyle.Render(titleStyle.Render("keys") + "\n" + Keys)
	case m.listing:
		body = m.gameList(max(m.width, 20))
	default:
		body = lipgloss.JoinHorizontal(lipgloss.Top, bd, "  ", m.moveList(listH, listW))
	}
	head, stat = wrap.Render(head), wrap.Render(stat)
	// On a short screen the body loses its last rows, not the status or
	// the key line.
	if lipgloss.Height(body) > room && room > 0 {
		body = lipgloss.NewStyle().MaxHeight(room).Render(body)
	}
	view := head + "\n" + body + "\n" + stat + "\n" + foot
	if lipgloss.Height(view)+1 <= m.height {
		view = head + "\n\n" + body + "\n" + stat + "\n" + foot
	}
	return lipgloss.NewStyle().MaxWidth(m.width).MaxHeight(m.height).Render(view)
}
