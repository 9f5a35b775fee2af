package record

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// ErrSyntax is wrapped by every *Error the Reader returns.
var ErrSyntax = errors.New("record: syntax error")

// ErrTooLarge is matched (errors.Is) by the *Error of a record over the
// Reader's size limit (see SetMaxRecord).
var ErrTooLarge = errors.New("record: record too large")

// Error is a syntax error at a place in a source.
type Error struct {
	Pos Pos
	Msg string
	// tooLarge marks the error of a record over the size limit.
	tooLarge bool
}

func (e *Error) Error() string { return e.Pos.String() + ": " + e.Msg }

// Unwrap returns ErrSyntax.
func (e *Error) Unwrap() error { return ErrSyntax }

// Is reports ErrTooLarge for the error of a record over the size limit.
func (e *Error) Is(target error) bool { return target == ErrTooLarge && e.tooLarge }

// DefaultMaxRecord is the size limit of a record (see SetMaxRecord) of a
// new Reader: 4 MiB of text.
const DefaultMaxRecord = 4 << 20

// TokensPerByte: a record may hold one token (move, comment, NAG,
// parenthesis, tag) per this many bytes of its size limit, since a short
// token costs far more memory held than its text (a move is about 170
// bytes): 131,072 tokens at the default limit.
const TokensPerByte = 32

// String writes file:line:col (file omitted when empty).
func (p Pos) String() string {
	if p.File == "" {
		return fmt.Sprintf("%d:%d", p.Line, p.Col)
	}
	return fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Col)
}

// MaxDepth bounds the nesting of variations in a record (the Reader's and
// the SGF importer's).
const MaxDepth = 512

// Reader reads games one at a time from a stream of PDN/PGN-style text. It
// holds one line of input (at most 1 MiB, and the text of a token that spans
// the pieces of a longer line) and the game being read, never the whole
// stream, and a game, or a token, only up to its size limit (SetMaxRecord).
// A Reader can be reused with Reset.
type Reader struct {
	s       scanner
	max     int64  // size limit of a record, in bytes of text
	pending token  // a token read ahead (the '[' that starts the next game)
	ahead   bool   // pending is set
	resync  bool   // skip to the next tag section before the next game
	inTags  bool   // the skip starts in a tag section (ending.tags)
	slab    []Move // moves are allocated in blocks: slab[used:] are free
	used    int    // (an index, not a reslice: no pointer written a move)
	// main is the main line being read, copied to its game at the end
	// (one slice of the right size, not one per doubling; a block shared
	// by the main lines of many games would keep all their moves alive
	// while the caller keeps one of them); nTags is the number of tags of
	// the last game, the room given to the next one's.
	main  Line
	nTags int
	// stack holds the frames of the game being read, kept (cleared) for
	// the next game.
	stack []*frame
	ioErr error
}

// NewReader returns a Reader of src; filename is used in positions.
func NewReader(src io.Reader, filename string) *Reader {
	r := &Reader{}
	r.Reset(src, filename)
	r.SetMaxRecord(DefaultMaxRecord)
	return r
}

// SetMaxRecord sets the size limit of a record: n bytes of text (counted
// from its first token) and n/TokensPerByte tokens. n <= 0 means
// DefaultMaxRecord. A record over the limit is not held: Next returns its
// tags and an *Error at its start that matches ErrTooLarge ("record larger
// than 4 MiB"), and the following call reads on from the next game (after
// the record's result, or at the next tag section), as after a syntax error.
// The limit stays across Reset.
func (r *Reader) SetMaxRecord(n int64) {
	if n <= 0 {
		n = DefaultMaxRecord
	}
	r.max = n
	r.s.max = int(min(n, 1<<40))
}

// MaxRecord is the size limit of a record (SetMaxRecord).
func (r *Reader) MaxRecord() int64 { return r.max }

// TooLarge is the error of a record over a size limit of limit bytes,
// positioned at the record's start: it matches ErrTooLarge and ErrSyntax.
// For readers of other formats (SGF) that apply the same limit.
func TooLarge(p Pos, limit int64) *Error {
	return &Error{Pos: p, Msg: "record larger than " + Size(limit) + ": skipped", tooLarge: true}
}

// TooManyTokens is the error of a record of more than limit/TokensPerByte
// moves, comments and other tokens (or SGF nodes and properties), the
// token bound of a size limit of limit bytes, positioned at the record's
// start: it matches ErrTooLarge and ErrSyntax.
func TooManyTokens(p Pos, limit int64) *Error {
	msg := fmt.Sprintf("record of more than %d moves, comments and other tokens (one per %d bytes of the %s limit): skipped", limit/TokensPerByte, TokensPerByte, Size(limit))
	return &Error{Pos: p, Msg: msg, tooLarge: true}
}

// Size writes a byte count for messages: "4 MiB", "1.5 KiB", "300 bytes".
func Size(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}

// ClipWords shortens, for a message, every run of more than n bytes
// without blanks in s to its first n bytes and "…", and the whole to at most
// 8n bytes: a message that quotes input stays short whatever the input.
func ClipWords(s string, n int) string {
	if len(s) > 64*n {
		s = Clip(s, 64*n)
	}
	words := strings.SplitAfter(s, " ")
	for i, w := range words {
		if t := strings.TrimSuffix(w, " "); len(t) > n {
			words[i] = Clip(t, n) + w[len(t):]
		}
	}
	return Clip(strings.Join(words, ""), 8*n)
}

// Clip is s cut to at most n bytes at a rune boundary, with "…" when cut:
// for quoting input text in messages.
func Clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	k := n
	for k > 0 && !utf8.RuneStart(s[k]) {
		k--
	}
	return s[:k] + "…"
}

// Reset makes r read src from its start, keeping its buffers.
func (r *Reader) Reset(src io.Reader, filename string) {
	r.s.init(src, filename)
	r.pending, r.ahead = token{}, false
	r.resync = false
	r.inTags = false
	r.ioErr = nil
}

// ResetAt makes r read src as the rest of a stream whose next byte is at p,
// a line's start (p.Col 1) that an earlier Reader of the stream reported,
// such as a game's Pos: lines and offsets count on from p, so that positions
// are the whole stream's. The encoding is not sniffed again (no byte-order
// mark, no UTF-16): src goes on with the stream's UTF-8 (or Windows-1252)
// lines. A caller that seeks into a file to read one game uses it.
func (r *Reader) ResetAt(src io.Reader, p Pos) {
	r.Reset(src, p.File)
	r.s.lr.started = true
	r.s.lr.line = max(p.Line-1, 0)
	r.s.lr.off = p.Offset
}

// next reads the next token into t.
func (r *Reader) next(t *token) {
	if r.ahead {
		*t, r.pending, r.ahead = r.pending, token{}, false
		return
	}
	r.s.scan(t)
}

func (r *Reader) unread(t token) { r.pending, r.ahead = t, true }

// frame is a line being read: the main line or an open variation.
type frame struct {
	line     Line
	parent   *Move // the move the variation replaces; nil for the main line
	open     Pos   // the '(' of a variation
	ply      int   // Ply of the next move
	pending  []string
	afterVar bool // a variation was closed since the last move
}

func (f *frame) last() *Move {
	if len(f.line) == 0 {
		return nil
	}
	return f.line[len(f.line)-1]
}

// Next reads the next game. At the end of the input it returns io.EOF.
//
// On a syntax error it returns the game as far as it was read (tags and
// moves before the error; never nil) and an *Error wrapping ErrSyntax. The
// next call goes on with the following game: after an error in a tag pair
// the rest of that game is still read; after an error in the movetext the
// Reader skips tokens (ignoring further errors) up to the game's result or
// the next tag section, whichever comes first.
// An error of the underlying reader is returned as is, and again by every
// later call.
func (r *Reader) Next() (*Game, error) {
	if r.ioErr != nil {
		return nil, r.ioErr
	}
	if r.resync {
		r.resync = false
		r.skipGame(r.inTags)
		r.inTags = false
		// Lines with bytes replaced in the record skipped are its.
		from := r.s.offset()
		if r.ahead {
			from = r.pending.pos.Offset
		}
		r.s.keepBad(from)
	}
	e := r.game()
	g, err := e.g, e.err
	if g != nil && r.s.offset()-g.Pos.Offset > 64<<10 {
		// A large game: the next one takes a new block of moves, so
		// that the reader's block does not keep this game's moves (and
		// their comments) alive after the caller drops it.
		r.slab, r.used = nil, 0
	}
	if err != nil {
		var se *Error
		if errors.As(err, &se) {
			if !e.sync {
				r.resync, r.inTags = true, e.tags
			}
			return g, err
		}
		r.ioErr = err
		return nil, err
	}
	return g, nil
}

// mainLine is a copy of l, the main line read into r.main, which it keeps
// for the next game (unless large), cleared so that it holds no move.
func (r *Reader) mainLine(l Line) Line {
	var out Line
	if len(l) > 0 {
		out = append(make(Line, 0, len(l)), l...)
	}
	if cap(l) <= 4096 {
		clear(l)
		r.main = l[:0]
	}
	return out
}

// push pushes a frame set to f on the stack, reusing a frame of an earlier
// variation when there is one (and its line, when f has none).
func (r *Reader) push(stack []*frame, f frame) []*frame {
	if n := len(stack); n < cap(stack) {
		if p := stack[:n+1][n]; p != nil {
			l := p.line[:0]
			*p = f
			if f.line == nil {
				p.line = l
			}
			return stack[:n+1]
		}
	}
	p := new(frame)
	*p = f
	return append(stack, p)
}

// keepStack clears the frames of a game (which point into it), and of the
// games before (as many as the deepest nesting read), and keeps them for
// the next one, unless a deep nesting made many. A variation's frame keeps
// its line (cleared), unless long; the main line is r.main.
func (r *Reader) keepStack(stack []*frame) {
	for i, p := range stack[:cap(stack)] {
		if p == nil {
			break
		}
		l := p.line
		*p = frame{}
		if i > 0 && cap(l) <= 4096 {
			clear(l[:cap(l)])
			p.line = l[:0]
		}
	}
	if cap(stack) > 64 {
		stack = nil
	}
	r.stack = stack[:0]
}

// tagPair reads `Name "Value"]` after '['. On an error it skips to the
// next ']' or '[' of the line.
func (r *Reader) tagPair(g *Game, open Pos) *Error {
	s := &r.s
	// skip goes past the next ']' on the line, stopping before a '['.
	skip := func(p Pos, msg string) *Error {
		for s.has(s.i) && s.line[s.i] != '[' {
			s.i++
			if s.line[s.i-1] == ']' {
				break
			}
		}
		return &Error{Pos: p, Msg: msg}
	}
	// The name: read directly from the line.
	for s.has(s.i) && isSpace(s.line[s.i]) {
		s.i++
	}
	start := s.i
	for s.has(s.i) && isNameByte(s.line[s.i]) {
		s.i++
	}
	if s.i == start || !isNameStart(s.line[start]) {
		return skip(s.pos(start), "tag name expected after '['")
	}
	name := tagName(s.line[start:s.i])
	if name == "" {
		name = s.intern(s.line[start:s.i])
	}
	quoted := Clip(name, 80) // in messages
	if v, ok := s.bareValue(); ok {
		g.addTag(name, v, &r.nTags)
		return nil
	}
	var t token
	for s.has(s.i) && isSpace(s.line[s.i]) {
		s.i++
	}
	if s.has(s.i) && s.line[s.i] == '"' {
		if n, first := s.scanString(&t, true); n > 0 && t.kind == tString {
			g.warn(first, ruleQuote, fmt.Sprintf("tag %s: %d unescaped '\"' read as part of the value (only a '\"' before ']' ends it)", quoted, n))
		}
	} else {
		s.scan(&t)
	}
	if t.kind != tString {
		if t.kind == tLBrack || t.kind == tEOF {
			r.unread(t)
			return &Error{Pos: t.pos, Msg: fmt.Sprintf("tag %s: value string expected", quoted)}
		}
		return skip(t.pos, fmt.Sprintf("tag %s: value string expected", quoted))
	}
	value := t.text
	for s.has(s.i) && isSpace(s.line[s.i]) {
		s.i++
	}
	if !s.has(s.i) || s.line[s.i] != ']' {
		return skip(s.pos(s.i), fmt.Sprintf("tag %s: ']' expected", quoted))
	}
	s.i++
	g.addTag(name, value, &r.nTags)
	return nil
}

// tagName is the standard tag name b spells, or "": a switch finds the
// common ones without intern's hashing.
func tagName(b []byte) string {
	switch string(b) {
	case "Game":
		return "Game"
	case "Event":
		return "Event"
	case "Site":
		return "Site"
	case "Date":
		return "Date"
	case "Round":
		return "Round"
	case "Sente":
		return "Sente"
	case "Gote":
		return "Gote"
	case "White":
		return "White"
	case "Black":
		return "Black"
	case "Orange":
		return "Orange"
	case "Result":
		return "Result"
	case "FEN":
		return "FEN"
	case "SenteElo":
		return "SenteElo"
	case "GoteElo":
		return "GoteElo"
	case "WhiteElo":
		return "WhiteElo"
	case "BlackElo":
		return "BlackElo"
	case "Termination":
		return "Termination"
	case "Annotator":
		return "Annotator"
	case "GameType":
		return "GameType"
	}
	return ""
}

// addTag appends a tag read; a Result value spelt another way (1:0, ½-½)
// is its canonical spelling. n is the number of tags of the last game,
// the room given to the next one's, and is updated.
func (g *Game) addTag(name, value string, n *int) {
	if name == "Result" {
		if r, ok := resultToken([]byte(value)); ok {
			value = r
		}
	}
	if g.Tags == nil {
		g.Tags = make([]Tag, 0, max(*n, 4))
	}
	g.Tags = append(g.Tags, Tag{Name: name, Value: value})
	*n = len(g.Tags)
}

// bareValue reads a tag value written without quotes up to the ']' that
// ends the pair on its line ([Round 1.1], as some Russian files write),
// and the ']'. It reports false, having read nothing, when the value is
// quoted, empty or not closed on the line.
func (s *scanner) bareValue() (string, bool) {
	i := s.i
	for s.has(i) && isSpace(s.line[i]) {
		i++
	}
	if !s.has(i) || s.line[i] == '"' || s.line[i] == ']' || s.line[i] == '[' {
		return "", false
	}
	end := i
	for s.has(end) && s.line[end] != ']' {
		if s.line[end] == '[' {
			return "", false
		}
		end++
	}
	if !s.has(end) {
		return "", false
	}
	v := bytes.TrimRight(s.line[i:end], " \t")
	s.i = end + 1
	return s.intern(v), true
}

// skipGame skips tokens up to and including a result token, or up to a '['
// (left to be read), or the end of the input. With tags, it starts in a
// tag section, whose '[' do not stop it: the skip stops at a '[' only after
// movetext. A result inside a tag pair ([Result 1-0], a value without
// quotes; a pair ends at its ']' or its line's end) does not stop it.
func (r *Reader) skipGame(tags bool) {
	tagLine := 0 // the line of the tag pair open, or 0
	var t token
	for {
		r.next(&t)
		if tagLine != t.pos.Line {
			tagLine = 0
		}
		switch t.kind {
		case tResult:
			if tagLine == 0 {
				return
			}
		case tLBrack:
			if !tags {
				r.unread(t)
				return
			}
			tagLine = t.pos.Line
		case tEOF, tIOError:
			r.unread(t)
			return
		case tRBrack:
			tagLine = 0
		case tWord, tNAG, tLParen, tRParen:
			if tagLine == 0 {
				tags = false
			}
		}
	}
}

func (r *Reader) newMove() *Move {
	if r.used == len(r.slab) {
		r.slab, r.used = make([]Move, 64), 0
	}
	m := &r.slab[r.used]
	r.used++
	return m
}
