// Package pieces reads the games of a PDN/PGN stream on several
// goroutines: it gives the games, errors and positions that one
// record.Reader gives, in the same order, reading several pieces of the
// text at once. Reading records is the serial stage of a validation or an
// import (their replay runs on every core), and this lifts it.
//
// One goroutine reads the stream and cuts it into pieces of about
// pieceSize bytes; workers read each piece with a record.Reader of their
// own, positioned where the piece starts (record.Reader.ResetAt); Next
// hands the games on in order (package internal/pipeline).
//
// Decisions:
//   - A piece ends only where the stream's reader would start a game
//     afresh: after a line whose last word is a termination marker, then
//     only blank space, before a line that starts with '['. A line with a
//     ';' comment, a '"' or a '%' escape is not such a place (the marker
//     may belong to them). The cut is checked, not trusted: a piece whose
//     last game was read without error up to a termination marker, with
//     nothing after it, ended where the stream's reader would have ended
//     it. Otherwise (a comment or a string left open, say) the piece is
//     read again with the next one, as one text, on the goroutine that
//     calls Next. TestSameAsReader cuts every file of the corpus at every
//     place it can and compares every game with record.Reader's.
//   - A piece starts at a line's start whose line number and offset are
//     counted from the text before it: line ends as record.Reader counts
//     them (LF, CRLF, a lone CR), and bytes as read, which are the
//     stream's offsets only while the text is UTF-8. At the first piece
//     that is not (a Windows-1252 line, which the reader re-encodes), at
//     a byte-order mark or UTF-16 text at the stream's start, past
//     maxHeld bytes without a place to cut, and at the stream's end or
//     error, the rest of the stream is read by one record.Reader on the
//     goroutine that calls Next, as the stream's own reader would read it.
//   - The text of a piece is held until its games are read; the games
//     do not point into it. At most twice the workers' pieces are in
//     flight.
package pieces

import (
	"bytes"
	"context"
	"errors"
	"io"
	"unicode/utf8"

	"github.com/plateau/plateau/internal/pipeline"
	"github.com/plateau/plateau/record"
)

// pieceSize is the text of a piece, about: large enough that a piece is
// milliseconds of work for a worker, small enough that a file of a few
// megabytes is read in parallel.
const pieceSize = 64 << 10

// maxHeld bounds the text read without a place to cut: beyond it the rest
// of the stream is read by one reader.
const maxHeld = 8 << 20

// Reader reads the games of a stream on several goroutines. It is not safe
// for concurrent use. Close stops its goroutines.
type Reader struct {
	src     io.Reader
	file    string
	workers int
	max     int64
	size    int // pieceSize; the tests cut smaller pieces

	started bool
	cancel  context.CancelFunc
	ready   chan *piece
	done    chan struct{}

	games []game         // the games of the piece being handed on
	i     int            // the next of them
	carry *piece         // a piece that did not end cleanly, read again with the next
	rest  *record.Reader // the rest of the stream, read on Next's goroutine
	one   record.Reader  // for the pieces read again
}

// game is what record.Reader.Next returned.
type game struct {
	g   *record.Game
	err error
}

// piece is a run of the stream's text and the games read from it.
type piece struct {
	text  []byte
	at    record.Pos // where text starts: a line's start
	first bool       // the stream's start: read with Reset (its encoding sniffed)
	// final marks the last piece: tail is what follows its text (the rest
	// of the stream, or its end or error), read on Next's goroutine.
	final bool
	tail  io.Reader
	games []game
	clean bool // the text was cut where the stream's reader starts a game afresh
}

// NewReader returns a Reader of src on workers goroutines (at least 1);
// file is used in positions, as record.NewReader's filename.
func NewReader(src io.Reader, file string, workers int) *Reader {
	return &Reader{src: src, file: file, workers: max(workers, 1), max: record.DefaultMaxRecord, size: pieceSize}
}

// SetMaxRecord sets the size limit of a record (record.Reader.SetMaxRecord),
// before the first Next.
func (r *Reader) SetMaxRecord(n int64) {
	if n <= 0 {
		n = record.DefaultMaxRecord
	}
	r.max = n
}

// Next returns the next game as record.Reader.Next does: a game, a game
// and the *record.Error that ended its reading, or io.EOF (or the
// stream's error, again at every later call) at the end.
func (r *Reader) Next() (*record.Game, error) {
	if !r.started {
		r.start()
	}
	for {
		if r.i < len(r.games) {
			g := r.games[r.i]
			r.games[r.i] = game{}
			r.i++
			return g.g, g.err
		}
		if r.rest != nil {
			return r.rest.Next()
		}
		p, ok := <-r.ready
		if !ok {
			return nil, io.EOF // Close was called
		}
		switch {
		case r.carry != nil && (p.final || len(r.carry.text)+len(p.text) > maxHeld):
			// One reader from the carried piece's start to the end.
			c := r.carry
			r.carry = nil
			r.rest = r.reader(&r.one, c, io.MultiReader(bytes.NewReader(c.text), r.stream(p)))
			continue
		case r.carry != nil:
			p = r.join(r.carry, p)
			r.carry = nil
		}
		switch {
		case p.final:
			r.rest = r.reader(&r.one, p, r.stream(p))
		case p.clean:
			r.games, r.i = p.games, 0
		default:
			r.carry = p
		}
	}
}

// join is a piece that did not end cleanly read again with the next, as
// one text, on Next's goroutine.
func (r *Reader) join(a, b *piece) *piece {
	p := &piece{text: append(append(make([]byte, 0, len(a.text)+len(b.text)), a.text...), b.text...), at: a.at, first: a.first}
	r.read(&r.one, p)
	return p
}

// stream is the text of p and of every piece after it, then the final
// piece's tail: the rest of the stream, for one reader.
func (r *Reader) stream(p *piece) io.Reader { return &rest{r: r, p: p, cur: p.text} }

// rest reads the texts of the pieces from p on, in order, then the final
// piece's tail.
type rest struct {
	r   *Reader
	p   *piece
	cur []byte
}

func (s *rest) Read(b []byte) (int, error) {
	for len(s.cur) == 0 {
		if s.p.final {
			return s.p.tail.Read(b)
		}
		p, ok := <-s.r.ready
		if !ok {
			return 0, io.EOF // Close was called
		}
		s.p, s.cur = p, p.text
	}
	n := copy(b, s.cur)
	s.cur = s.cur[n:]
	return n, nil
}

// Close stops the goroutines, after the read of the stream in progress
// returns. The stream is not closed.
func (r *Reader) Close() {
	if !r.started {
		return
	}
	r.cancel()
	for range r.ready {
	}
	<-r.done
}

func (r *Reader) start() {
	r.started = true
	ctx, cancel := context.WithCancel(context.Background())
	r.cancel = cancel
	r.ready = make(chan *piece)
	r.done = make(chan struct{})
	work := func(context.Context) func(*piece) *piece {
		var rd record.Reader
		return func(p *piece) *piece {
			if !p.final {
				r.read(&rd, p)
			}
			return p
		}
	}
	give := func(p *piece) error {
		select {
		case r.ready <- p:
			return nil
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	go func() {
		defer close(r.done)
		defer close(r.ready)
		o := pipeline.Options{Workers: r.workers, Window: 2 * r.workers}
		pipeline.Run(ctx, o, r.cut, work, give)
	}()
}

// reader positions rd at p's start, reading src.
func (r *Reader) reader(rd *record.Reader, p *piece, src io.Reader) *record.Reader {
	if p.first {
		rd.Reset(src, r.file)
	} else {
		rd.ResetAt(src, p.at)
	}
	rd.SetMaxRecord(r.max)
	return rd
}

// read reads the games of a piece that is not the last, and whether it
// ended cleanly: its last game read without error up to a termination
// marker, and nothing after it.
func (r *Reader) read(rd *record.Reader, p *piece) {
	r.reader(rd, p, bytes.NewReader(p.text))
	p.games = p.games[:0]
	for {
		g, err := rd.Next()
		if g == nil && err != nil {
			// io.EOF: a bytes.Reader has no other error.
			break
		}
		p.games = append(p.games, game{g, err})
	}
	n := len(p.games)
	p.clean = n > 0 && p.games[n-1].err == nil && p.games[n-1].g.Result != ""
}

// cut reads the stream and emits its pieces, the last one final.
func (r *Reader) cut(ctx context.Context, emit func(*piece) error) error {
	at := record.Pos{File: r.file, Line: 1}
	buf := make([]byte, 0, 2*r.size)
	first := true
	for {
		var err error
		buf, err = fill(r.src, buf, r.size)
		if first && unsure(buf) {
			return emit(&piece{text: buf, at: at, first: true, final: true, tail: r.src})
		}
		if err != nil {
			return emit(&piece{text: buf, at: at, first: first, final: true, tail: endOf(err)})
		}
		k := cutAt(buf)
		if k < 0 && len(buf) < maxHeld {
			continue
		}
		if k < 0 || !utf8.Valid(buf[:k]) {
			return emit(&piece{text: buf, at: at, first: first, final: true, tail: r.src})
		}
		p := &piece{text: buf[:k], at: at, first: first}
		at = advance(at, buf[:k])
		next := make([]byte, len(buf)-k, max(2*r.size, len(buf)-k+r.size))
		copy(next, buf[k:])
		buf, first = next, false
		if err := emit(p); err != nil {
			return err
		}
	}
}

// fill reads src into buf until it holds n more bytes, or src ends or
// fails (the error: io.EOF at the end).
func fill(src io.Reader, buf []byte, n int) ([]byte, error) {
	want := len(buf) + n
	for len(buf) < want {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		k, err := src.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+k]
		if err != nil {
			return buf, err
		}
	}
	return buf, nil
}

// endOf is what follows the last piece: nothing at io.EOF, else the error
// again and again, as the stream gives it.
func endOf(err error) io.Reader {
	if errors.Is(err, io.EOF) {
		return bytes.NewReader(nil)
	}
	return errReader{err}
}

type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) { return 0, e.err }

// unsure reports whether the stream starts with a byte-order mark or
// UTF-16 text, which record.Reader decodes from the stream's start.
func unsure(b []byte) bool {
	switch {
	case len(b) >= 3 && b[0] == 0xEF && b[1] == 0xBB && b[2] == 0xBF:
		return true
	case len(b) >= 2 && (b[0] == 0xFF && b[1] == 0xFE || b[0] == 0xFE && b[1] == 0xFF):
		return true
	case len(b) >= 4 && (b[1] == 0 && b[3] == 0 || b[0] == 0 && b[2] == 0):
		return true
	}
	return false
}

// advance is the position after text, which starts at p and ends with a
// line end: the lines counted as record.Reader counts them.
func advance(p record.Pos, text []byte) record.Pos {
	lines := bytes.Count(text, []byte{'\n'})
	for i := bytes.IndexByte(text, '\r'); i >= 0; {
		if i+1 >= len(text) || text[i+1] != '\n' {
			lines++
		}
		j := bytes.IndexByte(text[i+1:], '\r')
		if j < 0 {
			break
		}
		i += 1 + j
	}
	p.Line += lines
	p.Offset += int64(len(text))
	return p
}

// cutAt is the last place in b where a piece may end (see the package
// doc), or -1.
func cutAt(b []byte) int {
	for i := len(b) - 1; i > 0; i-- {
		i = bytes.LastIndex(b[:i+1], []byte("\n["))
		if i < 0 {
			return -1
		}
		if afterResult(b[:i]) {
			return i + 1
		}
	}
	return -1
}

// afterResult reports whether b ends with a line whose last word is a
// termination marker, then only blank space, on a line without ';', '"'
// or a leading '%'.
func afterResult(b []byte) bool {
	end := len(b)
	for end > 0 && isBlank(b[end-1]) {
		end--
	}
	start := end
	for start > 0 && !isBlank(b[start-1]) {
		start--
	}
	if start == end || !isResult(b[start:end]) {
		return false
	}
	ls := bytes.LastIndexAny(b[:start], "\r\n") + 1
	line := b[ls:end]
	return !bytes.ContainsAny(line, ";\"") && !bytes.HasPrefix(bytes.TrimLeft(line, " \t"), []byte("%"))
}

func isBlank(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }

// isResult reports whether w is a termination marker in a spelling that
// record.Reader reads (record.IsResult's, a colon for the dash, ½-½). A
// word it takes for one that is not makes the piece's last game end
// without a marker: the piece is then read again with the next.
func isResult(w []byte) bool {
	switch len(w) {
	case 1, 3, 7:
		s := []byte(string(w))
		if i := bytes.IndexByte(s, ':'); i >= 0 {
			s[i] = '-'
		}
		return record.IsResult(string(s))
	case 5:
		return string(w) == "½-½" || string(w) == "½:½"
	}
	return false
}
