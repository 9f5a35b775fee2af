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
	err     error
}

// sepOrEnd reads the separator after a square: false at the end of the
// text or on an error (left in out.err).
func (p *Position) sepOrEnd(text string, i *int, out *parsed, sepKind *byte) bool {
	for *i < len(text) && (text[*i] == ' ' || text[*i] == '\t') {
		*i++
	}
	if *i == len(text) {
		return false
	}
	if out.huff {
		out.err = syntaxErr(text, "a huff names one square (H27)")
		return false
	}
	sep := text[*i]
	if p.algAt(text, *i) {
		// PDN: "In alpha-numeric moves the separator may be omitted, so
		// a3b4 is allowed." The move is then a step or, when no step
		// matches, the one capture between the squares.
		return true
	}
	switch sep {
	case '-':
	case 'x', 'X', ':':
		sep = 'x'
		out.capture = true
	default:
		out.err = syntaxErr(text, "unexpected "+strconv.QuoteRune(rune(sep)))
		return false
	}
	if *sepKind != 0 && sep != *sepKind {
		out.err = syntaxErr(text, "mixes - and x")
		return false
	}
	*sepKind = sep
	*i++
	return true
}

// algAt reports whether text holds an algebraic square at i (a file letter
// of the board and a rank digit) in a ruleset that writes them.
func (p *Position) algAt(text string, i int) bool {
	return p.g.f.algebraic && i+1 < len(text) && text[i] >= 'a' && int(text[i]-'a') < p.geo.w && text[i+1] >= '1' && text[i+1] <= '9'
}

func syntaxErr(text, detail string) error {
	return &rules.MoveError{Text: text, Kind: rules.Syntax, Detail: detail}
}

func illegal(text, rule, detail string) error {
	return &rules.MoveError{Text: text, Kind: rules.Illegal, Rule: rule, Detail: detail}
}

// scan reads "32-28", "19x28", "19x28x37", "19:28", "H27" (spaces ignored,
// leading zeros allowed), and in the algebraic families "c3-d4", "c3xe5",
// "c3d4" (PDN lets an alpha-numeric move omit its separator).
func (p *Position) scan(text string, out *parsed) error {
	i := 0
	skip := func() {
		for i < len(text) && (text[i] == ' ' || text[i] == '\t') {
			i++
		}
	}
	skip()
	if i < len(text) && (text[i] == 'H' || (text[i] == 'h' && !p.g.f.algebraic)) {
		out.huff = true
		i++
	}
	sepKind := byte(0)
	for {
		skip()
		if p.algAt(text, i) {
			sq := p.geo.algSquare(text[i], int(text[i+1]-'0'))
			if sq < 0 {
				return syntaxErr(text, text[i:i+2]+" is not a square of the "+p.geo.size()+" board")
			}
			if out.n == maxPath {
				return syntaxErr(text, "too many squares")
			}
			out.sq[out.n] = int8(sq)
			out.n++
			i += 2
			if !p.sepOrEnd(text, &i, out, &sepKind) {
				break
			}
			continue
		}
		j := i
		v := 0
		for i < len(text) && text[i] >= '0' && text[i] <= '9' {
			if v < 1000 {
				v = v*10 + int(text[i]-'0')
			}
			i++
		}
		if i == j {
			if i < len(text) && text[i] >= 'a' && text[i] <= 'z' {
				if p.g.f.algebraic {
					return syntaxErr(text, "a square is a file letter and a rank (c3) or a PDN number; a short move is a file and a square (ed4)")
				}
				return syntaxErr(text, "squares are numbers (PDN numeric notation), not letters")
			}
			return syntaxErr(text, "square number expected")
		}
		if p.g.f.unnumbered {
			return syntaxErr(text, p.g.id+" names its squares a1–"+p.geo.alg(int(p.geo.at[0][p.geo.w-1]))+", not by numbers")
		}
		if v < 1 || v > p.geo.n {
			return syntaxErr(text, "no square "+strconv.Itoa(v)+" on the "+p.geo.size()+" board (1–"+strconv.Itoa(p.geo.n)+")")
		}
		if out.n == maxPath {
			return syntaxErr(text, "too many squares")
		}
		out.sq[out.n] = int8(v - 1)
		out.n++
		if !p.sepOrEnd(text, &i, out, &sepKind) {
			break
		}
	}
	if out.err != nil {
		return out.err
	}
	if !out.huff && out.n < 2 {
		return syntaxErr(text, "a move names at least two squares (32-28, 19x28)")
	}
	if !out.capture && out.n > 2 {
		if p.g.f.capSep != '-' {
			return syntaxErr(text, "a step names two squares; captures use x")
		}
		out.capture = true // a capture path written with PDN's Thai separator
	}
	return nil
}

// ParseMove reads a move: "32-28" (a step), "19x28" or "19:28" (a capture by
// origin and destination, resolved when only one legal capture matches),
// "19x28x37" (landing squares of the sequence, all or some), "H27" (a huff),
// and in the algebraic rulesets the short notation "ed4" (short.go).
func (p *Position) ParseMove(text string) (rules.Move, error) {
	if p.isShort(text) {
		return p.parseShort(text)
	}
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
		return 0, illegal(text, "empty square", "no piece on "+p.sqName(from))
	}
	if sideOf(c) != int(p.turn) {
		return 0, illegal(text, "not your piece", p.sqName(from)+" holds a piece of the side not to move")
	}
	if !ps.capture && p.g.f.capSep == '-' && p.anyCapture() {
		ps.capture = true // a capture written with PDN's Thai separator
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
	if !p.g.f.huffs {
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
	f := &p.g.f
	lines := f.kingMove | f.kingCap | f.manMove[0] | f.manMove[1] | f.manCap[0] | f.manCap[1]
	for ds := lines; ds != 0; {
		d := nextDir(&ds)
		n := int(g.rayN[from][d])
		for i := 0; i < n; i++ {
			if int(g.ray[from][d][i]) != to {
				continue
			}
			if p.cell[to] != empty {
				return 0, illegal(text, "occupied square", p.sqName(to)+" is occupied")
			}
			if !isKing(c) && i > 0 {
				return 0, illegal(text, "one square", "a man moves one square")
			}
			if f.moveDirs(c)&(1<<d) == 0 {
				return 0, p.wrongDirection(text, c, d)
			}
			if i > 0 && !f.flying {
				return 0, illegal(text, "one square", "a king moves one square in "+p.g.id)
			}
			if isKing(c) && p.runOut(from) {
				return 0, illegal(text, "king moves", "this king has made "+strconv.Itoa(int(f.kingRun))+" moves in a row: it may capture, or another piece moves")
			}
			for k := 0; k < i; k++ {
				if p.cell[g.ray[from][d][k]] != empty {
					return 0, illegal(text, "path blocked", "the king's path is blocked at "+p.sqName(int(g.ray[from][d][k])))
				}
			}
			if p.anyCapture() {
				if !f.huffs {
					return 0, illegal(text, "capture is compulsory", "must capture: "+p.captureList())
				}
				return p.mkMove(from, to, sqset{}) | rules.Move(faultBit), nil
			}
			return p.mkMove(from, to, sqset{}), nil
		}
	}
	return 0, illegal(text, p.lineRule(), p.sqName(to)+" is not on a line of "+p.sqName(from))
}

// wrongDirection is the error of a step in direction d, which the piece c
// does not move in.
func (p *Position) wrongDirection(text string, c int8, d int) error {
	f := &p.g.f
	rule := p.lineRule()
	switch {
	case isKing(c):
		return illegal(text, rule, "a king moves along the "+dirNames(f.kingMove)+" only")
	case forward(sideOf(c), d) || d == left || d == right:
		return illegal(text, rule, "a man moves "+dirNames(f.manMove[white]))
	case f.manMove[white]&sideways != 0:
		return illegal(text, "men move forward", "a man moves forward or sideways")
	case f.manCap[sideOf(c)]&(1<<d) != 0 || p.g.v != vFamily: // (the wording the Schmidt games and loup-moutons always had)
		return illegal(text, "men move forward", "a man moves forward only (it captures backward)")
	}
	return illegal(text, "men move forward", "a man moves forward only")
}

// lineRule names the rule a step off the piece's lines breaks.
func (p *Position) lineRule() string {
	if p.g.f.kingMove&diagonals == 0 {
		return "not an orthogonal move"
	}
	return "not a diagonal move"
}

// dirNames describes a set of directions (White's, for men).
func dirNames(ds dirSet) string {
	switch ds {
	case diagonals:
		return "diagonals"
	case orthogonals:
		return "rows and columns"
	case diagonals & upward:
		return "diagonally forward"
	case 1<<up | sideways:
		return "forward or sideways"
	}
	return "lines it may take"
}

// captureList is the legal captures, canonical, comma-separated.
func (p *Position) captureList() string {
	var buf [32]rules.Move
	ms := p.captures(buf[:0], true)
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
	legal := p.captures(buf[:0], true)
	from, to := int(ps.sq[0]), int(ps.sq[ps.n-1])
	start := len(dst)
	for _, m := range legal {
		if p.mFrom(m) == from && p.mTo(m) == to {
			dst = append(dst, m)
		}
	}
	if len(dst)-start == 0 || (ps.n == 2 && len(dst)-start == 1) {
		return dst
	}
	// Intermediate squares given: check them against the paths.
	paths := p.capturePaths(from, false, false)
	dst = dst[:start]
	var exact rules.Move
	for _, cp := range paths {
		if p.mTo(cp.move) != to || !containsMove(legal, cp.move) {
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
		legal := p.captures(all[:0], true)
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
	if p.g.f.prec != precFree {
		var all [32]rules.Move
		for _, m := range p.captures(all[:0], false) {
			if p.mFrom(m) == from && p.mTo(m) == to {
				if p.g.f.prec == precMajority {
					return 0, illegal(text, "majority capture", "the most pieces must be taken: "+p.captureList())
				}
				return 0, illegal(text, "capture precedence", p.precedenceRule()+": "+p.captureList())
			}
		}
	}
	for _, cp := range p.capturePaths(from, true, false) {
		if cp.path[len(cp.path)-1] == int8(to) {
			return 0, illegal(text, "capture not completed", "the sequence must go on: "+p.captureList())
		}
	}
	for _, cp := range p.capturePaths(from, true, true) {
		if cp.path[len(cp.path)-1] == int8(to) {
			return 0, illegal(text, "capture not completed", "a king must land where its capture goes on: "+p.captureList())
		}
	}
	return 0, illegal(text, "not a capture", "legal captures: "+p.captureList())
}

// FormatMove writes the canonical form: "32-28" for a step, "19x28" for a
// capture when no other legal capture has the same origin and destination,
// else the full path of landing squares "19x28x37"; "H27" for a huff.
func (p *Position) FormatMove(m rules.Move) string {
	if mHuff(m) {
		return "H" + strconv.Itoa(p.mFrom(m)+1)
	}
	if p.mCaps(m).empty() {
		return p.sqName(p.mFrom(m)) + "-" + p.sqName(p.mTo(m))
	}
	var buf [32]rules.Move
	return p.formatIn(m, p.captures(buf[:0], true))
}

func (p *Position) formatIn(m rules.Move, legal []rules.Move) string {
	from, to := p.mFrom(m), p.mTo(m)
	sep := string(p.g.f.capSep)
	short := p.sqName(from) + sep + p.sqName(to)
	for _, x := range legal {
		if x != m && p.mFrom(x) == from && p.mTo(x) == to {
			for _, cp := range p.capturePaths(from, false, false) {
				if cp.move == m {
					var b strings.Builder
					for i, s := range cp.path {
						if i > 0 {
							b.WriteString(sep)
						}
						b.WriteString(p.sqName(int(s)))
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
	from := p.mFrom(m)
	if mHuff(m) {
		return rules.MoveInfo{From: strconv.Itoa(from + 1), Captures: 1, KeepsTurn: true}
	}
	to := p.mTo(m)
	info := rules.MoveInfo{From: p.sqName(from), To: p.sqName(to), Captures: p.mCount(m)}
	if c := p.cell[from]; c != empty && p.crowns(m, c) {
		info.Promotes = true
	}
	if mFault(m) {
		info.Note = "fault: ignored a capture (" + p.captureList() + ")"
	}
	return info
}

// precedenceRule says which capture the ruleset's precedence requires.
func (p *Position) precedenceRule() string {
	switch p.g.f.prec {
	case precKing:
		return "a king must capture when it can"
	case precQuality:
		return "the most pieces, then the most kings"
	case precValue:
		return "the most value (a king a little less than two men), then with a king"
	}
	return "the most pieces, then with a king, then the most kings, then kings taken first"
}
