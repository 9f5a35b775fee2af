package dames_test

import (
	"fmt"
	"math/rand"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/plateau/plateau/internal/longtest"
	"github.com/plateau/plateau/rules"
)

// A deliberately naive second generator: a [][]byte board indexed by row and
// column, every rule checked directly from the rule sentences below, no
// precomputed tables, no encoding. 'w' 'W' white man/king, 'b' 'B' black
// man/king, '.' empty square, ' ' a cell that is no square. Rows run from
// the top (Black's side), columns from White's left.

type nBoard struct {
	rl    nRules
	cells [][]byte
	white bool // White to move
	game  string
	// run is the Frisian count of each side's king moves: the king's cell
	// and how many non-capturing moves it made in a row.
	run [2]nRun
}

type nRun struct{ r, c, n int }

type nMove struct {
	fr, fc, tr, tc int
	caps           [][2]int
	kingsAt        []bool // whether each piece taken, in order, is a king
	kingMover      bool
	crowned        bool // crowned during the capture (Russian, Turkish)
}

// nRules are the rule sentences of each ruleset, as this test reads them.
// Directions are White's, in cells (row, column); Black's are their mirror
// image.
type nRules struct {
	w, h            int
	every           bool // every cell is a square (Turkish)
	a1Light         bool // the bottom-left corner is no square (PDN invert flag 1)
	fromBottomRight bool // square 1 is at White's bottom right, counting leftwards and up
	algebraic       bool // square names a1…
	manMove         [][2]int
	manCap          [][2]int
	kingMove        [][2]int
	kingCap         [][2]int
	flying          bool // kings move and capture at a distance
	landNext        bool // a flying king lands right behind the piece it takes (Thai)
	removeNow       bool // a piece taken leaves the board at once (Thai, Turkish)
	noReverse       bool // no 180° turn between two captures (Turkish)
	crownMid        bool // a man reaching the far row mid-capture goes on as a king
	manNoKing       bool // men cannot take kings
	choice          string
	kingRun         int    // a king makes at most this many quiet moves in a row while its side has men
	outcome         string // "normal", "loser" (the blocked side wins), "crown" (the first king wins)
}

var (
	nDiag     = [][2]int{{-1, -1}, {-1, 1}, {1, -1}, {1, 1}}
	nDiagFwd  = [][2]int{{-1, -1}, {-1, 1}}
	nOrth2    = [][2]int{{-2, 0}, {2, 0}, {0, -2}, {0, 2}} // the next square of the same colour
	nOrth1    = [][2]int{{-1, 0}, {1, 0}, {0, -1}, {0, 1}}
	nTurkMan  = [][2]int{{-1, 0}, {0, -1}, {0, 1}}
	nEightDir = append(append([][2]int(nil), nDiag...), nOrth2...)
)

func nRulesOf(game string) nRules {
	intl := nRules{w: 10, h: 10, manMove: nDiagFwd, manCap: nDiag, kingMove: nDiag, kingCap: nDiag, flying: true, choice: "most"}
	eight := func(r nRules) nRules { r.w, r.h = 8, 8; return r }
	switch game {
	case "draughts":
		return intl
	case "brazilian":
		return eight(intl)
	case "checkers":
		return nRules{w: 8, h: 8, manMove: nDiagFwd, manCap: nDiagFwd, kingMove: nDiag, kingCap: nDiag, choice: "free"}
	case "italian":
		return nRules{w: 8, h: 8, a1Light: true, manMove: nDiagFwd, manCap: nDiagFwd, kingMove: nDiag, kingCap: nDiag, manNoKing: true, choice: "italian"}
	case "pool":
		r := eight(intl)
		r.choice = "free"
		return r
	case "russian", "spantsiretti":
		r := eight(intl)
		r.choice, r.crownMid, r.algebraic = "free", true, true
		if game == "spantsiretti" {
			r.w = 10
		}
		return r
	case "czech":
		return nRules{w: 8, h: 8, algebraic: true, manMove: nDiagFwd, manCap: nDiagFwd, kingMove: nDiag, kingCap: nDiag, flying: true, choice: "king"}
	case "spanish", "portuguese":
		return nRules{w: 8, h: 8, a1Light: true, fromBottomRight: true, manMove: nDiagFwd, manCap: nDiagFwd, kingMove: nDiag, kingCap: nDiag, flying: true, choice: "quality"}
	case "thai":
		return nRules{w: 8, h: 8, fromBottomRight: true, manMove: nDiagFwd, manCap: nDiagFwd, kingMove: nDiag, kingCap: nDiag, flying: true, landNext: true, removeNow: true, choice: "free"}
	case "canadian":
		intl.w, intl.h = 12, 12
		return intl
	case "antidraughts":
		intl.outcome = "loser"
		return intl
	case "breakthrough":
		intl.outcome = "crown"
		return intl
	case "frisian", "frysk":
		intl.manCap, intl.kingCap, intl.choice, intl.kingRun = nEightDir, nEightDir, "value", 3
		return intl
	case "turkish":
		return nRules{w: 8, h: 8, every: true, algebraic: true, manMove: nTurkMan, manCap: nTurkMan, kingMove: nOrth1, kingCap: nOrth1, flying: true,
			removeNow: true, noReverse: true, crownMid: true, choice: "most"}
	case "loup-moutons":
		return nRules{w: 8, h: 8, manMove: nDiagFwd, kingMove: nDiag}
	case "dames-brigand":
		intl.outcome = "loser"
	}
	intl.choice = "free" // dames, dames-brigand
	return intl
}

// nDirs are the directions of a piece: White's as listed, Black's turned
// upside down; the wolf (Black's man in loup-moutons) steps as a king.
func (b *nBoard) nDirs(ds [][2]int, whitePiece bool) [][2]int {
	if whitePiece {
		return ds
	}
	out := make([][2]int, len(ds))
	for i, d := range ds {
		out[i] = [2]int{-d[0], d[1]}
	}
	return out
}

// playing reports whether the cell is a square: every cell, or the cells of
// the colour of the bottom-left corner (or of the other colour, with the
// invert flag).
func (rl nRules) playing(r, c int) bool {
	if rl.every {
		return true
	}
	cornerColour := (rl.h - 1) % 2 // row+column parity of the bottom-left cell
	return ((r+c)%2 == cornerColour) != rl.a1Light
}

// cellOf finds PDN square n by counting squares from square 1's corner.
func (rl nRules) cellOf(n int) (int, int) {
	k := 0
	for i := 0; i < rl.w*rl.h; i++ {
		r, c := i/rl.w, i%rl.w
		if rl.fromBottomRight {
			r, c = rl.h-1-r, rl.w-1-c
		}
		if rl.playing(r, c) {
			k++
			if k == n {
				return r, c
			}
		}
	}
	return -1, -1
}

// nParse reads a square name: a PDN number, or "c3" (file, rank from the
// bottom).
func (rl nRules) nParse(name string) (int, int) {
	if name[0] >= 'a' && name[0] <= 'z' {
		rank, _ := strconv.Atoi(name[1:])
		return rl.h - rank, int(name[0] - 'a')
	}
	n, _ := strconv.Atoi(name)
	return rl.cellOf(n)
}

// nName is the name a FEN of the ruleset gives the cell.
func (rl nRules) nName(r, c int) string {
	if rl.every {
		return string(rune('a'+c)) + strconv.Itoa(rl.h-r)
	}
	for n := 1; ; n++ {
		if nr, nc := rl.cellOf(n); nr == r && nc == c {
			return strconv.Itoa(n)
		}
	}
}

// nFromBoard copies a position through its Board listing (and the king runs
// of its FEN).
func nFromBoard(p rules.Position, game string) *nBoard {
	rl := nRulesOf(game)
	if game == "loup-moutons" && strings.Contains(p.String(), ":10x10") {
		rl.w, rl.h = 10, 10
	}
	b := &nBoard{rl: rl, white: colour(game, p.ToMove()) == 'w', game: game}
	b.cells = make([][]byte, rl.h)
	for r := range b.cells {
		b.cells[r] = make([]byte, rl.w)
		for c := range b.cells[r] {
			b.cells[r][c] = ' '
			if rl.playing(r, c) {
				b.cells[r][c] = '.'
			}
		}
	}
	for _, pl := range p.Board() {
		r, c := rl.nParse(pl.Square)
		ch := colour(game, pl.Side)
		if pl.Kind == 'K' {
			ch -= 'a' - 'A'
		}
		b.cells[r][c] = ch
	}
	b.run = nRunsOf(p.String(), rl)
	return b
}

// nRunsOf reads the king runs section ":RW28/2,B3/1" of a FEN.
func nRunsOf(fen string, rl nRules) [2]nRun {
	var runs [2]nRun
	for _, part := range strings.Split(fen, ":") {
		if !strings.HasPrefix(part, "R") {
			continue
		}
		for _, item := range strings.Split(part[1:], ",") {
			side := strings.Index("WB", item[:1])
			sq, n, _ := strings.Cut(item[1:], "/")
			r, c := rl.nParse(sq)
			k, _ := strconv.Atoi(n)
			runs[side] = nRun{r, c, k}
		}
	}
	return runs
}

func (b *nBoard) in(r, c int) bool { return r >= 0 && c >= 0 && r < b.rl.h && c < b.rl.w }

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

func isKingCh(ch byte) bool { return ch == 'W' || ch == 'B' }

// nCapture is the state of a capture sequence being explored.
type nCapture struct {
	fr, fc  int
	mover   byte
	caps    [][2]int
	kings   []bool
	last    [2]int // the direction of the last capture
	crowned bool
}

func (b *nBoard) captures() []nMove {
	var out []nMove
	for r := 0; r < b.rl.h; r++ {
		for c := 0; c < b.rl.w; c++ {
			ch := b.cells[r][c]
			if !b.mine(ch) || b.rl.manCap == nil && !isKingCh(ch) {
				continue
			}
			b.cells[r][c] = '.'
			b.captureFrom(&out, nCapture{fr: r, fc: c, mover: ch}, r, c, isKingCh(ch))
			b.cells[r][c] = ch
		}
	}
	out = nFilter(out, b.rl.choice)
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

// captureFrom explores the sequence st from (cr, cc), the piece moving as a
// king or not; complete sequences go to out.
func (b *nBoard) captureFrom(out *[]nMove, st nCapture, cr, cc int, king bool) {
	rl := b.rl
	dirs := b.nDirs(rl.manCap, b.white)
	if king {
		dirs = rl.kingCap
	}
	more := false
	for _, d := range dirs {
		if rl.noReverse && len(st.caps) > 0 && d == [2]int{-st.last[0], -st.last[1]} {
			continue
		}
		// the first piece along d: next to it, or at any distance for a flying king
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
		victim := b.cells[er][ec]
		if !king && rl.manNoKing && isKingCh(victim) {
			continue
		}
		taken := false
		for _, x := range st.caps {
			taken = taken || x == [2]int{er, ec}
		}
		if taken {
			continue
		}
		if rl.removeNow {
			b.cells[er][ec] = '.'
		}
		caps := append(append([][2]int(nil), st.caps...), [2]int{er, ec})
		// A flying king must land where it can take again, if any square
		// beyond the piece allows it.
		mustGoOn := false
		for j := 1; king && rl.flying && !rl.landNext; j++ {
			lr, lc := er+j*d[0], ec+j*d[1]
			if !b.in(lr, lc) || b.cells[lr][lc] != '.' {
				break
			}
			if b.kingCanJump(lr, lc, caps, d) {
				mustGoOn = true
			}
		}
		for j := 1; ; j++ {
			lr, lc := er+j*d[0], ec+j*d[1]
			if !b.in(lr, lc) || b.cells[lr][lc] != '.' {
				break
			}
			if mustGoOn && !b.kingCanJump(lr, lc, caps, d) {
				continue
			}
			more = true
			next := st
			next.caps = caps
			next.kings = append(append([]bool(nil), st.kings...), isKingCh(victim))
			next.last = d
			farRow := (b.white && lr == 0) || (!b.white && lr == rl.h-1)
			if !king && rl.crownMid && farRow {
				next.crowned = true
				b.captureFrom(out, next, lr, lc, true)
			} else {
				b.captureFrom(out, next, lr, lc, king)
			}
			if !(king && rl.flying) || rl.landNext {
				break
			}
		}
		b.cells[er][ec] = victim
	}
	if !more && len(st.caps) > 0 {
		*out = append(*out, nMove{st.fr, st.fc, cr, cc, st.caps, st.kings, isKingCh(st.mover), st.crowned})
	}
}

// kingCanJump reports whether a flying king of the side to move standing on
// (r, c), having just taken in direction last, could jump an enemy piece
// that is not in caps; pieces in caps stay on the board and block (unless
// the ruleset removes them at once), and a Turkish king may not turn back.
func (b *nBoard) kingCanJump(r, c int, caps [][2]int, last [2]int) bool {
	for _, d := range b.rl.kingCap {
		if b.rl.noReverse && d == [2]int{-last[0], -last[1]} {
			continue
		}
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
	most := func(a, b nMove) int { return cmp(len(a.caps), len(b.caps)) }
	kingMover := func(a, b nMove) int { return cmp(boolInt(a.kingMover), boolInt(b.kingMover)) }
	mostKings := func(a, b nMove) int { return cmp(kingCount(a), kingCount(b)) }
	switch choice {
	case "most":
		ms = keep(ms, most)
	case "king":
		ms = keep(ms, kingMover)
	case "quality":
		ms = keep(ms, most)
		ms = keep(ms, mostKings)
	case "value":
		// lidraughts' Frisian values: a man 100, a king 199; then a king's capture
		value := func(m nMove) int { return 100*(len(m.caps)-kingCount(m)) + 199*kingCount(m) }
		ms = keep(ms, func(a, b nMove) int { return cmp(value(a), value(b)) })
		ms = keep(ms, kingMover)
	case "italian":
		ms = keep(ms, most)
		ms = keep(ms, kingMover)
		ms = keep(ms, mostKings)
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

// hasMen reports whether the side (White or not) has a man.
func (b *nBoard) hasMen(whiteSide bool) bool {
	for _, row := range b.cells {
		for _, ch := range row {
			if (whiteSide && ch == 'w') || (!whiteSide && ch == 'b') {
				return true
			}
		}
	}
	return false
}

func (b *nBoard) moves() []nMove {
	if caps := b.captures(); len(caps) > 0 {
		return caps
	}
	var out []nMove
	side := 1
	if b.white {
		side = 0
	}
	for r := 0; r < b.rl.h; r++ {
		for c := 0; c < b.rl.w; c++ {
			ch := b.cells[r][c]
			if !b.mine(ch) {
				continue
			}
			king := isKingCh(ch)
			dirs := b.nDirs(b.rl.manMove, b.white)
			if b.game == "loup-moutons" && ch == 'b' {
				dirs = nDiag // the wolf
			}
			if king {
				dirs = b.rl.kingMove
				if run := b.run[side]; b.rl.kingRun > 0 && run.n >= b.rl.kingRun && run.r == r && run.c == c && b.hasMen(b.white) {
					continue
				}
			}
			for _, d := range dirs {
				for k := 1; b.in(r+k*d[0], c+k*d[1]) && b.cells[r+k*d[0]][c+k*d[1]] == '.'; k++ {
					out = append(out, nMove{fr: r, fc: c, tr: r + k*d[0], tc: c + k*d[1]})
					if !king || !b.rl.flying {
						break
					}
				}
			}
		}
	}
	return out
}

func (b *nBoard) play(m nMove) *nBoard {
	nb := &nBoard{rl: b.rl, white: !b.white, game: b.game, run: b.run}
	for _, row := range b.cells {
		nb.cells = append(nb.cells, append([]byte(nil), row...))
	}
	ch := nb.cells[m.fr][m.fc]
	nb.cells[m.fr][m.fc] = '.'
	for _, x := range m.caps {
		nb.cells[x[0]][x[1]] = '.'
	}
	wasKing := isKingCh(ch)
	if b.game != "loup-moutons" {
		if ch == 'w' && (m.tr == 0 || m.crowned) {
			ch = 'W'
		}
		if ch == 'b' && (m.tr == b.rl.h-1 || m.crowned) {
			ch = 'B'
		}
	}
	nb.cells[m.tr][m.tc] = ch
	if b.rl.kingRun > 0 {
		side := 1
		if b.white {
			side = 0
		}
		run := nRun{}
		if wasKing && len(m.caps) == 0 {
			run = nRun{m.tr, m.tc, 1}
			if old := b.run[side]; old.n > 0 && old.r == m.fr && old.c == m.fc {
				run.n = old.n + 1
			}
		}
		nb.run[side] = run
		for s, w := range []bool{true, false} {
			king := byte('W')
			if !w {
				king = 'B'
			}
			if r := nb.run[s]; r.n > 0 && (!nb.hasMen(w) || nb.cells[r.r][r.c] != king) {
				nb.run[s] = nRun{}
			}
		}
	}
	return nb
}

func (b *nBoard) over() bool {
	switch {
	case b.game == "loup-moutons":
		wolfRow, sheepRow := -1, -1
		for r := 0; r < b.rl.h; r++ {
			for c := 0; c < b.rl.w; c++ {
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
	case b.rl.outcome == "crown":
		for _, row := range b.cells {
			for _, ch := range row {
				if isKingCh(ch) {
					return true
				}
			}
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

// String lists the pieces by cell, the side to move and the king runs.
func (b *nBoard) String() string {
	var parts []string
	for r := 0; r < b.rl.h; r++ {
		for c := 0; c < b.rl.w; c++ {
			if ch := b.cells[r][c]; ch != '.' && ch != ' ' {
				parts = append(parts, fmt.Sprintf("%d.%d%c", r, c, ch))
			}
		}
	}
	sort.Strings(parts)
	side := "B"
	if b.white {
		side = "W"
	}
	return side + strings.Join(parts, ",") + fmt.Sprint(b.run)
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
	for _, tc := range append(nCrossPositions, nNewCrossPositions...) {
		p := mustPos(t, tc.game, tc.fen)
		nb := nFromBoard(p, tc.game)
		depth := tc.depth
		if *deep && tc.fen == "" && tc.game != "loup-moutons" {
			depth = max(depth, 6) // every start to depth 6 (minutes)
		}
		for d := 1; d <= depth; d++ {
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
func boardString(p rules.Position, game string, rl nRules) string {
	var parts []string
	for _, pl := range p.Board() {
		r, c := rl.nParse(pl.Square)
		ch := colour(game, pl.Side)
		if pl.Kind == 'K' {
			ch -= 'a' - 'A'
		}
		parts = append(parts, fmt.Sprintf("%d.%d%c", r, c, ch))
	}
	sort.Strings(parts)
	side := "B"
	if colour(game, p.ToMove()) == 'w' {
		side = "W"
	}
	return side + strings.Join(parts, ",") + fmt.Sprint(nRunsOf(p.String(), rl))
}

// nRandomGames is how many random games each ruleset plays in
// TestNaiveRandomPositions (every other one from a random position).
var nRandomGames = map[string]int{
	"dames": 60, "draughts": 60, "dames-brigand": 60, "loup-moutons": 60,
	"checkers": 24, "italian": 24, "pool": 24, "russian": 24, "brazilian": 24, "czech": 24,
	"spanish": 24, "portuguese": 12, "thai": 24, "turkish": 24, "spantsiretti": 24,
	"canadian": 12, "frisian": 30, "frysk": 30, "antidraughts": 12, "breakthrough": 12,
}

// Random games and random king-heavy positions: the set of positions reached
// in one move must be the same for both generators.
func TestNaiveRandomPositions(t *testing.T) {
	longtest.Skip(t)
	rng := rand.New(rand.NewSource(7))
	games := make([]string, 0, len(nRandomGames))
	for g := range nRandomGames {
		games = append(games, g)
	}
	sort.Strings(games)
	for _, game := range games {
		for i := 0; i < nRandomGames[game]; i++ {
			fen := ""
			if game != "loup-moutons" && i%2 == 1 {
				fen = randomFEN(rng, game)
			}
			p := mustPos(t, game, fen)
			for ply := 0; ply < 80 && !p.Outcome().Over; ply++ {
				if q := mustPos(t, game, p.String()); q.Key() != p.Key() || q.String() != p.String() {
					t.Fatalf("%s %s reads back as %s", game, p, q)
				}
				nb := nFromBoard(p, game)
				var a, b []string
				moves := p.Legal(nil)
				for _, m := range moves {
					c := p.Clone()
					c.Play(m)
					a = append(a, boardString(c, game, nb.rl))
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

// randomFEN places men and kings at random on the squares of game's board
// (about a fifth of them White's, a fifth Black's; no man on its crowning
// row).
func randomFEN(rng *rand.Rand, game string) string {
	rl := nRulesOf(game)
	var w, b []string
	for r := 0; r < rl.h; r++ {
		for c := 0; c < rl.w; c++ {
			if !rl.playing(r, c) {
				continue
			}
			name := rl.nName(r, c)
			switch x := rng.Intn(10); {
			case x < 2:
				if k := prefixK(rng, 4); k != "" || r > 0 {
					w = append(w, k+name)
				}
			case x < 4:
				if k := prefixK(rng, 4); k != "" || r < rl.h-1 {
					b = append(b, k+name)
				}
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
