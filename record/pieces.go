package record

import "io"

// A line longer than maxLine comes from the line reader in pieces (see
// lineReader), and the scanner reads through the cuts, so that a record
// reads the same wherever its lines are cut:
//
//   - a token that spans a cut is one token: a string (scanString), a word
//     (longWord), a ';' comment (restOfLine), a {…} comment, prose in
//     parentheses; their text goes to a buffer, up to the bound s.max;
//   - a look-ahead that reaches the end of a piece (a tag pair's name and
//     ']', a value without quotes, a tag line's start, "12 .", "1- 6",
//     "(?)", a NAG's digits) joins the next piece to the line (has), up to
//     the bound s.max too. A piece is copied into the scanner's buffer
//     (own) when it is loaded, so that joining never moves bytes a token
//     being read points into.

// has reports whether s.line[j] exists, joining the next piece of a line
// cut at maxLine to s.line when j is past its end. Indexes into s.line
// stay valid: the pieces are appended.
func (s *scanner) has(j int) bool {
	return j < len(s.line) || s.more(j)
}

// more joins pieces to s.line until it holds j, and reports whether it
// does: not past the line's end, nor past the bound s.max.
func (s *scanner) more(j int) bool {
	for j >= len(s.line) {
		if !s.cut || len(s.line) > s.max || !s.join() {
			return false
		}
	}
	return true
}

// join appends the next piece of the line to s.line (which is s.own, since
// the line is cut) and reports whether there was one.
func (s *scanner) join() bool {
	l, _, _, _, err := s.lr.next()
	if err != nil {
		s.eof = true
		if err != io.EOF {
			s.ioErr = err
		}
		s.cut = false
		return false
	}
	if s.lr.bad > 0 {
		s.bad = append(s.bad, badLine{s.pos(len(s.line) + s.lr.badCol), s.lr.bad})
	}
	s.own = append(s.line, l...)
	s.line = s.own
	s.cut = s.lr.cont
	return true
}

// hold appends add to b up to the bound on the text held (s.max).
func (s *scanner) hold(b, add []byte) []byte {
	if s.max > 0 && len(b)+len(add) > s.max {
		add = add[:max(0, s.max-len(b))]
	}
	return append(b, add...)
}

// nextPiece loads the next piece of a line longer than maxLine when the
// line at hand is one that goes on; it reports false otherwise.
func (s *scanner) nextPiece() bool {
	return s.cut && s.nextLine(true)
}

// restOfLine appends the rest of the line from s.i to b, over its pieces
// when it was cut at maxLine (up to the bound s.max), and leaves s.i at its
// end.
func (s *scanner) restOfLine(b []byte) []byte {
	for {
		b = s.hold(b, s.line[s.i:])
		s.i = len(s.line)
		if !s.nextPiece() {
			return b
		}
	}
}

// longWord is w, a word that runs to the end of a piece of a line cut at
// maxLine, with its rest from the pieces after (up to the bound s.max): a
// token is one token whatever the cut. It leaves s.i after the word and
// returns it in s.sb.
func (s *scanner) longWord(w []byte) []byte {
	b := s.hold(s.sb[:0], w)
	for s.nextPiece() {
		j := 0
		for j < len(s.line) && !isDelim(s.line[j]) {
			j++
		}
		b = s.hold(b, s.line[:j])
		s.i = j
		if j < len(s.line) {
			break
		}
	}
	s.sb = b
	return b
}

// skipPieces skips the pieces of a line cut at maxLine after the one
// loaded: the rest of an escape line is no text.
func (s *scanner) skipPieces() {
	for s.lr.cont && !s.eof {
		if _, _, _, _, err := s.lr.next(); err != nil {
			s.eof = true
			if err != io.EOF {
				s.ioErr = err
			}
			s.lineCol += len(s.line)
			s.lineOf += int64(len(s.line))
			s.line, s.i, s.cut = nil, 0, false
		}
	}
}
