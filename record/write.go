package record

import (
	"crypto/sha256"
	"io"
	"strconv"
	"strings"
)

// Width is the column at which the Writer wraps movetext lines.
const Width = 80

// tagOrder is the canonical order of the tags that come first.
var tagOrder = []string{
	"Game", "Event", "Site", "Date", "Round",
	"Sente", "Gote", "White", "Black", "Orange",
	"Result", "FEN", "SetUp",
}

// tagRank is name's index in tagOrder, or -1 (a switch: AppendFormat ranks
// every tag of every game).
func tagRank(name string) int {
	switch name {
	case "Game":
		return 0
	case "Event":
		return 1
	case "Site":
		return 2
	case "Date":
		return 3
	case "Round":
		return 4
	case "Sente":
		return 5
	case "Gote":
		return 6
	case "White":
		return 7
	case "Black":
		return 8
	case "Orange":
		return 9
	case "Result":
		return 10
	case "FEN":
		return 11
	case "SetUp":
		return 12
	}
	return -1
}

// Write writes g in canonical form to w.
func Write(w io.Writer, g *Game) error {
	_, err := w.Write(Format(g))
	return err
}

// Hash is the SHA-256 of the canonical form of g: two games with the same
// hash have the same tags, moves, comments, NAGs, variations and result.
func Hash(g *Game) [32]byte {
	return sha256.Sum256(Format(g))
}

// ResultOf is the result the canonical form writes in g's movetext: the
// Result tag when it is a termination marker, else the movetext result,
// else "*".
func ResultOf(g *Game) string {
	for _, t := range g.Tags {
		if t.Name == "Result" {
			if IsResult(t.Value) {
				return t.Value
			}
			return "*"
		}
	}
	if IsResult(g.Result) {
		return g.Result
	}
	return "*"
}

// Format returns the canonical form of g:
//
//   - one tag pair per line: Game, Event, Site, Date, Round, the player tags
//     Sente, Gote, White, Black, Orange (the two of Game.Sides in that
//     order, when it is set), then Result, FEN, SetUp (each as present; a
//     missing Result tag is written with the movetext's result), then every
//     other tag in the order read; values escape '\' and '"';
//   - an empty line, then the movetext wrapped at 80 columns (a longer token
//     stands alone on its line), ending with the result, then an empty line;
//   - move numbers from Move.Ply: "N." before a move of even Ply (N =
//     Ply/2+1) unless the move before it had the same Ply, "N..." before a
//     move of odd Ply that starts a line or variation or follows a comment or
//     a variation;
//   - comments in braces with white space collapsed; a comment holding '{'
//     or '}' is written as a ';' comment to the end of the line (its line breaks,
//     if any, become spaces);
//   - NAGs as $n, variations in parentheses after the move they replace;
//   - a line break after a move written as digits and a trailing '-', 'x'
//     or ':' ("47x"), which would otherwise join the next token.
func Format(g *Game) []byte { return AppendFormat(nil, g) }

// AppendFormat appends the canonical form of g (Format) to b.
func AppendFormat(b []byte, g *Game) []byte {
	hasResult := false
	// Each tag's rank in tagOrder, found once (not a name comparison
	// per ordered name and tag).
	var rankBuf [24]int8
	ranks := rankBuf[:0]
	if len(g.Tags) > len(rankBuf) {
		ranks = make([]int8, 0, len(g.Tags))
	}
	// Player tags in the game's side order: when Sides names them against
	// the canonical order, they exchange ranks.
	first, second := tagRank(g.Sides[0]), tagRank(g.Sides[1])
	swap := first > second && second >= tagRank("Sente") && first <= tagRank("Orange")
	for _, t := range g.Tags {
		r := tagRank(t.Name)
		switch {
		case swap && r == first:
			r = second
		case swap && r == second:
			r = first
		}
		ranks = append(ranks, int8(r))
	}
	for r, name := range tagOrder {
		for i, t := range g.Tags {
			if int(ranks[i]) == r {
				b = appendTag(b, t)
				if name == "Result" {
					hasResult = true
				}
			}
		}
		if name == "Result" && !hasResult {
			r := g.Result
			if !IsResult(r) {
				r = "*"
			}
			b = appendTag(b, Tag{"Result", r})
		}
	}
	for i, t := range g.Tags {
		if ranks[i] < 0 {
			b = appendTag(b, t)
		}
	}
	b = append(b, '\n')
	w := &textWriter{b: b}
	for _, c := range g.Intro {
		w.comment(c)
	}
	w.line(g.Moves)
	w.token(ResultOf(g))
	w.b = append(w.b, '\n', '\n')
	return w.b
}

func appendTag(b []byte, t Tag) []byte {
	b = append(b, '[')
	b = append(b, t.Name...)
	b = append(b, ' ', '"')
	// The bytes up to the first to escape (all of most values) in one copy.
	v := t.Value
	k := 0
	for k < len(v) && v[k] != '\\' && v[k] != '"' && v[k] != '\n' && v[k] != '\r' {
		k++
	}
	b = append(b, v[:k]...)
	v = v[k:]
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch c {
		case '\\', '"':
			b = append(b, '\\', c)
		case '\n', '\r':
			b = append(b, ' ')
		default:
			b = append(b, c)
		}
	}
	return append(b, '"', ']', '\n')
}

// textWriter lays out movetext tokens in lines of at most Width bytes.
type textWriter struct {
	b    []byte
	col  int  // bytes on the current line
	glue bool // the next token follows without a space ('(')
	brk  bool // the next token starts a new line (after a ';' comment)
}

func (w *textWriter) token(s string) {
	if !w.brk && !w.glue && w.col > 0 && w.col+1+len(s) <= Width {
		// Most tokens: a space, then s on the same line.
		w.b = append(w.b, ' ')
		w.b = append(w.b, s...)
		w.col += 1 + len(s)
		return
	}
	w.tokenGlue(s, false)
}

// tokenGlue writes s; glued tokens (')') follow the previous one without a
// space when they fit.
func (w *textWriter) tokenGlue(s string, glued bool) {
	n := len(s)
	switch {
	case w.brk:
		w.b = append(w.b, '\n')
		w.col = 0
		w.brk = false
	case w.col == 0:
	case w.glue || glued:
		if w.col+n > Width {
			w.b = append(w.b, '\n')
			w.col = 0
		}
	case w.col+1+n > Width:
		w.b = append(w.b, '\n')
		w.col = 0
	default:
		w.b = append(w.b, ' ')
		w.col++
	}
	w.glue = false
	if w.col == 0 && len(s) > 0 && s[0] == '%' {
		// Not an escape line: keep '%' off column 1.
		w.b = append(w.b, ' ')
		w.col++
	}
	w.b = append(w.b, s...)
	w.col += n
}

func (w *textWriter) comment(c string) {
	if strings.ContainsAny(c, "{}") {
		c = strings.Map(func(r rune) rune {
			if r == '\n' || r == '\r' {
				return ' '
			}
			return r
		}, c)
		w.token(";" + c)
		w.brk = true
		return
	}
	// Split on ASCII white space only, as the Reader collapses it: the
	// first word is written after '{', the last before '}'.
	open := "{"
	for {
		k := 0
		for k < len(c) && isBlank(c[k]) {
			k++
		}
		c = c[k:]
		k = 0
		for k < len(c) && !isBlank(c[k]) {
			k++
		}
		word := c[:k]
		c = c[k:]
		rest := 0
		for rest < len(c) && isBlank(c[rest]) {
			rest++
		}
		if rest == len(c) {
			w.tokenOf(open, word, "}")
			return
		}
		w.tokenOf(open, word, "")
		open = ""
	}
}

func isBlank(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'
}

// tokenOf writes the token a+s+z, as token(a + s + z) would, without
// making the string.
func (w *textWriter) tokenOf(a, s, z string) {
	n := len(a) + len(s) + len(z)
	if n == 0 || w.brk || w.glue || w.col == 0 || w.col+1+n > Width {
		w.token(a + s + z)
		return
	}
	w.b = append(w.b, ' ')
	w.b = append(w.b, a...)
	w.b = append(w.b, s...)
	w.b = append(w.b, z...)
	w.col += 1 + n
}

// moveNumbers[0][n-1] is "n." and moveNumbers[1][n-1] "n...", for the
// move numbers of most games.
var moveNumbers = func() (t [2][300]string) {
	for i := range t[0] {
		t[0][i] = strconv.Itoa(i+1) + "."
		t[1][i] = strconv.Itoa(i+1) + "..."
	}
	return t
}()

func moveNumber(ply int, black bool) string {
	if k := ply / 2; k >= 0 && k < len(moveNumbers[0]) {
		if black {
			return moveNumbers[1][k]
		}
		return moveNumbers[0][k]
	}
	n := strconv.Itoa(ply/2 + 1)
	if black {
		return n + "..."
	}
	return n + "."
}

// openMove reports a move text of digits and a trailing '-', 'x' or ':'
// ("47x"), which the Reader joins with digits after blanks on its line.
func openMove(s string) bool {
	n := len(s)
	if n < 2 || (s[n-1] != '-' && s[n-1] != 'x' && s[n-1] != ':') {
		return false
	}
	for i := 0; i < n-1; i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// nags are the texts of the NAGs $0 to $255.
var nags = func() (t [256]string) {
	for i := range t {
		t[i] = "$" + strconv.Itoa(i)
	}
	return t
}()

// nag writes the NAG n.
func (w *textWriter) nag(n int) {
	if n >= 0 && n < len(nags) {
		w.token(nags[n])
		return
	}
	w.token("$" + strconv.Itoa(n))
}

// line writes a line of moves: the main line or a variation.
func (w *textWriter) line(l Line) {
	needNum := true // a move of odd ply needs its number
	prevPly := -1
	for i, m := range l {
		for _, c := range m.Before {
			w.comment(c)
			needNum = true
		}
		switch {
		case m.Ply%2 == 0 && (i == 0 || m.Ply != prevPly):
			w.token(moveNumber(m.Ply, false))
		case m.Ply%2 != 0 && needNum:
			w.token(moveNumber(m.Ply, true))
		}
		w.token(m.Text)
		if openMove(m.Text) {
			// "47x" then "9": the Reader would join them into
			// one move ("47x 9", as some collections align
			// squares) unless a line break parts them.
			w.brk = true
		}
		prevPly = m.Ply
		needNum = false
		for _, n := range m.NAGs {
			w.nag(n)
		}
		for _, c := range m.After {
			w.comment(c)
			needNum = true
		}
		for _, v := range m.Variations {
			w.token("(")
			w.glue = true
			w.line(v)
			w.tokenGlue(")", true)
			needNum = true
		}
	}
}

// WritePDN writes g to w in PDN 3.0 form (FormatPDN).
func WritePDN(w io.Writer, g *Game) error {
	_, err := w.Write(PDN(Format(g)))
	return err
}

// FormatPDN returns g as PDN 3.0 writes it (the grammar of the PDN
// standard, docs/records.md): the canonical form (Format), but each game
// ends with the game separator '*' where the canonical form writes its
// result, since PDN 3.0 has no result token in the movetext; the result is
// in the Result tag, which the canonical form always writes. Reading it
// back gives the same canonical form.
func FormatPDN(g *Game) []byte { return PDN(Format(g)) }

// PDN turns one game in canonical form (Format's output, as the database
// stores it) into PDN 3.0 form (FormatPDN): the result token that
// ends its movetext becomes '*'. Text that does not end with a result token
// is returned as it is.
func PDN(text []byte) []byte {
	end := len(text)
	for end > 0 && (text[end-1] == '\n' || text[end-1] == '\r' || text[end-1] == ' ') {
		end--
	}
	start := end
	for start > 0 && text[start-1] != ' ' && text[start-1] != '\n' {
		start--
	}
	res := string(text[start:end])
	if res == "*" || !IsResult(res) || start == 0 {
		return text
	}
	out := append(text[:start:start], '*')
	return append(out, text[end:]...)
}
