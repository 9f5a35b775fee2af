package dames

import (
	"strconv"
	"strings"

	"github.com/plateau/plateau/rules"
)

// parseFEN reads a PDN FEN: turn (W, B or ?), then one or two colour
// sections ":W..." ":B..." in any order, each a comma list of squares or
// ranges with an optional K (king) prefix, an optional final dot, and
// Plateau's own optional sections: ":H..." listing the squares a huff may
// empty (written only right after a fault), and the board size ":8x8" or
// ":10x10" (PDN says the size only in the GameType tag, so a position
// string carries it itself where the ruleset allows two sizes).
func (g *Game) parseFEN(text string) (*Position, error) {
	fen := strings.TrimSpace(text)
	if fen == "" {
		fen = g.StartFEN()
	}
	fen = strings.Join(strings.Fields(fen), "")
	fen = strings.TrimSuffix(fen, ".")
	parts := strings.Split(fen, ":")
	if len(parts) < 2 {
		return nil, rules.PositionError(text, "expected turn:Wsquares:Bsquares")
	}
	p := &Position{g: g}
	switch parts[0] {
	case "W", "w":
		p.turn = white
	case "B", "b":
		p.turn = black
	case "?":
		p.turn = g.firstMover()
	default:
		return nil, rules.PositionError(text, "turn %q is not W, B or ?", parts[0])
	}
	fs, err := g.readSections(text, parts)
	if err != nil {
		return nil, err
	}
	if p.geo, err = g.boardOf(text, fs); err != nil {
		return nil, err
	}
	if err := p.place(text, fs); err != nil {
		return nil, err
	}
	if fs.runs != "" {
		if err := p.parseRuns(text, fs.runs); err != nil {
			return nil, err
		}
	}
	if fs.end != "" {
		if err := p.parseEnd(text, fs.end[1:]); err != nil {
			return nil, err
		}
	}
	p.key = p.computeKey()
	return p, nil
}

// fenSections are the sections of a FEN as read, before the pieces stand.
type fenSections struct {
	entries []fenEntry
	huffs   []int  // squares (1-based) a huff may empty
	runs    string // the R section (king runs), read once the pieces stand
	end     string // the E section (a Frisian ending's count), read then too
	size    int    // from a size section, 0 when none
	highest int    // the highest square named
	seen    [3]bool
}

type fenEntry struct {
	sq   int // 1-based
	king bool
	side int
}

// readSections reads the sections after the turn: colours, huffs, the
// board size, king runs, lidraughts' clocks.
func (g *Game) readSections(text string, parts []string) (*fenSections, error) {
	fs := &fenSections{}
	for _, part := range parts[1:] {
		switch {
		case part == "":
			// PDN's FEN extensions: "It should therefore be extended
			// to accept empty ranges of pieces" ("W::" has none).
		case part[0] >= '0' && part[0] <= '9':
			if fs.size != 0 {
				return nil, rules.PositionError(text, "board size given twice")
			}
			switch strings.ToLower(part) {
			case "8x8":
				fs.size = 8
			case "10x10":
				fs.size = 10
			default:
				return nil, rules.PositionError(text, "board size %q is not 8x8 or 10x10", part)
			}
		case g.lidraughtsClock(part, parts):
		case part[0] == 'R' || part[0] == 'r':
			if fs.runs != "" {
				return nil, rules.PositionError(text, "section R given twice")
			}
			fs.runs = part[1:] + ","
		case part[0] == 'E' || part[0] == 'e':
			if fs.end != "" {
				return nil, rules.PositionError(text, "section E given twice")
			}
			fs.end = part
		default:
			if err := g.readColour(text, part, fs); err != nil {
				return nil, err
			}
		}
	}
	return fs, nil
}

// readColour reads a section of pieces (W, B) or of huffable squares (H).
func (g *Game) readColour(text, part string, fs *fenSections) error {
	var side int
	switch part[0] {
	case 'W', 'w':
		side = white
	case 'B', 'b':
		side = black
	case 'H', 'h':
		side = 2
	default:
		return rules.PositionError(text, "section %q does not start with W or B", part)
	}
	if fs.seen[side] {
		return rules.PositionError(text, "colour %c given twice", part[0])
	}
	fs.seen[side] = true
	if part[1:] == "" {
		return nil
	}
	maxBoard := g.f.geo.n
	if g.v == vLoup {
		maxBoard = geom10.n
	}
	for _, item := range strings.Split(part[1:], ",") {
		king := false
		if item != "" && (item[0] == 'K' || item[0] == 'k') {
			king = true
			item = item[1:]
		}
		a, b, err := g.fenSquares(text, item, maxBoard)
		if err != nil {
			return err
		}
		if side == 2 && king {
			return rules.PositionError(text, "huff section takes no K")
		}
		for s := a; s <= b; s++ {
			if side == 2 {
				fs.huffs = append(fs.huffs, s)
			} else {
				fs.entries = append(fs.entries, fenEntry{s, king, side})
			}
			fs.highest = max(fs.highest, s)
		}
	}
	return nil
}

// boardOf is the board a FEN is played on: the ruleset's, or for
// loup-moutons 10×10 when its size section or its squares say so.
func (g *Game) boardOf(text string, fs *fenSections) (*geom, error) {
	geo := g.f.geo
	switch {
	case g.v == vLoup && fs.size == 10, g.v == vLoup && fs.size == 0 && fs.highest > 32:
		geo = geom10
	case fs.size != 0 && (fs.size != g.f.geo.w || fs.size != g.f.geo.h):
		return nil, rules.PositionError(text, "%s is played on %s, not %d×%d", g.id, g.f.geo.size(), fs.size, fs.size)
	}
	if fs.highest > geo.n {
		return nil, rules.PositionError(text, "square %d is not on the %s board (1–%d)", fs.highest, geo.size(), geo.n)
	}
	return geo, nil
}

// place stands the pieces and the huffable squares of a FEN on p's board.
func (p *Position) place(text string, fs *fenSections) error {
	g := p.g
	for _, e := range fs.entries {
		s := e.sq - 1
		if p.cell[s] != empty {
			return rules.PositionError(text, "square %d given twice", e.sq)
		}
		c := int8(wMan)
		if e.side == black {
			c = bMan
		}
		if e.king {
			if g.v == vLoup {
				return rules.PositionError(text, "loup-moutons has no kings (K%d)", e.sq)
			}
			c++
		}
		p.cell[s] = c
		p.count[e.side]++
		p.occ[e.side] = p.occ[e.side].with(s)
	}
	if p.wide() && max(p.count[0], p.count[1]) > wideRanks {
		return rules.PositionError(text, "more than %d pieces of a side on the %s board", wideRanks, p.geo.size())
	}
	if g.v == vLoup && p.count[black] != 1 {
		return rules.PositionError(text, "loup-moutons needs exactly one wolf (Black piece), found %d", p.count[black])
	}
	for _, h := range fs.huffs {
		s := h - 1
		if p.cell[s] == empty || sideOf(p.cell[s]) == int(p.turn) {
			return rules.PositionError(text, "huff square %d does not hold a piece of the side that just moved", h)
		}
		if !g.f.huffs {
			return rules.PositionError(text, "%s has no huffing", g.id)
		}
		p.huff |= 1 << uint(s)
	}
	return nil
}

// lidraughtsClock reports whether a FEN section is one of the two lidraughts
// writes after the pieces, ":H0:F1" (the moves since the last capture or
// man move, and the move number): F and a number, or H and a number when
// the FEN has such an F section too (and the ruleset no huffs, or it is
// H0). They are read and ignored.
func (g *Game) lidraughtsClock(part string, parts []string) bool {
	number := func(p string, c byte) bool {
		if len(p) < 2 || p[0] != c {
			return false
		}
		for _, d := range p[1:] {
			if d < '0' || d > '9' {
				return false
			}
		}
		return true
	}
	if number(part, 'F') {
		return true
	}
	if !number(part, 'H') || g.f.huffs && part != "H0" {
		return false
	}
	for _, p := range parts {
		if number(p, 'F') {
			return true
		}
	}
	return false
}

// fenSquares reads one item of a FEN section, without its K: a square
// number, a range "31-35", or in the algebraic rulesets "c3"; lo and hi are
// square numbers (1-based).
func (g *Game) fenSquares(text, item string, maxBoard int) (lo, hi int, err error) {
	if g.f.algebraic && len(item) >= 2 && item[0] >= 'a' && item[0] <= 'z' {
		rank, err := strconv.Atoi(item[1:])
		if err != nil || item[1] == '+' || item[1] == '-' {
			return 0, 0, rules.PositionError(text, "%q is not a square", item)
		}
		sq := g.f.geo.algSquare(item[0], rank)
		if sq < 0 {
			return 0, 0, rules.PositionError(text, "%s is not a square of the %s board", item, g.f.geo.size())
		}
		return sq + 1, sq + 1, nil
	}
	if g.f.unnumbered {
		return 0, 0, rules.PositionError(text, "%q: %s names its squares a1–%c%d", item, g.id, 'a'+g.f.geo.w-1, g.f.geo.h)
	}
	l, h, ok := strings.Cut(item, "-")
	lo, err = strconv.Atoi(l)
	if err != nil || l == "" || l[0] == '+' {
		return 0, 0, rules.PositionError(text, "%q is not a square number", item)
	}
	hi = lo
	if ok {
		hi, err = strconv.Atoi(h)
		if err != nil || h == "" || h[0] == '+' || hi < lo {
			return 0, 0, rules.PositionError(text, "%q is not a square range", item)
		}
	}
	if lo < 1 || hi > maxBoard {
		return 0, 0, rules.PositionError(text, "square %s is not on the board (1–%d)", item, maxBoard)
	}
	return lo, hi, nil
}

// String writes the position as a PDN FEN: the side to move, then White's and
// Black's squares in ascending order, kings prefixed with K, runs of three or
// more consecutive squares holding the same kind written as ranges (a-b), no
// final dot; then the board size (":10x10") when it is not the ruleset's
// default (a 10×10 loup-moutons game), the Frisian counts (":R" king runs,
// ":E" a kings-only ending) when not 0, then ":H" and the huffable squares
// when a huff is possible.
func (p *Position) String() string {
	var b strings.Builder
	b.Grow(64)
	if p.turn == white {
		b.WriteString("W")
	} else {
		b.WriteString("B")
	}
	for side := 0; side < 2; side++ {
		if side == white {
			b.WriteString(":W")
		} else {
			b.WriteString(":B")
		}
		first := true
		n := p.geo.n
		for s := 0; s < n; {
			c := p.cell[s]
			if c == empty || sideOf(c) != side {
				s++
				continue
			}
			e := s
			for e+1 < n && p.cell[e+1] == c {
				e++
			}
			if e-s+1 < 3 || p.g.f.unnumbered {
				e = s
			}
			if !first {
				b.WriteByte(',')
			}
			first = false
			if isKing(c) {
				b.WriteByte('K')
			}
			if p.g.f.unnumbered {
				b.WriteString(p.geo.alg(s))
			} else {
				b.WriteString(strconv.Itoa(s + 1))
			}
			if e > s {
				b.WriteByte('-')
				b.WriteString(strconv.Itoa(e + 1))
			}
			s = e + 1
		}
	}
	if p.geo != p.g.f.geo {
		b.WriteString(":" + strconv.Itoa(p.geo.w) + "x" + strconv.Itoa(p.geo.h))
	}
	p.writeRuns(&b)
	p.writeEnd(&b)
	if p.huff != 0 {
		b.WriteString(":H")
		first := true
		for s := 0; s < p.geo.n; s++ {
			if p.huff&(1<<uint(s)) != 0 {
				if !first {
					b.WriteByte(',')
				}
				first = false
				b.WriteString(strconv.Itoa(s + 1))
			}
		}
	}
	return b.String()
}
