package record

import (
	"fmt"
	"io"
)

// gameRead is the state of the game being read (Reader.game).
type gameRead struct {
	g      *Game
	stack  []*frame // the main line's frame, then the open variations'
	tagErr *Error   // the first error in a tag pair (the game is still read)
	// started: a token of this game was read; movetext: a move, NAG,
	// variation or result was read.
	started, movetext bool
	tokens            int64
	// num is a move number not yet followed by a move (numSet).
	num    Pos
	numSet bool
	// odd is the Result tag's value when it is no result marker but looks
	// like a score ("4-6"): that word in the movetext is the result.
	odd string
	// unknowns counts the moves written '-' (unknown), the first at
	// unknownAt.
	unknowns  int
	unknownAt Pos
	// badWarn is the index in g.Warnings of the warning of bytes replaced
	// by U+FFFD (badLines lines, badBytes bytes), or -1.
	badWarn            int
	badLines, badBytes int
}

// ending is how a game ended: the game (nil at the end of the input), the
// error, and sync, set when the Reader is already at the start of the next
// game after an error; else tags, set when the skip to the next game starts
// in the game's tag section (no movetext read yet).
type ending struct {
	g    *Game
	err  error
	sync bool
	tags bool
}

// game reads one game.
func (r *Reader) game() ending {
	st := gameRead{g: &Game{}, stack: r.push(r.stack[:0], frame{line: r.main[:0]}), badWarn: -1}
	r.main = nil // given back by mainLine, cleared
	defer func() { r.keepStack(st.stack) }()
	r.s.drops = r.s.drops[:0]
	var t token
	for {
		r.next(&t)
		if len(r.s.drops) > 0 {
			r.dropped(&st)
		}
		if len(r.s.bad) > 0 {
			r.replaced(&st)
		}
		if st.numSet && t.kind != tComment {
			if t.kind != tWord {
				st.g.warn(st.num, ruleMoveNum, "move number without a move")
			}
			st.numSet = false
		}
		if !st.started && t.kind != tEOF && t.kind != tIOError {
			st.started = true
			st.g.Pos = t.pos
		}
		if st.tokens++; st.started && (r.s.offset()-st.g.Pos.Offset > r.max || st.tokens > r.max/TokensPerByte) {
			return r.tooLarge(&st, &t)
		}
		if e, done := r.token(&st, &t); done {
			return e
		}
		if t.kind == tLBrack {
			r.tags(&st)
		}
		r.moves(&st)
	}
}

// moves reads the plain moves (plainMove) and the move numbers written as
// digits and dots that follow on the scanner's line, as the loop of game
// and token would read them one by one, without a token each: most of a
// movetext. It stops at the line's end, or before the first word it does
// not read so, or a move over the size limit, for game's loop to read. It
// reads nothing where a token read before needs game's loop after it: a
// token read ahead, lines with bytes replaced, words dropped (a tag pair
// in error may have read past move numbers), a line cut in pieces, an odd
// Result tag (a word may be the result).
func (r *Reader) moves(st *gameRead) {
	s := &r.s
	if r.ahead || s.cut || len(s.bad) > 0 || len(s.drops) > 0 || !st.started || st.odd != "" {
		return
	}
	f := st.stack[len(st.stack)-1]
	line, i := s.line, s.i
	for {
		for i < len(line) && byteClass[line[i]]&classSpace != 0 {
			i++
		}
		j := i
		for j < len(line) && byteClass[line[j]]&classDelim == 0 {
			j++
		}
		w := line[i:j]
		switch {
		case plainMove(w) && w[0] != '-':
			if st.tokens+1 > r.max/TokensPerByte || s.lineOf+int64(j)-st.g.Pos.Offset > r.max {
				return
			}
			st.tokens++
			st.numSet = false
			st.movetext = true
			m := r.newMove()
			m.Text = s.moveText(w)
			m.Ply = f.ply
			f.ply++
			m.Pos.File = s.file
			m.Pos.Line, m.Pos.Col, m.Pos.Offset = s.lineNo, s.lineCol+i+1, s.lineOf+int64(i)
			if len(f.pending) > 0 {
				m.Before = f.pending
				f.pending = nil
			}
			f.line = append(f.line, m)
			f.afterVar = false
		case numberDots(w):
			if st.numSet {
				st.g.warn(st.num, ruleMoveNum, "move number without a move")
			}
			st.num.File = s.file
			st.num.Line, st.num.Col, st.num.Offset = s.lineNo, s.lineCol+i+1, s.lineOf+int64(i)
			st.numSet = true
		default:
			return
		}
		s.i, i = j, j
	}
}

// numberDots reports a move number written as digits then dots ("12.",
// "12..."), which the scanner drops (moveNumber).
func numberDots(w []byte) bool {
	k := 0
	for k < len(w) && w[k] >= '0' && w[k] <= '9' {
		k++
	}
	if k == 0 || k == len(w) {
		return false
	}
	for _, c := range w[k:] {
		if c != '.' {
			return false
		}
	}
	return true
}

// tooLarge ends a record over the size limit at the token t: what was read
// is dropped, and the next call skips the rest.
func (r *Reader) tooLarge(st *gameRead, t *token) ending {
	if t.kind == tLBrack || t.kind == tEOF || t.kind == tIOError {
		r.unread(*t)
	}
	st.g.Intro = nil
	err := TooLarge(st.g.Pos, r.max)
	if st.tokens > r.max/TokensPerByte {
		err = TooManyTokens(st.g.Pos, r.max)
	}
	// At a game's end or the next one's start no skipping is needed; in
	// the tag section the skip goes past the tags.
	sync := t.kind == tResult || t.kind == tEOF || t.kind == tIOError ||
		st.movetext && (t.kind == tLBrack || (t.kind == tError && t.sync))
	return ending{st.g, err, sync, !st.movetext}
}

// token reads the token t into the game; done reports that it ended the
// game (e says how).
func (r *Reader) token(st *gameRead, t *token) (e ending, done bool) {
	f := st.stack[len(st.stack)-1]
	switch t.kind {
	case tEOF, tIOError:
		return r.end(st, t), true
	case tError:
		e := r.fail(st, t.pos, t.err.Msg)
		e.sync = t.sync
		return e, true
	case tLBrack:
		return r.tagSection(st, t)
	case tRBrack:
		return r.fail(st, t.pos, "unexpected ']' outside a tag pair"), true
	case tString:
		return r.fail(st, t.pos, "unexpected string outside a tag pair"), true
	case tWord:
		st.movetext = true
		if st.odd != "" && t.text == st.odd && t.nags == nil && len(st.stack) == 1 {
			st.g.warn(t.pos, ruleResult, fmt.Sprintf("%q read as the game's result, not as a move: it is the Result tag's value, though no PDN result", Clip(t.text, 80)))
			st.g.Result = t.text
			return r.finish(st), true
		}
		if t.text[0] == '-' && unknownMove(t.text) {
			if st.unknowns++; st.unknowns == 1 {
				st.unknownAt = t.pos
			}
		}
		// The block is fresh (zero) memory: set the fields one by one
		// (a struct assignment copies all 160 bytes, behind a bulk
		// write barrier while the GC runs).
		m := r.newMove()
		m.Text = t.text
		if t.nags != nil {
			m.NAGs = t.nags
		}
		m.Ply = f.ply
		m.Pos.File = t.pos.File
		m.Pos.Line, m.Pos.Col, m.Pos.Offset = t.pos.Line, t.pos.Col, t.pos.Offset
		f.ply++
		if len(f.pending) > 0 {
			m.Before = f.pending
			f.pending = nil
		}
		f.line = append(f.line, m)
		f.afterVar = false
	case tNAG:
		st.movetext = true
		m := f.last()
		if m == nil || f.afterVar {
			return r.fail(st, t.pos, "move annotation before any move"), true
		}
		if m.NAGs == nil {
			m.NAGs = t.nags // the token's own slice
		} else {
			m.NAGs = append(m.NAGs, t.nags...)
		}
	case tComment:
		if t.prose {
			st.g.warn(t.pos, ruleVariation, "a parenthesis that does not start with a move read as a comment")
		}
		if m := f.last(); m != nil && !f.afterVar {
			m.After = append(m.After, t.text)
		} else if len(st.stack) == 1 && m == nil {
			st.g.Intro = append(st.g.Intro, t.text)
		} else {
			f.pending = append(f.pending, t.text)
		}
	case tLParen:
		return r.openVariation(st, t)
	case tRParen:
		return r.closeVariation(st, t)
	case tResult:
		if len(st.stack) > 1 {
			return r.fail(st, t.pos, fmt.Sprintf("result %s inside a variation", t.text)), true
		}
		st.g.Result = t.text
		return r.finish(st), true
	}
	return ending{}, false
}

// end is the end of the input (t is tEOF or tIOError).
func (r *Reader) end(st *gameRead, t *token) ending {
	if t.kind == tIOError {
		return ending{err: r.s.ioErr}
	}
	if len(st.stack) > 1 {
		e := r.fail(st, st.stack[len(st.stack)-1].open, "variation '(' not closed")
		e.sync = true
		return e
	}
	if !st.movetext && len(st.g.Tags) == 0 && st.tagErr == nil {
		// Nothing but comments (or nothing) before the end.
		return ending{err: io.EOF}
	}
	return r.finish(st)
}

// tagSection reads a tag pair, or ends the game at the next one's '['.
func (r *Reader) tagSection(st *gameRead, t *token) (ending, bool) {
	if len(st.stack) > 1 {
		r.unread(*t)
		e := r.fail(st, st.stack[len(st.stack)-1].open, "variation '(' not closed before the next tag section")
		e.sync = true
		return e, true
	}
	if st.movetext {
		r.unread(*t)
		p := t.pos
		if m := st.stack[0].last(); m != nil {
			p = m.Pos
		}
		st.g.warn(p, ruleSeparator, fmt.Sprintf("no result before the next game's tags (line %d): the game ends there, its result unknown", t.pos.Line))
		return r.finish(st), true
	}
	r.tag(st, t.pos)
	return ending{}, false
}

// tag reads a tag pair of the tag section after its '[' at open.
func (r *Reader) tag(st *gameRead, open Pos) {
	n := len(st.g.Tags)
	if e := r.tagPair(st.g, open); e != nil && st.tagErr == nil {
		st.tagErr = e
	}
	if len(st.g.Tags) > n && st.g.Tags[n].Name == "Result" {
		if v := st.g.Tags[n].Value; !IsResult(v) && scoreLike(v) {
			st.odd = v
		}
	}
}

// tags reads the tag pairs that follow in the game's tag section (each at
// a '[' after blanks), as game's loop would read them one by one, without a
// token each. It stops before anything else, or a '[' over the size limit,
// for game's loop to read; like moves, it reads nothing where the loop has
// work: a token read ahead, lines with bytes replaced, words dropped, a
// move number read.
func (r *Reader) tags(st *gameRead) {
	s := &r.s
	for !st.movetext && st.started && !st.numSet && len(st.stack) == 1 {
		if r.ahead || len(s.bad) > 0 || len(s.drops) > 0 || !s.skipSpace() || len(s.bad) > 0 || s.line[s.i] != '[' {
			return
		}
		if st.tokens+1 > r.max/TokensPerByte || s.offset()+1-st.g.Pos.Offset > r.max {
			return
		}
		st.tokens++
		p := s.pos(s.i)
		s.i++
		r.tag(st, p)
	}
}

// openVariation opens a variation of the last move at '('.
func (r *Reader) openVariation(st *gameRead, t *token) (ending, bool) {
	st.movetext = true
	m := st.stack[len(st.stack)-1].last()
	if m == nil {
		return r.fail(st, t.pos, "variation '(' before any move"), true
	}
	if len(st.stack) > MaxDepth {
		return r.fail(st, t.pos, "variations nested too deeply"), true
	}
	st.stack = r.push(st.stack, frame{parent: m, open: t.pos, ply: m.Ply})
	return ending{}, false
}

// closeVariation closes the open variation at ')' and attaches it to the
// move it replaces.
func (r *Reader) closeVariation(st *gameRead, t *token) (ending, bool) {
	f := st.stack[len(st.stack)-1]
	if len(st.stack) == 1 {
		return r.fail(st, t.pos, "unexpected ')' outside a variation"), true
	}
	if len(f.line) == 0 {
		return r.fail(st, f.open, "empty variation"), true
	}
	if len(f.pending) > 0 {
		m := f.last()
		m.After = append(m.After, f.pending...)
	}
	st.stack = st.stack[:len(st.stack)-1]
	// A copy of the right size: the frame keeps its line.
	f.parent.Variations = append(f.parent.Variations, append(make(Line, 0, len(f.line)), f.line...))
	st.stack[len(st.stack)-1].afterVar = true
	return ending{}, false
}

// fail ends the game with a syntax error at p: the game keeps its main
// line as read.
func (r *Reader) fail(st *gameRead, p Pos, msg string) ending {
	st.g.Moves = r.mainLine(st.stack[0].line)
	return ending{st.g, &Error{Pos: p, Msg: msg}, false, !st.movetext}
}

// finish ends the game: pending comments go to the last move (or the
// intro), and an error in a tag pair is returned now.
func (r *Reader) finish(st *gameRead) ending {
	if st.unknowns > 0 {
		st.g.warn(st.unknownAt, ruleUnknown, fmt.Sprintf("%d unknown moves written '-': replay stops at the first", st.unknowns))
	}
	if len(st.g.Tags) > 0 {
		st.g.addStandardTags()
	}
	f := st.stack[0]
	if len(f.pending) > 0 {
		if m := f.last(); m != nil {
			m.After = append(m.After, f.pending...)
		} else {
			st.g.Intro = append(st.g.Intro, f.pending...)
		}
	}
	st.g.Moves = r.mainLine(f.line)
	if st.tagErr != nil {
		return ending{g: st.g, err: st.tagErr, sync: true}
	}
	return ending{g: st.g}
}

// dropped checks the move numbers and dots the scanner dropped before the
// token just read: a move number must be followed by a move (or "..."
// standing for one), and dots alone are no token.
func (r *Reader) dropped(st *gameRead) {
	for _, d := range r.s.drops {
		switch d.kind {
		case dropNumber:
			if st.numSet {
				st.g.warn(st.num, ruleMoveNum, "move number without a move")
			}
			st.num, st.numSet = d.pos(r.s.file), true
		case dropEllipsis:
			st.numSet = false
		case dropDots:
			st.g.warn(d.pos(r.s.file), ruleDots, "stray '.' dropped")
		}
	}
	r.s.drops = r.s.drops[:0]
}

// replaced gives the game the lines with bytes replaced by U+FFFD that the
// scanner has read past (the rest are after the token just read: a later
// game's, maybe): one warning, at the first, counting them all.
func (r *Reader) replaced(st *gameRead) {
	n := len(r.s.bad)
	for _, b := range r.s.bad {
		if b.pos.Offset >= r.s.offset() {
			continue
		}
		if st.badLines++; st.badWarn < 0 {
			st.badWarn = len(st.g.Warnings)
			st.g.Warnings = append(st.g.Warnings, Warning{Pos: b.pos})
		}
		st.badBytes += b.bytes
	}
	if r.s.keepBad(r.s.offset()); len(r.s.bad) == n {
		return
	}
	w := &st.g.Warnings[st.badWarn]
	*w = InvalidUTF8(w.Pos, st.badBytes, st.badLines, "lines")
}

// unknownMove reports a move written as dashes alone ("-", "--"): a move
// not known, as some files fill a game whose moves are lost ("41. - -").
func unknownMove(w string) bool {
	for i := 0; i < len(w); i++ {
		if w[i] != '-' {
			return false
		}
	}
	return true
}

// scoreLike reports a value that reads as a score, digits with '-', ':',
// '/' or '.' between them ("4-6", "1-9", "3:2"): as a Result tag that is no
// result marker, the same word ending the movetext is the result.
func scoreLike(v string) bool {
	digits := false
	for i := 0; i < len(v); i++ {
		switch c := v[i]; {
		case c >= '0' && c <= '9':
			digits = true
		case c == '-' || c == ':' || c == '/' || c == '.':
		default:
			return false
		}
	}
	return digits && v[0] >= '0' && v[0] <= '9'
}
