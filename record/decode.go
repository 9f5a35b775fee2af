package record

import (
	"bufio"
	"bytes"
	"io"
	"unicode/utf8"

	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/unicode"
	"golang.org/x/text/transform"
)

// maxLine bounds the bytes held for one physical line; a longer line is
// handed on in pieces of this size, so that even a file without line ends is
// read in bounded memory.
const maxLine = 1 << 20

// lineReader splits a byte stream into lines of UTF-8 text. It strips a
// UTF-8 byte-order mark, decodes UTF-16 (with a BOM, or detected from NUL
// bytes), accepts LF, CRLF and lone CR line ends, and makes every line that
// is not valid UTF-8 valid as Decode does: UTF-8 with its invalid bytes
// replaced (bad counts them), or Windows-1252.
type lineReader struct {
	br      *bufio.Reader
	acc     []byte // the raw physical line being assembled
	rest    []byte // what remains of acc to split at lone CRs
	restEnd int    // length of the terminator after rest (0, 1 or 2)
	dec     []byte // decoding buffer for lines that are not valid UTF-8
	bad     int    // bytes of the line last returned replaced by U+FFFD
	badCol  int    // 0-based column of the first of them in that line
	carry   []byte // bytes held back from a cut piece, for the next one
	cut     bool   // rest is a piece of a longer line (cut at maxLine)
	piece   int    // the size of a piece, if not maxLine (tests cut lines short)
	cont    bool   // the next fill continues the line last returned
	col     int    // column where the continuation starts
	started bool
	line    int   // number of the last line returned (1-based)
	off     int64 // offset of the next line
	err     error
}

func (lr *lineReader) reset(src io.Reader) {
	if lr.br == nil {
		lr.br = bufio.NewReaderSize(src, 64<<10)
	} else {
		lr.br.Reset(src)
	}
	lr.acc = lr.acc[:0]
	lr.rest = nil
	lr.restEnd = 0
	lr.carry = lr.carry[:0]
	lr.cut, lr.cont, lr.col = false, false, 0
	lr.started = false
	lr.line = 0
	lr.off = 0
	lr.err = nil
}

// start sniffs the encoding from the first bytes.
func (lr *lineReader) start() {
	lr.started = true
	b, _ := lr.br.Peek(4)
	var enc transform.Transformer
	switch {
	case len(b) >= 3 && b[0] == 0xEF && b[1] == 0xBB && b[2] == 0xBF:
		lr.br.Discard(3)
		lr.off = 3
		return
	case len(b) >= 2 && b[0] == 0xFF && b[1] == 0xFE:
		enc = unicode.UTF16(unicode.LittleEndian, unicode.ExpectBOM).NewDecoder()
	case len(b) >= 2 && b[0] == 0xFE && b[1] == 0xFF:
		enc = unicode.UTF16(unicode.BigEndian, unicode.ExpectBOM).NewDecoder()
	case len(b) >= 4 && b[0] != 0 && b[1] == 0 && b[2] != 0 && b[3] == 0:
		enc = unicode.UTF16(unicode.LittleEndian, unicode.IgnoreBOM).NewDecoder()
	case len(b) >= 4 && b[0] == 0 && b[1] != 0 && b[2] == 0 && b[3] != 0:
		enc = unicode.UTF16(unicode.BigEndian, unicode.IgnoreBOM).NewDecoder()
	default:
		return
	}
	// Wrap the buffered stream in a UTF-16 decoder: the rest is UTF-8.
	lr.br = bufio.NewReaderSize(transform.NewReader(lr.br, enc), 64<<10)
}

// next returns the next line without its terminator, its 1-based number,
// the 0-based byte column of its first byte (not 0 only for the second and
// later pieces of a line longer than maxLine) and the offset of its first
// byte. The slice is valid until the next call. At the end it returns io.EOF
// (or the underlying read error).
func (lr *lineReader) next() (line []byte, n, col int, off int64, err error) {
	if !lr.started {
		lr.start()
	}
	first := false // line is the first segment of a fill
	if lr.rest == nil {
		if lr.err != nil {
			return nil, lr.line, 0, lr.off, lr.err
		}
		if err := lr.fill(); err != nil {
			lr.err = err
			return nil, lr.line, 0, lr.off, err
		}
		first = true
	}
	// Split rest at the first lone CR.
	raw := lr.rest
	term := lr.restEnd
	if i := bytes.IndexByte(raw, '\r'); i >= 0 {
		raw = lr.rest[:i]
		lr.rest = lr.rest[i+1:]
		term = -1
	}
	last := term >= 0 // the last segment of the fill
	if last {
		lr.rest = nil
	} else {
		term = 1
	}
	line = raw
	lr.bad = 0
	if !utf8.Valid(raw) {
		lr.dec, lr.bad, lr.badCol = appendText(lr.dec[:0], raw)
		line = lr.dec
	}
	if first && lr.cont {
		// The rest of a line cut at maxLine: same number, later columns.
		col = lr.col
	} else {
		lr.line++
		lr.col = 0
	}
	lr.cont = false
	if last && lr.cut {
		lr.cont = true
		lr.col = col + len(line)
	}
	off = lr.off
	lr.off += int64(len(line) + term)
	return line, lr.line, col, off, nil
}

// fill reads the next physical line (up to LF, or about maxLine bytes, or
// EOF) into rest. A line cut at maxLine is cut before a rune or CR that
// could continue in the next piece; cut reports it. A line read whole in
// the buffered reader's buffer is not copied: rest is in that buffer, valid
// until the next fill.
func (lr *lineReader) fill() error {
	lr.acc = append(lr.acc[:0], lr.carry...)
	lr.carry = lr.carry[:0]
	lr.cut = false
	size := maxLine
	if lr.piece > 0 {
		size = lr.piece
	}
	for {
		if len(lr.acc) >= size {
			// No line end in acc (the carry from the last piece, and
			// chunks that filled the buffer): cut a piece.
			n := cutPoint(lr.acc[:size])
			if n == 0 {
				n = size
			}
			lr.carry = append(lr.carry, lr.acc[n:]...)
			lr.rest = lr.acc[:n]
			lr.restEnd = 0
			lr.cut = true
			return nil
		}
		chunk, err := lr.br.ReadSlice('\n')
		if err == nil {
			if len(lr.acc) > 0 {
				lr.acc = append(lr.acc, chunk...)
				chunk = lr.acc
			}
			n := len(chunk) - 1
			lr.restEnd = 1
			if n > 0 && chunk[n-1] == '\r' {
				n--
				lr.restEnd = 2
			}
			lr.rest = chunk[:n]
			return nil
		}
		lr.acc = append(lr.acc, chunk...)
		if err == bufio.ErrBufferFull {
			continue
		}
		if len(lr.acc) > 0 {
			lr.rest = lr.acc
			lr.restEnd = 0
			if err == io.EOF {
				return nil
			}
			// Hand on what was read; the error comes next time.
			lr.err = err
			return nil
		}
		return err
	}
}

// cutPoint is where to cut a long piece of a line: after its last blank
// (so that a token is not cut in two) when there is one in the last 64 KiB,
// else before a trailing CR (it may start a CRLF) and before an incomplete
// UTF-8 sequence.
func cutPoint(b []byte) int {
	n := len(b)
	for k := n - 1; k >= 0 && k >= n-64<<10; k-- {
		if b[k] == ' ' || b[k] == '\t' {
			return k + 1
		}
	}
	for k := n - 1; k >= 0 && k >= n-utf8.UTFMax; k-- {
		if utf8.RuneStart(b[k]) {
			if b[k] >= utf8.RuneSelf && !utf8.FullRune(b[k:n]) {
				n = k
			}
			break
		}
	}
	if n > 0 && b[n-1] == '\r' {
		n--
	}
	return n
}

// Decode is s as valid UTF-8, as the Reader reads a line that is not valid:
// when s holds a UTF-8 character other than ASCII, it is UTF-8 with a few
// bytes damaged, and each byte that is no part of a valid character is
// replaced by U+FFFD (replaced counts them); when it holds none, its bytes
// are Windows-1252 (Latin-1 and its 0x80–0x9F punctuation) and are
// converted. A valid s is returned as it is.
func Decode(s string) (text string, replaced int) {
	if utf8.ValidString(s) {
		return s, 0
	}
	b, n, _ := appendText(make([]byte, 0, len(s)+8), []byte(s))
	return string(b), n
}

// appendText appends raw, which is not valid UTF-8, to dst as Decode
// makes it valid; bad is the number of bytes replaced by U+FFFD and col the
// 0-based column in the result of the first.
func appendText(dst, raw []byte) (out []byte, bad, col int) {
	if !hasUTF8(raw) {
		for _, c := range raw {
			if c < utf8.RuneSelf {
				dst = append(dst, c)
				continue
			}
			dst = utf8.AppendRune(dst, charmap.Windows1252.DecodeByte(c))
		}
		return dst, 0, 0
	}
	start := len(dst)
	for i := 0; i < len(raw); {
		r, n := utf8.DecodeRune(raw[i:])
		if r == utf8.RuneError && n == 1 {
			if bad == 0 {
				col = len(dst) - start
			}
			bad++
		}
		dst = utf8.AppendRune(dst, r)
		i += n
	}
	return dst, bad, col
}

// hasUTF8 reports whether b holds a valid UTF-8 encoding of a character
// other than ASCII.
func hasUTF8(b []byte) bool {
	for i := 0; i < len(b); {
		if b[i] < utf8.RuneSelf {
			i++
			continue
		}
		r, n := utf8.DecodeRune(b[i:])
		if r != utf8.RuneError || n > 1 {
			return true
		}
		i += n
	}
	return false
}
