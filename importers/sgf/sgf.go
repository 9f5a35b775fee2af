// Package sgf reads SGF game collections (FF[1] to FF[4]) into record games,
// leaving the choice of rules to the caller (the SGF GM property is kept),
// and writes record games as Plateau's SGF (Write), which it reads back as
// the same games: a root with a GAME property or AP[Plateau] is read as
// plateau.go says (docs/sgf.md); the decisions below are for other SGF.
//
// Decisions:
//   - Property identifiers keep only their upper-case letters, so the FF[1]-
//     style long names work (PlayerBlack → PB, GaMe → GM, Black → B).
//   - Values: '\' escapes the next character; an escaped line break is
//     removed (soft line break). Comments have their white space collapsed
//     as the record reader does.
//   - Root properties become tags: EV Event, PC Site, DT Date (YYYY-MM-DD is
//     written YYYY.MM.DD), RO Round, PB Black, PW White, RE Result (B+… is
//     1-0 and W+… 0-1, Black first, the Go side order; 0, Draw and Jigo are
//     1/2-1/2; anything else *) with the original in SGFResult, GM in
//     SGFGame (SGF's default "1", Go, when the root has none: every SGF game
//     says its game type, so that replay never reads it under a default
//     ruleset), and every other root property as SGF_<ID> (values joined by
//     ','), except C, which is the game's intro comment. A property
//     repeated in the root (SGF allows one of each in a node) counts once:
//     the first; GM[] empty is Go, GM[1], as no GM.
//   - A move B[xy] / W[xy] is the move text "B:xy" / "W:xy" ("B:pass" for an
//     empty value or tt). A node's C comment goes after its move, or to the
//     next move's Before when the node has none (the Intro before the first
//     move). Other node properties are ignored.
//   - The first child of a node continues its line; other children are
//     Variations of the first child's first move, as in the record model.
//   - A whole file is read into memory (SGF files are small); each game of a
//     collection is returned in turn. Errors are *record.Error (ErrSyntax).
//     Positions are the record reader's: Line and Col (bytes) are 1-based,
//     Offset is the byte offset in the file; a UTF-8 BOM is skipped, no
//     column, but its 3 bytes count in offsets.
//   - A game tree is one record, whatever its size or depth: after a syntax
//     error in it the reader skips to its closing ')' (values and nested
//     trees counted), so that no nested tree is read as a game of its own.
//   - Limits as in the record reader: a game tree of more than the record
//     size limit (SetMaxRecord, 4 MiB by default) or one node or property
//     per 32 of those bytes is reported at its start ("record larger than
//     4 MiB", "record of more than 131072 moves, comments and other
//     tokens") and skipped whole; variations nest at most record.MaxDepth
//     (512) deep (deeper is an error at the game tree that passes it). Game
//     trees with one child each (a main line written as nested trees) nest
//     as deep as those limits let them: such a tree is read as one line.
//   - Every text is valid UTF-8 (record.Decode): a value that holds UTF-8
//     has its invalid bytes replaced by U+FFFD and the game a warning
//     naming the first property concerned; a value without any UTF-8
//     character is read as Windows-1252, as the record reader reads such a
//     line. Tag values hold no line break (one is a space), so that the
//     canonical form reads back the same. A move value keeps the bytes a move token cannot hold (blanks,
//     brackets, braces, parentheses, quotes, ';', '$', '%', '!', '?', '*'
//     and control bytes) as %XX: B[a b] is the move "B:a%20b".
package sgf

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/plateau/plateau/record"
)

// MaxSize is the largest SGF file Read accepts.
const MaxSize = 64 << 20

// ErrTooLarge is returned for a file over MaxSize.
var ErrTooLarge = errors.New("sgf: file too large")

type prop struct {
	id   string
	vals []string
	pos  record.Pos
}

type node struct {
	props []prop
	pos   record.Pos
}

type tree struct {
	nodes    []*node
	children []*tree
	pos      record.Pos
}

// Reader returns the games of an SGF collection one by one.
type Reader struct {
	p    parser
	done bool
	max  int64 // size limit of a game tree
}

// SetMaxRecord sets the size limit of a game (record.Reader.SetMaxRecord;
// n <= 0 means record.DefaultMaxRecord).
func (r *Reader) SetMaxRecord(n int64) {
	if n <= 0 {
		n = record.DefaultMaxRecord
	}
	r.max = n
}

// NewReader reads all of src (at most MaxSize bytes) and returns a Reader
// of its games; filename is used in positions.
func NewReader(src io.Reader, filename string) (*Reader, error) {
	data, err := io.ReadAll(io.LimitReader(src, MaxSize+1))
	if err != nil {
		return nil, err
	}
	if len(data) > MaxSize {
		return nil, ErrTooLarge
	}
	// The BOM is no column, but it is 3 bytes of the file: offsets are
	// the file's (as record.Reader's).
	var base int64
	if rest, ok := bytes.CutPrefix(data, []byte("\xef\xbb\xbf")); ok {
		data, base = rest, 3
	}
	return &Reader{p: parser{data: data, base: base, file: filename, line: 1, col: 1}, max: record.DefaultMaxRecord}, nil
}

// Next returns the next game, or io.EOF. After a syntax error (an
// *record.Error) it goes on with the next game tree of the collection.
func (r *Reader) Next() (*record.Game, error) {
	p := &r.p
	if r.done {
		return nil, io.EOF
	}
	// Find the next "(" at the top level; text between games is ignored.
	for p.i < len(p.data) && p.data[p.i] != '(' {
		p.advance()
	}
	if p.i >= len(p.data) {
		r.done = true
		return nil, io.EOF
	}
	t, err := p.gameTree(r.max)
	switch {
	case err == nil:
		return convert(t) // an error here is after the tree
	case t != nil:
		return &record.Game{Pos: t.pos}, err // the tree was skipped whole
	}
	return nil, err
}

// ReadAll returns every game of an SGF collection, stopping at the first
// error.
func ReadAll(src io.Reader, filename string) ([]*record.Game, error) {
	r, err := NewReader(src, filename)
	if err != nil {
		return nil, err
	}
	var gs []*record.Game
	for {
		g, err := r.Next()
		if errors.Is(err, io.EOF) {
			return gs, nil
		}
		if err != nil {
			return gs, err
		}
		gs = append(gs, g)
	}
}

type parser struct {
	data      []byte
	i         int
	base      int64 // the file offset of data[0] (after a BOM)
	file      string
	line, col int
}

func (p *parser) pos() record.Pos {
	return record.Pos{File: p.file, Line: p.line, Col: p.col, Offset: p.base + int64(p.i)}
}

func (p *parser) advance() {
	if p.data[p.i] == '\n' {
		p.line++
		p.col = 1
	} else {
		p.col++
	}
	p.i++
}

func (p *parser) peekSemicolon() bool {
	j := p.i + 1
	for j < len(p.data) && isSpace(p.data[j]) {
		j++
	}
	return j < len(p.data) && p.data[j] == ';'
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'
}

func (p *parser) skipSpace() {
	for p.i < len(p.data) && isSpace(p.data[p.i]) {
		p.advance()
	}
}

func (p *parser) errorf(at record.Pos, format string, a ...any) error {
	return &record.Error{Pos: at, Msg: fmt.Sprintf(format, a...)}
}

// gameTree parses "(" Sequence GameTree* ")" with an explicit stack, so
// that deep nesting does not exhaust the Go stack. A game tree is one record
// however deep it nests: it is bounded by its size only.
//
// A tree over max bytes, or one node or property per
// record.TokensPerByte of them, is skipped to its end and reported with
// record.TooLarge or record.TooManyTokens (root is then its opening only). After a syntax error the tree is skipped to its end too,
// so that no part of it is read as a game of its own; root is then its
// opening, or nil when there is none.
func (p *parser) gameTree(max int64) (root *tree, err error) {
	var stack []*tree
	defer func() {
		if err != nil {
			p.skipTree(len(stack))
			if root != nil {
				root = &tree{pos: root.pos}
			}
		}
	}()
	start, nodes := p.i, int64(0)
	for {
		switch {
		case root == nil:
		case int64(p.i-start) > max:
			return root, record.TooLarge(root.pos, max)
		case nodes > max/record.TokensPerByte:
			return root, record.TooManyTokens(root.pos, max)
		}
		p.skipSpace()
		if p.i >= len(p.data) {
			if len(stack) > 0 {
				return root, p.errorf(stack[len(stack)-1].pos, "game tree '(' not closed")
			}
			return root, nil
		}
		switch c := p.data[p.i]; c {
		case '(':
			t := &tree{pos: p.pos()}
			p.advance()
			if len(stack) == 0 {
				root = t
			} else {
				parent := stack[len(stack)-1]
				parent.children = append(parent.children, t)
			}
			stack = append(stack, t)
			p.skipSpace()
			if p.i >= len(p.data) || p.data[p.i] != ';' {
				return root, p.errorf(p.pos(), "';' expected after '('")
			}
		case ')':
			if len(stack) == 0 {
				return root, p.errorf(p.pos(), "unexpected ')'")
			}
			p.advance()
			stack = stack[:len(stack)-1]
			if len(stack) == 0 {
				return root, nil
			}
		case ';':
			if len(stack) == 0 {
				return root, p.errorf(p.pos(), "node outside a game tree")
			}
			t := stack[len(stack)-1]
			if len(t.children) > 0 {
				return root, p.errorf(p.pos(), "node after a variation")
			}
			n, err := p.node()
			if err != nil {
				return root, err
			}
			t.nodes = append(t.nodes, n)
			nodes += int64(1 + len(n.props))
		default:
			return root, p.errorf(p.pos(), "unexpected %q", c)
		}
	}
}

// skipTree skips to the end of the game tree open depth deep, values
// included, without holding anything.
func (p *parser) skipTree(depth int) {
	for p.i < len(p.data) && depth > 0 {
		switch p.data[p.i] {
		case '(':
			depth++
		case ')':
			depth--
		case '[':
			p.advance()
			for p.i < len(p.data) && p.data[p.i] != ']' {
				if p.data[p.i] == '\\' && p.i+1 < len(p.data) {
					p.advance()
				}
				p.advance()
			}
			if p.i >= len(p.data) {
				return
			}
		}
		p.advance()
	}
}

// node parses ";" Property*.
func (p *parser) node() (*node, error) {
	n := &node{pos: p.pos()}
	p.advance() // ';'
	for {
		p.skipSpace()
		if p.i >= len(p.data) {
			return n, nil
		}
		c := p.data[p.i]
		if !(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z') {
			return n, nil
		}
		at := p.pos()
		var id []byte
		for p.i < len(p.data) && (p.data[p.i] >= 'A' && p.data[p.i] <= 'Z' || p.data[p.i] >= 'a' && p.data[p.i] <= 'z') {
			if p.data[p.i] <= 'Z' {
				id = append(id, p.data[p.i])
			}
			p.advance()
		}
		if len(id) == 0 {
			return nil, p.errorf(at, "property identifier without upper-case letter")
		}
		pr := prop{id: string(id), pos: at}
		for {
			p.skipSpace()
			if p.i >= len(p.data) || p.data[p.i] != '[' {
				break
			}
			v, err := p.value()
			if err != nil {
				return nil, err
			}
			pr.vals = append(pr.vals, v)
		}
		if len(pr.vals) == 0 {
			return nil, p.errorf(at, "property %s without a value", pr.id)
		}
		n.props = append(n.props, pr)
	}
}

// value parses "[" text "]" with escapes.
func (p *parser) value() (string, error) {
	open := p.pos()
	p.advance()
	var b []byte
	for p.i < len(p.data) {
		c := p.data[p.i]
		switch c {
		case ']':
			p.advance()
			return string(b), nil
		case '\\':
			p.advance()
			if p.i >= len(p.data) {
				continue
			}
			e := p.data[p.i]
			p.advance()
			switch e {
			case '\n':
				if p.i < len(p.data) && p.data[p.i] == '\r' {
					p.advance()
				}
			case '\r':
				if p.i < len(p.data) && p.data[p.i] == '\n' {
					p.advance()
				}
			default:
				b = append(b, e)
			}
		default:
			b = append(b, c)
			p.advance()
		}
	}
	return "", p.errorf(open, "property value '[' not closed")
}

// convert turns a game tree into a record game; variations nested deeper
// than record.MaxDepth are an error at the tree that passes it.
func convert(t *tree) (*record.Game, error) {
	g := &record.Game{Pos: t.pos}
	c := &conv{g: g}
	if len(t.nodes) > 0 {
		c.plateau = isPlateau(t.nodes[0])
		if c.plateau {
			c.plateauRoot(t.nodes[0])
		} else {
			c.root(t.nodes[0])
		}
	}
	g.Moves = c.seq(t, nil, 0, true, 0)
	c.warnBad()
	if c.deep != nil {
		return &record.Game{Pos: t.pos}, &record.Error{Pos: c.deep.pos, Msg: fmt.Sprintf("variations nested more than %d deep", record.MaxDepth)}
	}
	if g.Tag("SGFGame") == "" && !c.plateau {
		// SGF's default game type is Go (GM[1]): the record says so, so
		// that no reader takes it for a game of its own (GM[] too: one
		// tag, set).
		g.SetTag("SGFGame", "1")
	}
	return g, nil
}

type conv struct {
	g       *record.Game
	plateau bool     // Plateau's SGF (plateau.go)
	pending []string // comments waiting for the next move
	deep    *tree    // the first tree whose variations nest too deep
	// badValues values had badBytes bytes replaced by U+FFFD, the first
	// at badAt.
	badValues, badBytes int
	badAt               record.Pos
}

var tagOf = map[string]string{"EV": "Event", "PC": "Site", "DT": "Date", "RO": "Round", "PB": "Black", "PW": "White"}

func (c *conv) root(n *node) {
	seen := map[string]bool{}
	for _, pr := range n.props {
		if pr.id != "B" && pr.id != "W" && pr.id != "C" {
			if seen[pr.id] {
				continue // a property is once in a node: the first counts
			}
			seen[pr.id] = true
		}
		v := tagValue(c.text(strings.Join(pr.vals, ","), pr.pos))
		switch pr.id {
		case "B", "W", "C":
			// handled as moves and comments
		case "DT":
			c.g.Tags = append(c.g.Tags, record.Tag{Name: "Date", Value: date(v)})
		case "RE":
			c.g.Tags = append(c.g.Tags, record.Tag{Name: "Result", Value: result(v)}, record.Tag{Name: "SGFResult", Value: v})
		case "GM":
			c.g.Tags = append(c.g.Tags, record.Tag{Name: "SGFGame", Value: v})
		default:
			name, ok := tagOf[pr.id]
			if !ok {
				name = "SGF_" + pr.id
			}
			c.g.Tags = append(c.g.Tags, record.Tag{Name: name, Value: v})
		}
	}
}

func date(v string) string {
	if len(v) == 10 && v[4] == '-' && v[7] == '-' {
		return v[:4] + "." + v[5:7] + "." + v[8:]
	}
	return v
}

func result(v string) string {
	u := strings.ToUpper(strings.TrimSpace(v))
	switch {
	case strings.HasPrefix(u, "B+"):
		return "1-0"
	case strings.HasPrefix(u, "W+"):
		return "0-1"
	case u == "0" || u == "DRAW" || u == "JIGO":
		return "1/2-1/2"
	}
	return "*"
}

func collapse(s string) string { return strings.Join(strings.Fields(s), " ") }

// text is s as valid UTF-8 (record.Decode): UTF-8 with the bytes that are
// not replaced by U+FFFD, which the game's warning counts, or, when it holds
// no UTF-8 character at all, Windows-1252 as the record reader reads such
// lines. p is where its property is.
func (c *conv) text(s string, p record.Pos) string {
	t, n := record.Decode(s)
	if n > 0 {
		if c.badValues++; c.badValues == 1 {
			c.badAt = p
		}
		c.badBytes += n
	}
	return t
}

// warnBad adds the warning of the bytes replaced by U+FFFD, if any.
func (c *conv) warnBad() {
	if c.badValues > 0 {
		c.g.Warnings = append(c.g.Warnings, record.InvalidUTF8(c.badAt, c.badBytes, c.badValues, "values"))
	}
}

// tagValue is a root property's value (valid UTF-8) as a tag value: line
// breaks as spaces (a tag pair is one line).
func tagValue(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '\n' || r == '\r' {
			return ' '
		}
		return r
	}, s)
}

// moveValue is an SGF move value (valid UTF-8) as it can stand in a move
// token: the bytes that would end the token or read as something else (a
// mark, a comment, a result) are written %XX.
func moveValue(v string) string {
	const hex = "0123456789ABCDEF"
	var b []byte
	for i := 0; i < len(v); i++ {
		c := v[i]
		if c <= ' ' || c == 0x7f || strings.IndexByte("[]{}()\";$%!?*", c) >= 0 {
			if b == nil {
				b = append(make([]byte, 0, len(v)+8), v[:i]...)
			}
			b = append(b, '%', hex[c>>4], hex[c&15])
			continue
		}
		if b != nil {
			b = append(b, c)
		}
	}
	if b == nil {
		return v
	}
	return string(b)
}

// seq appends the moves of t (and of its first child, and of that one's,
// along the main line: a loop, since a long line written as nested single
// children nests as deep as it is long) to line; other children become
// variations, of the first move after them on the line.
func (c *conv) seq(t *tree, line record.Line, ply int, main bool, depth int) record.Line {
	if depth > record.MaxDepth {
		if c.deep == nil {
			c.deep = t
		}
		return line
	}
	type fork struct {
		first int // the index in line of the move the variations replace
		vars  []record.Line
	}
	var forks []fork
	for {
		line, ply = c.nodes(t, line, ply, main)
		if len(t.children) == 0 {
			break
		}
		// Variations first (they start at the same ply), then the first
		// child continues the line.
		f := fork{first: len(line)}
		for _, ch := range t.children[1:] {
			c.pending = nil
			if v := c.seq(ch, nil, ply, false, depth+1); len(v) > 0 {
				f.vars = append(f.vars, v)
			}
		}
		c.pending = nil
		forks = append(forks, f)
		t = t.children[0]
	}
	// The deepest first, as they were attached when this was recursive.
	for i := len(forks) - 1; i >= 0; i-- {
		if f := forks[i]; f.first < len(line) && len(f.vars) > 0 {
			line[f.first].Variations = append(line[f.first].Variations, f.vars...)
		}
	}
	return line
}

// nodes appends the moves of t's nodes to line, from ply on, and returns
// the line and the ply after them.
func (c *conv) nodes(t *tree, line record.Line, ply int, main bool) (record.Line, int) {
	for _, n := range t.nodes {
		var m *record.Move
		var comments []string
		if c.plateau {
			m, comments = c.plateauNode(n, ply)
		}
		for _, pr := range n.props {
			if c.plateau {
				break
			}
			switch pr.id {
			case "B", "W":
				if m != nil {
					continue // one move per node
				}
				v := pr.vals[0]
				if v == "" || v == "tt" {
					v = "pass"
				}
				m = &record.Move{Text: pr.id + ":" + moveValue(c.text(v, pr.pos)), Ply: ply, Pos: pr.pos}
			case "C":
				for _, v := range pr.vals {
					comments = append(comments, collapse(c.text(v, pr.pos)))
				}
			}
		}
		if m != nil {
			m.Before, c.pending = append(c.pending, m.Before...), nil
			m.After = comments
			line = append(line, m)
			ply++
			continue
		}
		switch {
		case len(line) > 0:
			last := line[len(line)-1]
			last.After = append(last.After, comments...)
		case main:
			c.g.Intro = append(c.g.Intro, comments...)
		default:
			c.pending = append(c.pending, comments...)
		}
	}
	return line, ply
}
