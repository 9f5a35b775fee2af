package dames

import (
	"math/bits"
	"strconv"
	"strings"

	"github.com/plateau/plateau/rules"
)

// maxPath bounds the squares a move text may list.
const maxPath = 32

// parsed is a move text read into squares.
type parsed struct {
	sq      [maxPath]int8 // 0-based squares
	n       int
	capture bool // written with x or :
	huff    bool
}

func syntaxErr(text, detail string) error {
	return &rules.MoveError{Text: text, Kind: rules.Syntax, Detail: detail}
}

func illegal(text, rule, detail string) error {
	return &rules.MoveError{Text: text, Kind: rules.Illegal, Rule: rule, Detail: detail}
}

// scan reads "32-28", "19x28", "19x28x37", "19:28", "H27" (spaces ignored,
// leading zeros allowed).
func (p *Position) scan(text string, out *parsed) error {
	i := 0
	skip := func() {
		for i < len(text) && (text[i] == ' ' || text[i] == '\t') {
			i++
		}
	}
	skip()
	if i < len(text) && (text[i] == 'H' || text[i] == 'h') {
		out.huff = true
		i++
	}
	sepKind := byte(0)
	for {
		skip()
		j := i
		v := 0
		for i < len(text) && text[i] >= '0' && text[i] <= '9' {
			if v < 1000 {
				v = v*10 + int(text[i]-'0')
			}
			i++
		}
		if i == j {
			if i < len(text) && text[i] >= 'a' && text[i] <= 'j' {
				return syntaxErr(text, "squares are numbers (PDN numeric notation), not letters")
			}
			return syntaxErr(text, "square number expected")
		}
		if v < 1 || v > p.geo.n {
			return syntaxErr(text, "no square "+strconv.Itoa(v)+" on the "+strconv.Itoa(p.geo.side)+"×"+strconv.Itoa(p.geo.side)+" board (1–"+strconv.Itoa(p.geo.n)+")")
		}
		if out.n == maxPath {
			return syntaxErr(text, "too many squares")
		}
		out.sq[out.n] = int8(v - 1)
		out.n++
		skip()
		if i == len(text) {
			break
		}
		if out.huff {
			return syntaxErr(text, "a huff names one square (H27)")
		}
		sep := text[i]
		switch sep {
		case '-':
		case 'x', 'X', ':':
			sep = 'x'
			out.capture = true
		default:
			return syntaxErr(text, "unexpected "+strconv.QuoteRune(rune(sep)))
		}
		if sepKind != 0 && sep != sepKind {
			return syntaxErr(text, "mixes - and x")
		}
		sepKind = sep
		i++
	}
	if !out.huff && out.n < 2 {
		return syntaxErr(text, "a move names at least two squares (32-28, 19x28)")
	}
	if !out.capture && out.n > 2 {
		return syntaxErr(text, "a step names two squares; captures use x")
	}
	return nil
}

// ParseMove reads a move: "32-28" (a step), "19x28" or "19:28" (a capture by
// origin and destination, resolved when only one legal capture matches),
// "19x28x37" (landing squares of the sequence, all or some), "H27" (a huff).
func (p *Position) ParseMove(text string) (rules.Move, error) {
	var ps parsed
	if err := p.scan(text, &ps); err != nil {
		return 0, err
	}
	if ps.huff {
		return p.parseHuff(text, int(ps.sq[0]))
	}
	from, to := int(ps.sq[0]), int(ps.sq[ps.n-1])
	c := p.cell[from]
	if c == empty {
		return 0, illegal(text, "empty square", "no piece on "+strconv.Itoa(from+1))
	}
	if sideOf(c) != int(p.turn) {
		return 0, illegal(text, "not your piece", strconv.Itoa(from+1)+" holds a piece of the side not to move")
	}
	if !ps.capture {
		m, err := p.parseStep(text, from, to, c)
		if err == nil {
			return m, nil
		}
		// A capture written with a hyphen is accepted when it is the only one.
		if caps := p.matchCaptures(&ps, nil); len(caps) == 1 {
			return caps[0], nil
		}
		return 0, err
	}
	m, err := p.parseCapture(text, &ps)
	if err != nil && ps.n == 2 && !p.anyCapture() {
		// A step written with x (a slip found in real PDN files) is read as
		// the step when nothing can be captured.
		if sm, serr := p.parseStep(text, from, to, c); serr == nil {
			return sm, nil
		}
	}
	return m, err
}

func (p *Position) parseHuff(text string, s int) (rules.Move, error) {
	if p.g.v == vDraughts || p.g.v == vLoup {
		return 0, illegal(text, "no huffing", p.g.id+" has no huffing: a capture is compulsory")
	}
	if p.huff == 0 {
		return 0, illegal(text, "huff", "the last move did not ignore a capture")
	}
	if p.huff&bit(s) == 0 {
		return 0, illegal(text, "huff", "the piece on "+strconv.Itoa(s+1)+" could not have captured (may huff: "+p.huffList()+")")
	}
	return rules.Move(uint64(s) | huffBit), nil
}

func (p *Position) huffList() string {
	var b strings.Builder
	for h := p.huff; h != 0; h &= h - 1 {
		if b.Len() > 0 {
			b.WriteString(", ")
		}
		b.WriteString("H" + strconv.Itoa(bits.TrailingZeros64(h)+1))
	}
	return b.String()
}

func (p *Position) parseStep(text string, from, to int, c int8) (rules.Move, error) {
	g := p.geo
	side := sideOf(c)
	for d := 0; d < 4; d++ {
		n := int(g.rayN[from][d])
		for i := 0; i < n; i++ {
			if int(g.ray[from][d][i]) != to {
				continue
			}
			if p.cell[to] != empty {
				return 0, illegal(text, "occupied square", strconv.Itoa(to+1)+" is occupied")
			}
			if !isKing(c) {
				if i > 0 {
					return 0, illegal(text, "one square", "a man moves one square")
				}
				if !forward(side, d) && !(p.g.v == vLoup && side == black) {
					return 0, illegal(text, "men move forward", "a man moves forward only (it captures backward)")
				}
			}
			for k := 0; k < i; k++ {
				if p.cell[g.ray[from][d][k]] != empty {
					return 0, illegal(text, "path blocked", "the king's path is blocked at "+strconv.Itoa(int(g.ray[from][d][k])+1))
				}
			}
			if p.g.v != vLoup && p.anyCapture() {
				if p.g.v == vDraughts {
					return 0, illegal(text, "capture is compulsory", "must capture: "+p.captureList())
				}
				return mkMove(from, to, 0) | rules.Move(faultBit), nil
			}
			return mkMove(from, to, 0), nil
		}
	}
	return 0, illegal(text, "not a diagonal move", strconv.Itoa(to+1)+" is not on a diagonal of "+strconv.Itoa(from+1))
}

// captureList is the legal captures, canonical, comma-separated.
func (p *Position) captureList() string {
	var buf [32]rules.Move
	ms := p.captures(buf[:0], p.g.v == vDraughts)
	parts := make([]string, 0, len(ms))
	for _, m := range ms {
		parts = append(parts, p.formatIn(m, ms))
	}
	return strings.Join(parts, ", ")
}

// matchCaptures lists the legal captures the text can mean: origin and
// destination match, and the listed intermediate squares are landing squares
// of the sequence in order. A sequence whose full path is exactly the text
// wins over partial matches.
func (p *Position) matchCaptures(ps *parsed, dst []rules.Move) []rules.Move {
	var buf [32]rules.Move
	legal := p.captures(buf[:0], p.g.v == vDraughts)
	from, to := int(ps.sq[0]), int(ps.sq[ps.n-1])
	start := len(dst)
	for _, m := range legal {
		if mFrom(m) == from && mTo(m) == to {
			dst = append(dst, m)
		}
	}
	if len(dst)-start == 0 || (ps.n == 2 && len(dst)-start == 1) {
		return dst
	}
	// Intermediate squares given: check them against the paths.
	paths := p.capturePaths(from, false)
	dst = dst[:start]
	var exact rules.Move
	for _, cp := range paths {
		if mTo(cp.move) != to || !containsMove(legal, cp.move) {
			continue
		}
		if len(cp.path) == ps.n && samePath(cp.path, ps.sq[:ps.n]) {
			exact = cp.move
		}
		if subsequence(ps.sq[1:ps.n-1], cp.path[1:len(cp.path)-1]) && !containsMove(dst[start:], cp.move) {
			dst = append(dst, cp.move)
		}
	}
	if exact != 0 {
		return append(dst[:start], exact)
	}
	return dst
}

func containsMove(ms []rules.Move, m rules.Move) bool {
	for _, x := range ms {
		if x == m {
			return true
		}
	}
	return false
}

func samePath(a []int8, b []int8) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func subsequence(want, in []int8) bool {
	j := 0
	for _, s := range in {
		if j < len(want) && want[j] == s {
			j++
		}
	}
	return j == len(want)
}

func (p *Position) parseCapture(text string, ps *parsed) (rules.Move, error) {
	if p.g.v == vLoup {
		return 0, illegal(text, "no captures", "nothing is captured in loup-moutons")
	}
	var buf [16]rules.Move
	ms := p.matchCaptures(ps, buf[:0])
	switch len(ms) {
	case 1:
		return ms[0], nil
	case 0:
	default:
		var all [32]rules.Move
		legal := p.captures(all[:0], p.g.v == vDraughts)
		cands := make([]string, len(ms))
		for i, m := range ms {
			cands[i] = p.formatIn(m, legal)
		}
		return 0, &rules.MoveError{Text: text, Kind: rules.Ambiguous, Candidates: cands}
	}
	from, to := int(ps.sq[0]), int(ps.sq[ps.n-1])
	if !p.anyCapture() {
		return 0, illegal(text, "no capture", "there is nothing to capture")
	}
	if p.g.v == vDraughts {
		var all [32]rules.Move
		for _, m := range p.captures(all[:0], false) {
			if mFrom(m) == from && mTo(m) == to {
				return 0, illegal(text, "majority capture", "the most pieces must be taken: "+p.captureList())
			}
		}
	}
	for _, cp := range p.capturePaths(from, true) {
		if cp.path[len(cp.path)-1] == int8(to) {
			return 0, illegal(text, "capture not completed", "the sequence must go on: "+p.captureList())
		}
	}
	return 0, illegal(text, "not a capture", "legal captures: "+p.captureList())
}

// FormatMove writes the canonical form: "32-28" for a step, "19x28" for a
// capture when no other legal capture has the same origin and destination,
// else the full path of landing squares "19x28x37"; "H27" for a huff.
func (p *Position) FormatMove(m rules.Move) string {
	if mHuff(m) {
		return "H" + strconv.Itoa(mFrom(m)+1)
	}
	if mCaps(m) == 0 {
		return strconv.Itoa(mFrom(m)+1) + "-" + strconv.Itoa(mTo(m)+1)
	}
	var buf [32]rules.Move
	return p.formatIn(m, p.captures(buf[:0], p.g.v == vDraughts))
}

func (p *Position) formatIn(m rules.Move, legal []rules.Move) string {
	from, to := mFrom(m), mTo(m)
	short := strconv.Itoa(from+1) + "x" + strconv.Itoa(to+1)
	for _, x := range legal {
		if x != m && mFrom(x) == from && mTo(x) == to {
			for _, cp := range p.capturePaths(from, false) {
				if cp.move == m {
					var b strings.Builder
					for i, s := range cp.path {
						if i > 0 {
							b.WriteByte('x')
						}
						b.WriteString(strconv.Itoa(int(s) + 1))
					}
					return b.String()
				}
			}
			return short
		}
	}
	return short
}

// Describe tells what a move does; a fault carries the Note the replay
// reports, a huff keeps the turn.
func (p *Position) Describe(m rules.Move) rules.MoveInfo {
	from := mFrom(m)
	if mHuff(m) {
		return rules.MoveInfo{From: strconv.Itoa(from + 1), Captures: 1, KeepsTurn: true}
	}
	to := mTo(m)
	info := rules.MoveInfo{From: strconv.Itoa(from + 1), To: strconv.Itoa(to + 1), Captures: popcount(mCaps(m))}
	if c := p.cell[from]; c != empty && !isKing(c) && p.g.v != vLoup && p.geo.farRow(to, sideOf(c)) {
		info.Promotes = true
	}
	if mFault(m) {
		info.Note = "fault: ignored a capture (" + p.captureList() + ")"
	}
	return info
}
