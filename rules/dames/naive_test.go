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
	kingsAt        []bool // whether each piece taken, in order, is a king
	kingMover      bool
	crowned        bool // crowned during the capture (Russian)
}

// nRules are the rule sentences of each ruleset, as this test reads them.
type nRules struct {
	manBack   bool   // men capture backward
	flying    bool   // kings fly
	crownMid  bool   // a man reaching the far row mid-capture goes on as a king
	manNoKing bool   // men cannot take kings
	choice    string // "free", "most", "italian", "king"
	mirror    bool   // square 1 is the top-left corner
}

func nRulesOf(game string) nRules {
	switch game {
	case "draughts", "brazilian":
		return nRules{manBack: true, flying: true, choice: "most"}
	case "checkers":
		return nRules{choice: "free"}
	case "italian":
		return nRules{manNoKing: true, choice: "italian", mirror: true}
	case "pool":
		return nRules{manBack: true, flying: true, choice: "free"}
	case "russian":
		return nRules{manBack: true, flying: true, crownMid: true, choice: "free"}
	case "czech":
		return nRules{flying: true, choice: "king"}
	}
	return nRules{manBack: true, flying: true, choice: "free"} // dames, dames-brigand
}

func nSquare(size, n int, mirror bool) (int, int) {
	half := size / 2
	r := (n - 1) / half
	c := 2 * ((n - 1) % half)
	if (r%2 == 0) != mirror {
		c++
	}
	return r, c
}

func nNumber(size, r, c int) int { return r*(size/2) + c/2 + 1 }

// nParse reads a square name: a PDN number, or "c3" (file, rank from the
// bottom) in the algebraic rulesets.
func nParse(size int, name string, mirror bool) (int, int) {
	if name[0] >= 'a' && name[0] <= 'h' {
		rank, _ := strconv.Atoi(name[1:])
		return size - rank, int(name[0] - 'a')
	}
	n, _ := strconv.Atoi(name)
	return nSquare(size, n, mirror)
}

// nFromBoard copies a position through its Board listing.
func nFromBoard(p rules.Position, game string) *nBoard {
	size := 10
	if strings.Contains(p.Diagram(), "---------------------------+") == false {
		size = 8
	}
	b := &nBoard{size: size, white: colour(game, p.ToMove()) == 'w', game: game}
	b.cells = make([][]byte, size)
	for r := range b.cells {
		b.cells[r] = make([]byte, size)
		for c := range b.cells[r] {
			if ((r+c)%2 == 1) != nRulesOf(game).mirror {
				b.cells[r][c] = '.'
			} else {
				b.cells[r][c] = ' '
			}
		}
	}
	for _, pl := range p.Board() {
		r, c := nParse(size, pl.Square, nRulesOf(game).mirror)
		ch := colour(game, pl.Side)
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
	rl := nRulesOf(b.game)
	for r := 0; r < b.size; r++ {
		for c := 0; c < b.size; c++ {
			ch := b.cells[r][c]
			if !b.mine(ch) {
				continue
			}
			b.cells[r][c] = '.'
			var rec func(cr, cc int, king, crowned bool, caps [][2]int, kings []bool)
			rec = func(cr, cc int, king, crowned bool, caps [][2]int, kings []bool) {
				more := false
				for _, d := range nDirs {
					forwardDir := (b.white && d[0] < 0) || (!b.white && d[0] > 0)
					if !king && !rl.manBack && !forwardDir {
						continue
					}
					// find the first piece along d
					k := 1
					if king && rl.flying {
						for b.in(cr+k*d[0], cc+k*d[1]) && b.cells[cr+k*d[0]][cc+k*d[1]] == '.' {
							k++
						}
					}
					er, ec := cr+k*d[0], cc+k*d[1]
					if !b.in(er, ec) || !b.enemy(b.cells[er][ec]) {
						continue
					}
					victimKing := b.cells[er][ec] == 'W' || b.cells[er][ec] == 'B'
					if !king && rl.manNoKing && victimKing {
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
					nc := append(append([][2]int(nil), caps...), [2]int{er, ec})
					// A flying king must land where it can take again, if
					// any square beyond the piece allows it.
					mustGoOn := false
					for j := 1; king && rl.flying; j++ {
						lr, lc := er+j*d[0], ec+j*d[1]
						if !b.in(lr, lc) || b.cells[lr][lc] != '.' {
							break
						}
						if b.kingCanJump(lr, lc, nc) {
							mustGoOn = true
						}
					}
					for j := 1; ; j++ {
						lr, lc := er+j*d[0], ec+j*d[1]
						if !b.in(lr, lc) || b.cells[lr][lc] != '.' {
							break
						}
						if mustGoOn && !b.kingCanJump(lr, lc, nc) {
							continue
						}
						more = true
						nk := append(append([]bool(nil), kings...), victimKing)
						farRow := (b.white && lr == 0) || (!b.white && lr == b.size-1)
						if !king && rl.crownMid && farRow {
							rec(lr, lc, true, true, nc, nk)
						} else {
							rec(lr, lc, king, crowned, nc, nk)
						}
						if !(king && rl.flying) {
							break
						}
					}
				}
				if !more && len(caps) > 0 {
					out = append(out, nMove{r, c, cr, cc, caps, kings, ch == 'W' || ch == 'B', crowned})
				}
			}
			rec(r, c, ch == 'W' || ch == 'B', false, nil, nil)
			b.cells[r][c] = ch
		}
	}
	out = nFilter(out, rl.choice)
	// one move per origin, destination, captured set (and crowning)
	seen := map[string]bool{}
	var uniq []nMove
	for _, m := range out {
		k := m.key()
		if !seen[k] {
			seen[k] = true
			uniq = append(uniq, m)
		}
	}
	return uniq
}

// kingCanJump reports whether a flying king of the side to move standing on
// (r, c) could jump an enemy piece that is not in caps; pieces in caps stay
// on the board and block.
func (b *nBoard) kingCanJump(r, c int, caps [][2]int) bool {
	for _, d := range nDirs {
		k := 1
		for b.in(r+k*d[0], c+k*d[1]) && b.cells[r+k*d[0]][c+k*d[1]] == '.' {
			k++
		}
		er, ec := r+k*d[0], c+k*d[1]
		lr, lc := er+d[0], ec+d[1]
		if !b.in(er, ec) || !b.enemy(b.cells[er][ec]) || !b.in(lr, lc) || b.cells[lr][lc] != '.' {
			continue
		}
		taken := false
		for _, x := range caps {
			if x == [2]int{er, ec} {
				taken = true
			}
		}
		if !taken {
			return true
		}
	}
	return false
}

// nFilter keeps the captures the precedence rule allows, one criterion at
// a time.
func nFilter(ms []nMove, choice string) []nMove {
	keep := func(ms []nMove, better func(a, b nMove) int) []nMove {
		var best []nMove
		for _, m := range ms {
			if len(best) == 0 {
				best = []nMove{m}
				continue
			}
			switch better(m, best[0]) {
			case 1:
				best = []nMove{m}
			case 0:
				best = append(best, m)
			}
		}
		return best
	}
	cmp := func(a, b int) int {
		if a > b {
			return 1
		}
		if a < b {
			return -1
		}
		return 0
	}
	kingCount := func(m nMove) int {
		n := 0
		for _, k := range m.kingsAt {
			if k {
				n++
			}
		}
		return n
	}
	boolInt := func(b bool) int {
		if b {
			return 1
		}
		return 0
	}
	switch choice {
	case "most":
		ms = keep(ms, func(a, b nMove) int { return cmp(len(a.caps), len(b.caps)) })
	case "king":
		ms = keep(ms, func(a, b nMove) int { return cmp(boolInt(a.kingMover), boolInt(b.kingMover)) })
	case "italian":
		ms = keep(ms, func(a, b nMove) int { return cmp(len(a.caps), len(b.caps)) })
		ms = keep(ms, func(a, b nMove) int { return cmp(boolInt(a.kingMover), boolInt(b.kingMover)) })
		ms = keep(ms, func(a, b nMove) int { return cmp(kingCount(a), kingCount(b)) })
		ms = keep(ms, func(a, b nMove) int {
			for i := range a.kingsAt {
				if a.kingsAt[i] != b.kingsAt[i] {
					return cmp(boolInt(a.kingsAt[i]), boolInt(b.kingsAt[i]))
				}
			}
			return 0
		})
	}
	return ms
}

func (m nMove) key() string {
	var cs []string
	for _, x := range m.caps {
		cs = append(cs, fmt.Sprint(x))
	}
	sort.Strings(cs)
	return fmt.Sprint(m.fr, m.fc, m.tr, m.tc, cs, m.crowned)
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
					out = append(out, nMove{fr: r, fc: c, tr: r + k*d[0], tc: c + k*d[1]})
					if !king || !nRulesOf(b.game).flying {
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
		if ch == 'w' && (m.tr == 0 || m.crowned) {
			ch = 'W'
		}
		if ch == 'b' && (m.tr == b.size-1 || m.crowned) {
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
	// the 8×8 families from the start
	{"checkers", "", 6},
	{"italian", "", 5},
	{"pool", "", 5},
	{"russian", "", 6},
	{"brazilian", "", 5},
	{"czech", "", 5},
	// kings and men mixed: precedence, short and flying kings, men taking
	// backward, crowning during a capture
	{"checkers", "W:WK14,22,23,K30:B6,7,10,K17,18,K26", 4},
	{"italian", "W:WK14,22,23,K30:B6,7,10,K17,18,K26", 4},
	{"italian", "B:W9,K10,18,K19,26,27:BK14,15,23,K31", 4},
	{"pool", "W:WK14,22,23,K30:B6,7,10,K17,18,K26", 4},
	{"russian", "W:W9,14,22,K30:B2,3,6,7,10,18,K26", 4},
	{"russian", "W:W11:B7,9,19", 3},
	{"pool", "W:W11:B7,9,19", 3},
	{"brazilian", "W:WK14,22,23,K30:B6,7,10,K17,18,K26", 4},
	{"czech", "W:WK14,22,23,K30:B6,7,10,K17,18,K26", 4},
	// a flying king must land where its capture goes on (a1 over c3 to d4,
	// then over e3), and a Russian man crowned mid-capture as well
	{"russian", "W:WK29:B22,23", 3},
	{"pool", "W:WK29:B22,23", 3},
	{"czech", "W:WK29:B22,23", 3},
	{"russian", "W:W9:B6,7,19", 3},
	{"russian", "B:WK14,17,K20,29,K32:BK2,12,15,16,18,23,24,K25,26,27", 4},
	{"pool", "B:WK14,17,K20,29,K32:BK2,12,15,16,18,23,24,K25,26,27", 4},
	{"czech", "B:WK14,17,K20,29,K32:BK2,12,15,16,18,23,24,K25,26,27", 4},
	{"dames", "W:WK6,8,9,10,K21,K24,30,K34,45,K50:B2,4,17,27,29,38,41,42", 3},
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

// colour is 'w' or 'b', the colour of side s of game, by the name the game
// gives it.
func colour(game string, s rules.Side) byte {
	g, err := rules.Lookup(game)
	if err != nil {
		panic(err)
	}
	if g.Sides()[s] == "White" {
		return 'w'
	}
	return 'b'
}

// boardString renders a rules position of game as nBoard.String does.
func boardString(p rules.Position, game string, size int) string {
	var parts []string
	for _, pl := range p.Board() {
		r, c := nParse(size, pl.Square, false)
		pl.Square = strconv.Itoa(nNumber(size, r, c))
		ch := colour(game, pl.Side)
		if pl.Kind == 'K' {
			ch -= 'a' - 'A'
		}
		parts = append(parts, pl.Square+string(ch))
	}
	sort.Strings(parts)
	side := "B"
	if colour(game, p.ToMove()) == 'w' {
		side = "W"
	}
	return side + strings.Join(parts, ",")
}

// Random games and random king-heavy positions: the set of positions reached
// in one move must be the same for both generators.
func TestNaiveRandomPositions(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	for _, game := range []string{"dames", "draughts", "dames-brigand", "loup-moutons", "checkers", "italian", "pool", "russian", "brazilian", "czech"} {
		games := 60
		if nRulesOf(game) != nRulesOf("dames") && game != "draughts" {
			games = 24 // the 8×8 families: smaller boards, shorter games
		}
		for i := 0; i < games; i++ {
			fen := ""
			if game != "loup-moutons" && i%2 == 1 {
				n := 50
				if game != "dames" && game != "draughts" && game != "dames-brigand" {
					n = 32
				}
				fen = randomFEN(rng, n)
			}
			p := mustPos(t, game, fen)
			for ply := 0; ply < 80 && !p.Outcome().Over; ply++ {
				nb := nFromBoard(p, game)
				var a, b []string
				moves := p.Legal(nil)
				for _, m := range moves {
					c := p.Clone()
					c.Play(m)
					a = append(a, boardString(c, game, nb.size))
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

func randomFEN(rng *rand.Rand, n int) string {
	var w, b []string
	half := 5
	if n == 32 {
		half = 4
	}
	for s := 1; s <= n; s++ {
		switch x := rng.Intn(10); {
		case x < 2:
			if s > half || rng.Intn(2) == 0 {
				w = append(w, prefixK(rng, 4)+strconv.Itoa(s))
			}
		case x < 4:
			if s <= n-half || rng.Intn(2) == 0 {
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
