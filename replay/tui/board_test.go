package tui

import (
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// boardLines draws a game's board after n plies.
func boardLines(t *testing.T, path string, n int, flip bool) []string {
	t.Helper()
	m := New(load(t, filepath.Join(samples, path), 1))
	m.jump(n)
	if m.Ply() != n {
		t.Fatalf("%s: cannot reach ply %d", path, n)
	}
	var last = m.Last()
	b := newBoard(m.geo, m.g.Rules.Sides(), m.Position(), nil, flip)
	if last != nil {
		b = newBoard(m.geo, m.g.Rules.Sides(), m.Position(), &last.Info, flip)
	}
	return strings.Split(b.draw(), "\n")
}

// TestNumberedBoardLabelsEverySquare: on a 10×10 draughts board every dark
// square shows its number, occupied or not; flipped, 50 is at the top left.
func TestNumberedBoardLabelsEverySquare(t *testing.T) {
	lines := boardLines(t, "draughts/draughts.pdn", 0, false)
	text := strings.Join(lines, "\n")
	for sq, want := range map[int]string{1: "b 1", 20: "b20", 25: "25", 31: "w31", 50: "w50"} {
		if !strings.Contains(text, want) {
			t.Errorf("square %d: board lacks %q:\n%s", sq, want, text)
		}
	}
	for n := 1; n <= 50; n++ {
		if c := strings.Count(text, padLeft(strconv.Itoa(n), 2)); c == 0 {
			t.Errorf("square %d has no label:\n%s", n, text)
		}
	}
	// Row 1 (after the frame's top) starts with square 1, row 10 ends with 50.
	if !strings.HasPrefix(strings.TrimLeft(strings.Trim(lines[1], "│ "), " "), "b 1") {
		t.Errorf("first row does not start with square 1: %q", lines[1])
	}
	flipped := boardLines(t, "draughts/draughts.pdn", 0, true)
	if !strings.HasPrefix(strings.TrimLeft(strings.Trim(flipped[1], "│ "), " "), "w50") {
		t.Errorf("flipped first row does not start with square 50: %q", flipped[1])
	}
}

// TestFlip: a flipped Ōgi board has Gote's side at the bottom, files h→a,
// and Sente's hand above.
func TestFlip(t *testing.T) {
	up := boardLines(t, "ogi/osaka-club.pdn", 0, false)
	down := boardLines(t, "ogi/osaka-club.pdn", 0, true)
	if !strings.HasPrefix(up[0], "Gote in hand") || !strings.HasPrefix(down[0], "Sente in hand") {
		t.Errorf("hands: %q / %q", up[0], down[0])
	}
	if strings.Fields(up[1])[0] != "a" || strings.Fields(down[1])[0] != "h" {
		t.Errorf("files: %q / %q", up[1], down[1])
	}
	// Rank 8 (Gote's back rank, lower case) on top, then at the bottom.
	if f := strings.Fields(up[2]); f[0] != "8" || f[1] != "l" {
		t.Errorf("top rank: %q", up[2])
	}
	if f := strings.Fields(down[2]); f[0] != "1" || f[len(f)-1] != "1" || f[1] != "L" {
		t.Errorf("flipped top rank: %q", down[2])
	}
	// Each row of the flipped board is the reverse of the other's.
	for r := 0; r < 8; r++ {
		a, b := strings.Fields(up[2+r])[1:9], strings.Fields(down[9-r])[1:9]
		for i := range a {
			if a[i] != b[7-i] {
				t.Errorf("rank %d: %v is not the reverse of %v", 8-r, b, a)
				break
			}
		}
	}
}

// TestRingFlip: Dejarik's ring turned half round puts 6 at the top.
func TestRingFlip(t *testing.T) {
	up := boardLines(t, "dejarik/series.pdn", 0, false)
	down := boardLines(t, "dejarik/series.pdn", 0, true)
	top := func(lines []string) string {
		for _, l := range lines {
			if strings.TrimSpace(l) != "" {
				return strings.TrimSpace(l)
			}
		}
		return ""
	}
	if top(up) != "12" || top(down) != "6" {
		t.Errorf("top of the ring: %q, flipped %q", top(up), top(down))
	}
	if strings.TrimSpace(up[0]) != "12" {
		t.Errorf("the ring starts with a blank line: %q", up[0])
	}
	for _, lines := range [][]string{up, down} {
		if !strings.Contains(strings.Join(lines, "\n"), "( · )") {
			t.Errorf("the centre is not drawn ( · ):\n%s", strings.Join(lines, "\n"))
		}
	}
	if !strings.Contains(strings.Join(up, "\n"), "○ White: o1 o2 o3 o4") {
		t.Errorf("ring lacks White's cells:\n%s", strings.Join(up, "\n"))
	}
}

// TestSquatRing: on a short screen the ring takes fewer rows and still
// draws its 25 cells.
func TestSquatRing(t *testing.T) {
	m := New(load(t, filepath.Join(samples, "dejarik/series.pdn"), 1))
	cells := func(s string) int {
		s = s[:strings.Index(s, "outer ring")]
		return strings.Count(s, "·") + strings.Count(s, "○") + strings.Count(s, "●")
	}
	tall := newBoard(m.geo, m.g.Rules.Sides(), m.Position(), nil, false)
	squat := newBoard(m.geo, m.g.Rules.Sides(), m.Position(), nil, false)
	squat.squat = true
	a, b := tall.draw(), squat.draw()
	if cells(a) != 25 || cells(b) != 25 {
		t.Errorf("cells drawn: %d tall, %d squat; want 25", cells(a), cells(b))
	}
	if strings.Count(b, "\n") >= strings.Count(a, "\n")-3 {
		t.Errorf("the squat ring is not shorter:\n%s", b)
	}
}
