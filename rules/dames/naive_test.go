package dames_test

import (
	"fmt"
	"math/rand"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/plateau/plateau/rules"
)

// A deliberately naive second generator: a [][]byte board indexed by row and
// column, every rule checked directly, no precomputed tables, no encoding.
// 'w' 'W' white man/king, 'b' 'B' black man/king, '.' empty dark square,
// ' ' light square.

type nBoard struct {
	size  int
	cells [][]byte
	white bool // White to move
	game  string
}

type nMove struct {
	fr, fc, tr, tc int
	caps           [][2]int
}

func nSquare(size, n int) (int, int) {
	half := size / 2
	r := (n - 1) / half
	c := 2 * ((n - 1) % half)
	if r%2 == 0 {
		c++
	}
	return r, c
}

func nNumber(size, r, c int) int { return r*(size/2) + c/2 + 1 }

// nFromBoard copies a position through its Board listing.
func nFromBoard(p rules.Position, game string) *nBoard {
	size := 10
	if strings.Contains(p.Diagram(), "---------------------------+") == false {
		size = 8
	}
	b := &nBoard{size: size, white: p.ToMove() == 0, game: game}
	b.cells = make([][]byte, size)
	for r := range b.cells {
		b.cells[r] = make([]byte, size)
		for c := range b.cells[r] {
			if (r+c)%2 == 1 {
				b.cells[r][c] = '.'
			} else {
				b.cells[r][c] = ' '
			}
		}
	}
	for _, pl := range p.Board() {
		n, _ := strconv.Atoi(pl.Square)
		r, c := nSquare(size, n)
		ch := byte('w')
		if pl.Side == 1 {
			ch = 'b'
		}
		if pl.Kind == 'K' {
			ch -= 'a' - 'A'
		}
		b.cells[r][c] = ch
	}
	return b
}

func (b *nBoard) in(r, c int) bool { return r >= 0 && c >= 0 && r < b.size && c < b.size }

func (b *nBoard) mine(ch byte) bool {
	if b.white {
		return ch == 'w' || ch == 'W'
	}
	return ch == 'b' || ch == 'B'
}

func (b *nBoard) enemy(ch byte) bool {
	if !b.white {
		return ch == 'w' || ch == 'W'
	}
	return ch == 'b' || ch == 'B'
}

var nDirs = [4][2]int{{-1, -1}, {-1, 1}, {1, -1}, {1, 1}}

func (b *nBoard) captures() []nMove {
	var out []nMove
	for r := 0; r < b.size; r++ {
		for c := 0; c < b.size; c++ {
			ch := b.cells[r][c]
			if !b.mine(ch) {
				continue
			}
			king := ch == 'W' || ch == 'B'
			b.cells[r][c] = '.'
			var rec func(cr, cc int, caps [][2]int)
			rec = func(cr, cc int, caps [][2]int) {
				more := false
				for _, d := range nDirs {
					// find the first piece along d
					k := 1
					if king {
						for b.in(cr+k*d[0], cc+k*d[1]) && b.cells[cr+k*d[0]][cc+k*d[1]] == '.' {
							k++
						}
					}
					er, ec := cr+k*d[0], cc+k*d[1]
					if !b.in(er, ec) || !b.enemy(b.cells[er][ec]) {
						continue
					}
					taken := false
					for _, x := range caps {
						if x == [2]int{er, ec} {
							taken = true
						}
					}
					if taken {
						continue
					}
					for j := 1; ; j++ {
						lr, lc := er+j*d[0], ec+j*d[1]
						if !b.in(lr, lc) || b.cells[lr][lc] != '.' {
							break
						}
						more = true
						nc := append(append([][2]int(nil), caps...), [2]int{er, ec})
						rec(lr, lc, nc)
						if !king {
							break
						}
					}
				}
				if !more && len(caps) > 0 {
					out = append(out, nMove{r, c, cr, cc, caps})
				}
			}
			rec(r, c, nil)
			b.cells[r][c] = ch
		}
	}
	// one move per origin, destination and captured set
	seen := map[string]bool{}
	var uniq []nMove
	best := 0
	for _, m := range out {
		if len(m.caps) > best {
			best = len(m.caps)
		}
	}
	for _, m := range out {
		if b.game == "draughts" && len(m.caps) < best {
			continue
		}
		k := m.key()
		if !seen[k] {
			seen[k] = true
			uniq = append(uniq, m)
		}
	}
	return uniq
}

func (m nMove) key() string {
	var cs []string
	for _, x := range m.caps {
		cs = append(cs, fmt.Sprint(x))
	}
	sort.Strings(cs)
	return fmt.Sprint(m.fr, m.fc, m.tr, m.tc, cs)
}

func (b *nBoard) moves() []nMove {
	if b.game != "loup-moutons" {
		if caps := b.captures(); len(caps) > 0 {
			return caps
		}
	}
	var out []nMove
	for r := 0; r < b.size; r++ {
		for c := 0; c < b.size; c++ {
			ch := b.cells[r][c]
			if !b.mine(ch) {
				continue
			}
			for _, d := range nDirs {
				king := ch == 'W' || ch == 'B'
				wolf := b.game == "loup-moutons" && ch == 'b'
				fwd := (ch == 'w' && d[0] < 0) || (ch == 'b' && d[0] > 0)
				if !king && !fwd && !wolf {
					continue
				}
				for k := 1; b.in(r+k*d[0], c+k*d[1]) && b.cells[r+k*d[0]][c+k*d[1]] == '.'; k++ {
					out = append(out, nMove{r, c, r + k*d[0], c + k*d[1], nil})
					if !king {
						break
					}
				}
			}
		}
	}
	return out
}

func (b *nBoard) play(m nMove) *nBoard {
	nb := &nBoard{size: b.size, white: !b.white, game: b.game}
	for _, row := range b.cells {
		nb.cells = append(nb.cells, append([]byte(nil), row...))
	}
	ch := nb.cells[m.fr][m.fc]
	nb.cells[m.fr][m.fc] = '.'
	for _, x := range m.caps {
		nb.cells[x[0]][x[1]] = '.'
	}
	if b.game != "loup-moutons" {
		if ch == 'w' && m.tr == 0 {
			ch = 'W'
		}
		if ch == 'b' && m.tr == b.size-1 {
			ch = 'B'
		}
	}
	nb.cells[m.tr][m.tc] = ch
	return nb
}

func (b *nBoard) over() bool {
	if b.game == "loup-moutons" {
		wolfRow, sheepRow := -1, -1
		for r := 0; r < b.size; r++ {
			for c := 0; c < b.size; c++ {
				if b.cells[r][c] == 'b' {
					wolfRow = r
				}
				if b.cells[r][c] == 'w' && r > sheepRow {
					sheepRow = r
				}
			}
		}
		if wolfRow > sheepRow {
			return true
		}
	}
	return len(b.moves()) == 0
}

func (b *nBoard) perft(d int) uint64 {
	if d == 0 {
		return 1
	}
	if b.over() {
		return 0
	}
	ms := b.moves()
	if d == 1 {
		return uint64(len(ms))
	}
	var n uint64
	for _, m := range ms {
		n += b.play(m).perft(d - 1)
	}
	return n
}

func (b *nBoard) String() string {
	var parts []string
	for r := 0; r < b.size; r++ {
		for c := 0; c < b.size; c++ {
			if ch := b.cells[r][c]; ch != '.' && ch != ' ' {
				parts = append(parts, fmt.Sprintf("%d%c", nNumber(b.size, r, c), ch))
			}
		}
	}
	sort.Strings(parts)
	side := "B"
	if b.white {
		side = "W"
	}
	return side + strings.Join(parts, ",")
}

var nCrossPositions = []struct {
	game, fen string
	depth     int
}{
	{"dames", "", 5},
	{"dames-brigand", "", 5},
	{"draughts", "", 5},
	{"loup-moutons", "", 9},
	{"loup-moutons", "B:W46,47,48,49:B3", 7},
	// kings with long multi-captures in every direction
	{"draughts", "W:WK46,K3:B7,8,9,12,13,18,19,23,24,28,29,33,34,39,40", 4},
	{"dames", "W:WK46,K3:B7,8,9,12,13,18,19,23,24,28,29,33,34,39,40", 4},
	{"draughts", "B:W17,18,19,22,27,28,32,33,37,38:BK5,K46,12", 4},
	{"dames", "B:W17,18,19,22,27,28,32,33,37,38:BK5,K46,12", 4},
	// men capturing backward and crowning (or not) on the far row
	{"draughts", "W:W11,12,33:B2,7,8,17,18,28", 5},
	{"dames", "B:W44,45,49,43,38,32:B33,39,40,27", 5},
	{"dames-brigand", "B:W44,45,49,43,38,32:B33,39,40,27", 5},
	// the Turkish strike cannot happen: a taken piece blocks the king
	{"draughts", "W:WK50:B44,33,22,24,35,14", 3},
}

func TestNaiveCrossCheck(t *testing.T) {
	for _, tc := range nCrossPositions {
		p := mustPos(t, tc.game, tc.fen)
		nb := nFromBoard(p, tc.game)
		for d := 1; d <= tc.depth; d++ {
			got, want := rules.Perft(p, d), nb.perft(d)
			if got != want {
				t.Errorf("%s %q perft(%d) = %d, naive %d", tc.game, tc.fen, d, got, want)
				break
			}
		}
	}
}

// boardString renders a rules position as nBoard.String does.
func boardString(p rules.Position) string {
	var parts []string
	for _, pl := range p.Board() {
		ch := byte('w')
		if pl.Side == 1 {
			ch = 'b'
		}
		if pl.Kind == 'K' {
			ch -= 'a' - 'A'
		}
		parts = append(parts, pl.Square+string(ch))
	}
	sort.Strings(parts)
	side := "B"
	if p.ToMove() == 0 {
		side = "W"
	}
	return side + strings.Join(parts, ",")
}

// Random games and random king-heavy positions: the set of positions reached
// in one move must be the same for both generators.
func TestNaiveRandomPositions(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	for _, game := range []string{"dames", "draughts", "dames-brigand", "loup-moutons"} {
		for i := 0; i < 60; i++ {
			fen := ""
			if game != "loup-moutons" && i%2 == 1 {
				fen = randomFEN(rng)
			}
			p := mustPos(t, game, fen)
			for ply := 0; ply < 80 && !p.Outcome().Over; ply++ {
				nb := nFromBoard(p, game)
				var a, b []string
				moves := p.Legal(nil)
				for _, m := range moves {
					c := p.Clone()
					c.Play(m)
					a = append(a, boardString(c))
				}
				for _, m := range nb.moves() {
					b = append(b, nb.play(m).String())
				}
				sort.Strings(a)
				sort.Strings(b)
				if strings.Join(a, "\n") != strings.Join(b, "\n") {
					t.Fatalf("%s %s: %d moves, naive %d\n%v\n%v", game, p.String(), len(a), len(b), a, b)
				}
				p.Play(moves[rng.Intn(len(moves))])
			}
		}
	}
}

func randomFEN(rng *rand.Rand) string {
	var w, b []string
	for s := 1; s <= 50; s++ {
		switch x := rng.Intn(10); {
		case x < 2:
			if s > 5 || rng.Intn(2) == 0 {
				w = append(w, prefixK(rng, 4)+strconv.Itoa(s))
			}
		case x < 4:
			if s < 46 || rng.Intn(2) == 0 {
				b = append(b, prefixK(rng, 4)+strconv.Itoa(s))
			}
		}
	}
	side := "W"
	if rng.Intn(2) == 0 {
		side = "B"
	}
	return side + ":W" + strings.Join(w, ",") + ":B" + strings.Join(b, ",")
}

func prefixK(rng *rand.Rand, oneIn int) string {
	if rng.Intn(oneIn) == 0 {
		return "K"
	}
	return ""
}
