package record

import (
	"bytes"
	"encoding/binary"
	"io"
	"unsafe"
)

type tokKind uint8

const (
	tEOF     tokKind = iota
	tLBrack          // [
	tRBrack          // ]
	tString          // "…" (text unescaped)
	tWord            // a move (or a tag name), with suffix NAGs in nags
	tResult          // a game termination marker
	tNAG             // $n or a standalone strength mark; values in nags
	tLParen          // (
	tRParen          // )
	tComment         // {…} or ;… (text with white space collapsed)
	tError           // err is set
	tIOError         // ioErr is set
)

type token struct {
	kind tokKind
	pos  Pos
	text string
	nags []int
	err  *Error
	// sync is set on an error that left the scanner at a game start (a tag
	// line), so no resynchronisation is needed.
	sync bool
	// prose marks a comment read from a parenthesis (scanProse).
	prose bool
}

// scanner splits decoded lines into tokens. Columns are 1-based byte
// columns of the decoded (UTF-8) line.
type scanner struct {
	lr      lineReader
	file    string
	line    []byte // current line
	i       int    // index of the next byte in line
	lineNo  int
	lineCol int    // column of line[0] less one (not 0 in a piece of a long line)
	lineOf  int64  // offset of line[0]
	cont    bool   // line continues the line before (cut at maxLine)
	cut     bool   // line goes on in the next piece (cut at maxLine)
	own     []byte // the line when it is cut: a copy, joined pieces (has)
	max     int    // bound on the text of a comment held (0: none)
	eof     bool
	ioErr   error
	drops   []drop       // move numbers and dots dropped since the Reader took them
	bad     []badLine    // lines with bytes replaced, not yet given to a game
	sb      []byte       // scratch for strings and comments
	texts   []internSlot // interned short texts (intern)
	tbits   uint         // log2 of len(texts)
	// block holds move texts (moveText), block[:blockUsed] written
	// once each (an index, not a reslice: no pointer written a move).
	block     []byte
	blockUsed int
	// nags holds NAGs (oneNAG), nags[:nagsUsed] taken.
	nags     []int
	nagsUsed int
	// lookups and misses count intern's calls and those that missed,
	// over the current period.
	lookups, misses int
}

// intern returns w as a string (a tag name or value), shared
// with an earlier equal short text when one is in its slot of a small
// direct-mapped cache (a hash of the text picks the slot; a new text
// replaces the old one). A collection repeats its tag names and many of
// its values, so most are found; a map of 16,384 texts did the same at
// 150 ns a lookup (cache misses). A slot holds its text's bytes too, as
// three words, so that a lookup compares them in the slot and reads no
// other memory. The cache starts at 1,024 slots (40 KiB: a Reader of one
// record stays small) and doubles, up to 16,384 slots, after a period of
// four lookups a slot of which more than an eighth missed. Move texts are
// not interned (moveText).
func (s *scanner) intern(w []byte) string {
	if len(w) > 24 {
		return string(w)
	}
	if s.texts == nil {
		s.texts = make([]internSlot, 1<<internBits)
		s.tbits = internBits
	}
	// The text's bytes as three words, zero after its end (its length
	// is the slot's text's), and a multiplicative hash of them.
	var k [3]uint64
	for i, r := 0, w; len(r) > 0; i++ {
		if len(r) >= 8 {
			k[i] = binary.LittleEndian.Uint64(r)
			r = r[8:]
			continue
		}
		var x uint64
		for j, c := range r {
			x |= uint64(c) << (8 * j)
		}
		k[i] = x
		break
	}
	h := (uint64(len(w)) ^ k[0]) * 0x9E3779B97F4A7C15
	h = (h ^ k[1]) * 0x9E3779B97F4A7C15
	h = (h ^ k[2]) * 0x9E3779B97F4A7C15
	slot := &s.texts[h>>(64-s.tbits)]
	s.lookups++
	if len(slot.text) == len(w) && slot.k == k {
		return slot.text
	}
	t := string(w)
	*slot = internSlot{k, t}
	if s.misses++; s.lookups >= 4<<s.tbits {
		if s.misses > s.lookups/8 && s.tbits < maxInternBits {
			s.tbits++
			s.texts = make([]internSlot, 1<<s.tbits)
		}
		s.lookups, s.misses = 0, 0
	}
	return t
}

// internSlot is a text of intern's cache and its bytes as three words.
type internSlot struct {
	k    [3]uint64
	text string
}

const (
	internBits    = 10
	maxInternBits = 14
)

func (s *scanner) init(src io.Reader, file string) {
	s.lr.reset(src)
	s.file = file
	s.line = nil
	s.i = 0
	s.lineNo = 0
	s.lineCol = 0
	s.cont = false
	s.cut = false
	s.own = s.own[:0]
	s.lineOf = 0
	s.eof = false
	s.ioErr = nil
	s.drops = s.drops[:0]
	s.bad = s.bad[:0]
}

// offset is the offset of the next byte to scan.
func (s *scanner) offset() int64 { return s.lineOf + int64(s.i) }

func (s *scanner) pos(i int) Pos {
	return Pos{File: s.file, Line: s.lineNo, Col: s.lineCol + i + 1, Offset: s.lineOf + int64(i)}
}

// nextLine loads the next line; escape lines (% in column 1) are skipped
// unless raw. It reports false at the end of input.
func (s *scanner) nextLine(raw bool) bool {
	for {
		if s.eof {
			return false
		}
		l, n, col, off, err := s.lr.next()
		if err != nil {
			s.eof = true
			if err != io.EOF {
				s.ioErr = err
			}
			// The end is after the last line (the place of an error
			// at the end, however the line was cut).
			s.lineCol += len(s.line)
			s.lineOf += int64(len(s.line))
			s.line = nil
			s.i = 0
			s.cut = false
			return false
		}
		s.line, s.lineNo, s.lineCol, s.lineOf, s.i = l, n, col, off, 0
		s.cont = col > 0
		if s.cut = s.lr.cont; s.cut {
			if cap(s.own) > 4*maxLine {
				s.own = nil // after a long look-ahead
			}
			s.own = append(s.own[:0], l...)
			s.line = s.own
		}
		if !raw && !s.cont && len(l) > 0 && l[0] == '%' {
			s.skipPieces()
			continue
		}
		if s.lr.bad > 0 {
			s.bad = append(s.bad, badLine{s.pos(s.lr.badCol), s.lr.bad})
		}
		return true
	}
}

// badLine is a line (or a piece of one) that was UTF-8 but for bytes
// replaced by U+FFFD (Decode): where the first is, and how many.
type badLine struct {
	pos   Pos
	bytes int
}

// keepBad drops the lines with bytes replaced before the offset from.
func (s *scanner) keepBad(from int64) {
	k := 0
	for _, b := range s.bad {
		if b.pos.Offset >= from {
			s.bad[k] = b
			k++
		}
	}
	s.bad = s.bad[:k]
}

// byteClass holds the classes of each byte: blanks (classSpace), bytes
// that end a word (classDelim: blanks, brackets, parentheses, braces, '"',
// ';', '$'), bytes that start a punctuation token (classPunct), and the
// first bytes of a word that may be a move number, a result, dots or an
// ellipsis (classSpecial: digits, '*', '.', and bytes 0x80 and up, which
// start "½" and "…"), and the last bytes of a word that may end with
// strength marks (classMark: '!', '?', '*'). One load a byte.
var byteClass = func() (t [256]uint8) {
	for _, c := range []byte{' ', '\t', '\v', '\f', 0} {
		t[c] |= classSpace | classDelim
	}
	for _, c := range []byte("()\";${}[]") {
		t[c] |= classDelim | classPunct
	}
	for c := '0'; c <= '9'; c++ {
		t[c] |= classSpecial
	}
	for c := 0x80; c < 0x100; c++ {
		t[c] |= classSpecial
	}
	t['*'] |= classSpecial | classMark
	t['.'] |= classSpecial
	t['!'] |= classMark
	t['?'] |= classMark
	return t
}()

const (
	classSpace uint8 = 1 << iota
	classDelim
	classPunct
	classSpecial
	classMark
)

func isSpace(c byte) bool {
	return byteClass[c]&classSpace != 0
}

// skipSpace advances to the next non-blank byte, loading lines as needed.
// It reports false at the end of input.
func (s *scanner) skipSpace() bool {
	for {
		for s.i < len(s.line) && isSpace(s.line[s.i]) {
			s.i++
		}
		if s.i < len(s.line) {
			return true
		}
		if !s.nextLine(false) {
			return false
		}
	}
}

func (s *scanner) errTok(p Pos, msg string) token {
	return token{kind: tError, pos: p, err: &Error{Pos: p, Msg: msg}}
}

// isDelim reports bytes that end a word.
func isDelim(c byte) bool {
	return byteClass[c]&classDelim != 0
}

// scan reads the next token into t.
func (s *scanner) scan(t *token) {
	for {
		if !s.skipSpace() {
			if s.ioErr != nil {
				*t = token{kind: tIOError, pos: s.pos(s.i)}
				return
			}
			*t = token{kind: tEOF, pos: s.pos(s.i)}
			return
		}
		if s.punct(t) || s.scanWord(t) {
			return
		}
		// A move number or an ellipsis: skip it.
	}
}

// punct reads a token that starts with a delimiter: brackets,
// parentheses, a string, a comment or a NAG. It reports false, having read
// nothing, when a word starts at s.i.
func (s *scanner) punct(t *token) bool {
	start := s.i
	if byteClass[s.line[start]]&classPunct == 0 {
		return false
	}
	p := s.pos(start)
	switch s.line[start] {
	case '[':
		s.i++
		*t = token{kind: tLBrack, pos: p}
	case ']':
		s.i++
		*t = token{kind: tRBrack, pos: p}
	case ')':
		s.i++
		*t = token{kind: tRParen, pos: p}
	case '(':
		s.paren(t, p)
	case '"':
		s.scanString(t, false)
	case '{':
		s.scanComment(t)
	case '}':
		s.i++
		*t = s.errTok(p, "unexpected '}' outside a comment")
	case ';':
		s.i = start + 1
		b := s.restOfLine(s.sb[:0])
		text := collapse(b[:0], b)
		s.sb = text
		*t = token{kind: tComment, pos: p, text: string(text)}
	case '$':
		s.nag(t, p)
	default:
		return false
	}
	return true
}

// paren reads '(' at p: a move strength in parentheses, (?) (!?) …, or the
// start of a variation.
func (s *scanner) paren(t *token, p Pos) {
	start := s.i
	j := start + 1
	for s.has(j) && (s.line[j] == '!' || s.line[j] == '?') {
		j++
	}
	if j > start+1 && s.has(j) && s.line[j] == ')' {
		s.i = j + 1
		*t = token{kind: tNAG, pos: p, nags: strengthNAGs(nil, s.line[start+1:j])}
		return
	}
	s.i++
	if s.prose() {
		s.scanProse(t, p)
		return
	}
	*t = token{kind: tLParen, pos: p}
}

// prose reports whether the parenthesis just opened holds prose, as
// English checkers books write their notes ("(Roberto's first choice …)"),
// rather than a variation: its first word, after blanks (at s.i), has no
// digit and is not dots, dashes, stars or strength marks alone, or it is an
// English ordinal ("1st", "22nd"). Every move of every game Plateau reads
// holds a digit, as do move numbers. A delimiter first ('{', '(', ')', …)
// is a variation's.
func (s *scanner) prose() bool {
	if !s.skipSpace() {
		return false
	}
	j := s.i
	for s.has(j) && !isDelim(s.line[j]) {
		j++
	}
	w := s.line[s.i:j]
	digits, signs := 0, 0
	for _, c := range w {
		switch {
		case c >= '0' && c <= '9':
			digits++
		case c == '.' || c == '-' || c == '*' || c == '!' || c == '?':
			signs++
		}
	}
	if digits == 0 {
		return len(w) > signs && !allDots(w)
	}
	return ordinal(w)
}

// ordinal reports an English ordinal: digits then st, nd, rd or th.
func ordinal(w []byte) bool {
	k := 0
	for k < len(w) && w[k] >= '0' && w[k] <= '9' {
		k++
	}
	if k == 0 || len(w)-k != 2 {
		return false
	}
	switch string(bytes.ToLower(w[k:])) {
	case "st", "nd", "rd", "th":
		return true
	}
	return false
}

// scanProse reads the prose of a parenthesis opened at open, from its
// first word to the ')' that closes it (parentheses inside it nest), as a
// comment token marked prose; over several lines if need be, and ended
// with an error at a line that starts with a tag pair, as a comment is.
func (s *scanner) scanProse(t *token, open Pos) {
	b := s.sb[:0]
	j, start, depth := s.i, s.i, 1
	for {
		for ; j < len(s.line); j++ {
			switch s.line[j] {
			case '(':
				depth++
			case ')':
				if depth--; depth == 0 {
					b = append(b, s.line[start:j]...)
					s.i = j + 1
					b = collapse(b[:0], b)
					s.sb = b
					*t = token{kind: tComment, pos: open, text: string(b), prose: true}
					return
				}
			}
		}
		add := s.line[start:j]
		if s.max > 0 && len(b)+len(add) > s.max {
			add = add[:max(0, s.max-len(b))]
		}
		b = append(b, add...)
		if !s.nextLine(true) || s.tagLine() {
			s.sb = b
			*t = s.errTok(open, "parenthesis '(' not closed")
			t.sync = true
			return
		}
		if !s.cont {
			b = append(b, ' ') // a line break
		}
		j, start = 0, 0
	}
}

// nag reads a NAG "$n" at p.
func (s *scanner) nag(t *token, p Pos) {
	j := s.i + 1
	n := 0
	for s.has(j) && s.line[j] >= '0' && s.line[j] <= '9' {
		if n < 1e6 {
			n = n*10 + int(s.line[j]-'0')
		}
		j++
	}
	digits := j - s.i - 1
	s.i = j
	switch {
	case digits == 0:
		*t = s.errTok(p, "'$' not followed by a NAG number")
	case n > 9999:
		*t = s.errTok(p, "NAG number out of range")
	default:
		*t = token{kind: tNAG, pos: p, nags: s.oneNAG(n)}
	}
}

// oneNAG is the slice []int{n}, taken from a block of NAGs shared by the
// moves of many games (as move texts are, moveText): one allocation a
// block, not one a NAG. Its capacity is its length, so that appending to
// it copies it.
func (s *scanner) oneNAG(n int) []int {
	if s.nagsUsed == len(s.nags) {
		s.nags, s.nagsUsed = make([]int, nagBlock), 0
	}
	k := s.nagsUsed
	s.nags[k] = n
	s.nagsUsed++
	return s.nags[k : k+1 : k+1]
}

const nagBlock = 128

// scanWord reads the word at s.i; it reports false for a move number or an
// ellipsis, which are dropped.
func (s *scanner) scanWord(t *token) bool {
	start := s.i
	j := start
	for j < len(s.line) && byteClass[s.line[j]]&classDelim == 0 {
		j++
	}
	s.i = j
	w := s.line[start:j]
	var p Pos
	if j == len(s.line) && s.cut {
		p = s.pos(start) // before longWord loads the next pieces
		w = s.longWord(w)
		j = s.i
	} else if plainMove(w) {
		s.plainWord(t, start, s.moveText(w))
		return true
	} else {
		p = s.pos(start)
	}
	if k := s.splitMove(w); k > j {
		// "1- 6", "47x 9": a PDN move written with blanks after its
		// separator is one move.
		w = append(append(s.sb[:0], w...), s.line[k:s.i]...)
		s.sb = w
	}
	return s.word(t, p, w)
}

// plainWord sets t to the move text at start of the line, field by field:
// a token or a Pos built whole and copied costs more than the rest of a
// plain move's reading.
func (s *scanner) plainWord(t *token, start int, text string) {
	t.kind = tWord
	t.pos.File = s.file
	t.pos.Line = s.lineNo
	t.pos.Col = s.lineCol + start + 1
	t.pos.Offset = s.lineOf + int64(start)
	t.text = text
	t.nags = nil
	t.err = nil
	t.sync, t.prose = false, false
}

// plainMove reports a word that word would read as a move without marks:
// its first byte starts no move number, result, dots or ellipsis (no
// digit, '*', '.' or byte 0x80 and up), so it is none of them and not
// "1- 6" either, and its last byte is no strength mark; or it is a
// numericMove. Most moves are.
func plainMove(w []byte) bool {
	if len(w) == 0 {
		return false
	}
	if byteClass[w[0]]&classSpecial == 0 {
		return byteClass[w[len(w)-1]]&classMark == 0
	}
	return numericMove(w)
}

// numericMove reports a PDN move of square numbers ("32-28", "19x28x37"):
// digits, then a byte other than a digit or '.' (so no move number), ending
// with a digit (so no strength mark, nor the first half of "1- 6"), and
// neither 3 nor 7 bytes long (so no result: "1-0", "1/2-1/2"; a move
// "1-6" is read as any word).
func numericMove(w []byte) bool {
	n := len(w)
	if n == 3 || n == 7 || w[n-1] < '0' || w[n-1] > '9' {
		return false
	}
	k := 0
	for k < n && w[k] >= '0' && w[k] <= '9' {
		k++
	}
	return k > 0 && k < n && w[k] != '.'
}

// splitMove reports where the rest of a PDN move written with blanks after
// its separator starts ("1- 6", "47x 9": some real collections align square
// numbers with blanks), and moves the scanner past it; 0 when w is not the
// first half of such a move. w ends at s.i.
func (s *scanner) splitMove(w []byte) int {
	n := len(w)
	if n < 2 || (w[n-1] != '-' && w[n-1] != 'x' && w[n-1] != ':') {
		return 0
	}
	for _, c := range w[:n-1] {
		if c < '0' || c > '9' {
			return 0
		}
	}
	k := s.i
	for s.has(k) && s.line[k] == ' ' {
		k++
	}
	e := k
	for s.has(e) && s.line[e] >= '0' && s.line[e] <= '9' {
		e++
	}
	if e == k || k == s.i {
		return 0
	}
	for s.has(e) && !isDelim(s.line[e]) {
		e++
	}
	s.i = e
	return k
}

// drop is a word the scanner dropped: the Reader checks that a move
// number stands before a move, and warns of stray dots. It holds its place
// without the file name (no pointer: one is listed for every move number,
// and a pointer would cost a write barrier each while the GC runs).
type drop struct {
	kind      dropKind
	line, col int
	offset    int64
}

// pos is the place of a drop of s's file.
func (d drop) pos(file string) Pos {
	return Pos{File: file, Line: d.line, Col: d.col, Offset: d.offset}
}

func dropAt(k dropKind, p Pos) drop { return drop{k, p.Line, p.Col, p.Offset} }

type dropKind uint8

const (
	dropNumber   dropKind = iota // a move number
	dropEllipsis                 // "..." or "…", a move not given
	dropDots                     // other dots alone: no PDN token
)

// word classifies a word. It reports false for move numbers and ellipses,
// which are dropped (and listed in s.drops).
func (s *scanner) word(t *token, p Pos, w []byte) bool {
	skip, ok := s.moveNumber(w)
	if skip > 0 {
		p.Col += skip
		p.Offset += int64(skip)
		w = w[skip:]
	}
	if !ok {
		s.drops = append(s.drops, dropAt(dropNumber, p))
		return false
	}
	if allDots(w) {
		k := dropDots
		if string(w) == "..." || string(w) == "…" {
			k = dropEllipsis
		}
		s.drops = append(s.drops, dropAt(k, p))
		return false
	}
	if r, ok := resultToken(w); ok {
		*t = token{kind: tResult, pos: p, text: r}
		return true
	}
	w, nags := suffixMarks(w)
	if r, ok := resultToken(w); ok {
		// "1-0!": a result with a stray mark is still the result.
		*t = token{kind: tResult, pos: p, text: r}
		return true
	}
	if allDots(w) {
		w = w[:0] // "...!" is a mark for the move before
	}
	if len(w) == 0 {
		if len(nags) == 0 {
			return false
		}
		*t = token{kind: tNAG, pos: p, nags: nags}
		return true
	}
	*t = token{kind: tWord, pos: p, text: s.moveText(w), nags: nags}
	return true
}

// moveNumber reports how many bytes of leading move numbers w has ("12."
// "12..." "12.e4" "1.32-28"; "1.2.e4" has both); ok is false when w is a
// move number alone, to be dropped (skip is then 0): also digits followed
// on the line by dots standing alone ("12 ." "12 ...").
func (s *scanner) moveNumber(w []byte) (skip int, ok bool) {
	for len(w) > 0 && w[0] >= '0' && w[0] <= '9' {
		k := 0
		for k < len(w) && w[k] >= '0' && w[k] <= '9' {
			k++
		}
		switch {
		case k < len(w) && w[k] == '.':
			for k < len(w) && w[k] == '.' {
				k++
			}
			if k == len(w) {
				return 0, false
			}
			skip += k
			w = w[k:]
			continue
		case k == len(w):
			// Digits alone: a move number if dots follow after blanks.
			j := s.i
			for s.has(j) && isSpace(s.line[j]) {
				j++
			}
			if s.has(j) && s.line[j] == '.' {
				for s.has(j) && s.line[j] == '.' {
					j++
				}
				if !s.has(j) || isDelim(s.line[j]) {
					s.i = j
					return 0, false
				}
			}
		}
		break
	}
	return skip, true
}

// suffixMarks splits the trailing strength marks of w, and PDN's
// forced-move star glued to a move ($7), from w, as NAGs read left to right.
func suffixMarks(w []byte) ([]byte, []int) {
	var nags []int
	k := len(w)
	for k > 0 && (w[k-1] == '!' || w[k-1] == '?' || w[k-1] == '*') {
		k--
	}
	for run := w[k:]; len(run) > 0; {
		if run[0] == '*' {
			nags = append(nags, 7)
			run = run[1:]
			continue
		}
		e := 0
		for e < len(run) && run[e] != '*' {
			e++
		}
		nags = strengthNAGs(nags, run[:e])
		run = run[e:]
	}
	return w[:k], nags
}

// moveText returns w as a string: a short one is copied after the texts
// before it into a block of textBlock bytes, shared by the moves of a few
// games and never written again, instead of being interned. A replay reads
// every move's text right after the Reader; an interned text is wherever
// its first occurrence was put, and in a large import that read missed the
// CPU caches at nearly every move (ogi.lex, 5 µs a game of a 3M import's
// profile, and intern's own slot as much), where a game's texts in a row
// are read from the cache. A caller that keeps a text keeps its block.
func (s *scanner) moveText(w []byte) string {
	if len(w) == 0 || len(w) > maxBlockText {
		return string(w)
	}
	if len(s.block)-s.blockUsed < len(w) {
		s.block, s.blockUsed = make([]byte, textBlock), 0
	}
	n := s.blockUsed
	s.blockUsed += copy(s.block[n:], w)
	// The bytes of a block are written once, before any string of
	// them is made (as strings.Builder does).
	return unsafe.String(&s.block[n], len(w))
}

const (
	textBlock    = 4 << 10
	maxBlockText = 32
)

func allDots(w []byte) bool {
	for _, c := range w {
		if c != '.' && c != 0xE2 && c != 0x80 && c != 0xA6 { // '.' or '…'
			return false
		}
	}
	return len(w) > 0
}

// scores are the results a-b with a and b from 0 to 3 (1-0, 2-0, 1-1, 3-0,
// 0-0, …), indexed by a and b; "" where a-b is no result.
var scores = [4][4]string{
	{"0-0", "0-1", "0-2", "0-3"},
	{"1-0", "1-1", "", ""},
	{"2-0", "", "", ""},
	{"3-0", "", "", ""},
}

// resultToken reports whether w is a termination marker (1-0 0-1 1/2-1/2
// ½-½ * 2-0 0-2 1-1 0-0 3-0 0-3), and its canonical spelling: ½-½ is
// written 1/2-1/2, and a colon for the dash, as Russian files write
// results (1:0 0:1 1/2:1/2), is a dash. Most words are moves: each length
// is checked in a few byte comparisons.
func resultToken(w []byte) (string, bool) {
	switch len(w) {
	case 1:
		return "*", w[0] == '*'
	case 3:
		if a, b := w[0]-'0', w[2]-'0'; (w[1] == '-' || w[1] == ':') && a < 4 && b < 4 {
			return scores[a][b], scores[a][b] != ""
		}
	case 5:
		if string(w) == "½-½" || string(w) == "½:½" {
			return "1/2-1/2", true
		}
	case 7:
		if string(w[:3]) == "1/2" && string(w[4:]) == "1/2" && (w[3] == '-' || w[3] == ':') {
			return "1/2-1/2", true
		}
	}
	return "", false
}

// IsResult reports whether s is one of the game termination markers the
// Reader recognises in movetext, in its canonical spelling.
func IsResult(s string) bool {
	r, ok := resultToken([]byte(s))
	return ok && r == s
}

// strengthNAGs appends the NAGs of a run of ! and ? marks: pairs first
// (!! ?? !? ?!), then single marks, from left to right.
func strengthNAGs(nags []int, w []byte) []int {
	for len(w) > 0 {
		if len(w) >= 2 {
			if n := strength2(w[0], w[1]); n != 0 {
				nags = append(nags, n)
				w = w[2:]
				continue
			}
		}
		if w[0] == '!' {
			nags = append(nags, 1)
		} else {
			nags = append(nags, 2)
		}
		w = w[1:]
	}
	return nags
}

func strength2(a, b byte) int {
	switch {
	case a == '!' && b == '!':
		return 3
	case a == '?' && b == '?':
		return 4
	case a == '!' && b == '?':
		return 5
	case a == '?' && b == '!':
		return 6
	}
	return 0
}

// scanString reads a string, "…" with the escapes \" and \\ (a backslash
// before another byte is itself), up to its closing quote on its line: over
// the pieces of a line longer than maxLine too, so that a long tag value is
// one token whatever its size (text beyond the bound s.max is dropped: the
// Reader rejects such a record, and must not read its tail as tokens).
//
// In a tag value (tag), a '"' followed on its line by another '"' but not
// by ']' or '[' (blanks skipped) is part of the value, as PDN readers in
// the wild read [Event "The "Big" Open"]: quotes reports how many were
// kept so, the first at first, for a warning.
func (s *scanner) scanString(t *token, tag bool) (quotes int, first Pos) {
	p := s.pos(s.i)
	j := s.i + 1
	if k := bytes.IndexByte(s.line[j:], '"'); k >= 0 {
		// Most strings: no backslash before the first '"', which ends
		// the string; the text is read from the line, not copied.
		if q := j + k; bytes.IndexByte(s.line[j:q], '\\') < 0 && !(tag && s.innerQuote(q)) {
			s.i = q + 1
			*t = token{kind: tString, pos: p, text: s.intern(s.line[j:q])}
			return 0, first
		}
	}
	b := s.sb[:0]
	esc := false // a backslash was the last byte
	for {
		for ; j < len(s.line); j++ {
			c := s.line[j]
			if esc {
				esc = false
				if c == '"' || c == '\\' {
					b = append(b, c)
					continue
				}
				b = append(b, '\\')
			}
			switch c {
			case '\\':
				esc = true
			case '"':
				if tag && s.innerQuote(j) {
					if quotes == 0 {
						first = s.pos(j)
					}
					quotes++
					b = append(b, c)
					continue
				}
				s.i = j + 1
				s.sb = b
				*t = token{kind: tString, pos: p, text: s.intern(b)}
				return quotes, first
			default:
				b = append(b, c)
			}
		}
		if s.max > 0 && len(b) > s.max {
			b = b[:s.max]
		}
		if !s.nextPiece() {
			break
		}
		j = 0
	}
	if esc {
		b = append(b, '\\')
	}
	s.sb = b
	s.i = len(s.line)
	*t = s.errTok(p, "string not closed on its line")
	return quotes, first
}

// innerQuote reports whether the '"' at j of a tag value is part of it:
// another '"' follows on the line, and the next byte but blanks is neither
// ']' (the pair's end) nor '[' (the next pair of the line, the first
// lacking its ']'). The look-ahead joins the pieces of a cut line (has);
// it stops at the next '"', so a value's quotes are looked past once.
func (s *scanner) innerQuote(j int) bool {
	k := j + 1
	for s.has(k) && (s.line[k] == ' ' || s.line[k] == '\t') {
		k++
	}
	if !s.has(k) || s.line[k] == ']' || s.line[k] == '[' {
		return false
	}
	for ; s.has(k); k++ {
		if s.line[k] == '"' {
			return true
		}
	}
	return false
}

// scanComment reads a {…} comment, over several lines if need be. Comments
// do not nest: a '{' inside one is an error. A line that starts with a tag
// pair inside an open comment ends it with an error, so that an unclosed
// comment does not swallow the games after it.
func (s *scanner) scanComment(t *token) {
	open := s.pos(s.i)
	b := s.sb[:0]
	j := s.i + 1
	start := j
	for {
		for j < len(s.line) {
			c := s.line[j]
			if c == '}' {
				b = append(b, s.line[start:j]...)
				s.i = j + 1
				b = collapse(b[:0], b)
				s.sb = b
				*t = token{kind: tComment, pos: open, text: string(b)}
				return
			}
			if c == '{' {
				s.i = j + 1
				b = append(b, s.line[start:j]...)
				s.sb = b
				*t = s.errTok(s.pos(j), "'{' inside a comment (comments do not nest)")
				return
			}
			j++
		}
		// The text up to the bound, if any (the Reader rejects a
		// record that long, so the rest would be dropped anyway).
		add := s.line[start:j]
		if s.max > 0 && len(b)+len(add) > s.max {
			add = add[:max(0, s.max-len(b))]
		}
		b = append(b, add...)
		if !s.nextLine(true) {
			s.sb = b
			*t = s.errTok(open, "comment '{' not closed")
			t.sync = true
			return
		}
		if s.tagLine() {
			s.sb = b
			*t = s.errTok(open, "comment '{' not closed before the next tag section")
			t.sync = true
			return
		}
		if !s.cont {
			b = append(b, ' ') // a line break
		}
		j = 0
		start = 0
	}
}

// tagLine reports whether the line just loaded starts with a tag pair:
// optional blanks, '[', a name, blanks, '"' (and is a line's start, not a
// piece after a cut).
func (s *scanner) tagLine() bool {
	if s.cont {
		return false
	}
	k := 0
	for s.has(k) && (s.line[k] == ' ' || s.line[k] == '\t') {
		k++
	}
	if !s.has(k+1) || s.line[k] != '[' || !isNameStart(s.line[k+1]) {
		return false
	}
	k += 2
	for s.has(k) && isNameByte(s.line[k]) {
		k++
	}
	n := k
	for s.has(k) && isSpace(s.line[k]) {
		k++
	}
	return k > n && s.has(k) && s.line[k] == '"'
}

// isNameStart: a tag name starts with a letter; bytes of UTF-8 letters
// (0x80 and up) are letters, since real files name tags in their language
// (Результат, Résultat).
func isNameStart(c byte) bool {
	return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= 0x80
}

func isNameByte(c byte) bool {
	return isNameStart(c) || c >= '0' && c <= '9' || c == '_' || c == '-'
}

// collapse appends text with runs of white space made single spaces and
// leading and trailing space removed. dst may alias text's start.
func collapse(dst, text []byte) []byte {
	out := dst[:0]
	space := false
	for _, c := range text {
		if c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f' {
			space = len(out) > 0
			continue
		}
		if space {
			out = append(out, ' ')
			space = false
		}
		out = append(out, c)
	}
	return out
}
