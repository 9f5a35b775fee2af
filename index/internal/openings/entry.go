package openings

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/plateau/plateau/record"
)

// ErrEntry: an entry of a file of names cannot be read or played.
var ErrEntry = errors.New("bad opening entry")

// An Entry is a named line of moves as a file gives it.
type Entry struct {
	Game  string // ruleset, as the file names it
	Name  string
	FEN   string // start position; "" is the standard one
	Moves []Move
	File  string
	Line  int // the entry's first line
}

// Move is one move of an entry as written, with its line.
type Move struct {
	Text string
	Line int
}

// Error is an entry that cannot be read or played: its file and line,
// and for a move that does not play its number (1-based) and text. It
// wraps ErrEntry and the reason.
type Error struct {
	File string
	Line int
	Move int    // 0 when the entry itself is at fault
	Text string // the move as written
	Err  error
}

func (e *Error) Error() string {
	at := fmt.Sprintf("%s:%d", e.File, e.Line)
	if e.Move > 0 {
		return fmt.Sprintf("%s: move %d %q: %v", at, e.Move, e.Text, e.Err)
	}
	return fmt.Sprintf("%s: %v", at, e.Err)
}

// Unwrap gives ErrEntry and the reason.
func (e *Error) Unwrap() []error { return []error{ErrEntry, e.Err} }

// Read reads the entries of a file of names: records when its first line
// that is neither blank nor a # comment starts with "[", tab-separated
// lines otherwise. It keeps going after a bad entry: errs lists them (as
// *Error, or a reading error last).
func Read(r io.Reader, file string) (es []Entry, errs []error) {
	br := bufio.NewReader(r)
	if looksLikeRecords(br) {
		return readRecords(br, file)
	}
	return readLines(br, file)
}

// looksLikeRecords peeks at the first line that says anything.
func looksLikeRecords(br *bufio.Reader) bool {
	for n := 512; ; n *= 2 {
		b, err := br.Peek(n)
		for _, line := range strings.Split(string(b), "\n") {
			t := strings.TrimSpace(strings.TrimPrefix(line, "\ufeff"))
			if t != "" && !strings.HasPrefix(t, "#") {
				return strings.HasPrefix(t, "[")
			}
		}
		if err != nil || n >= 1<<20 {
			return false
		}
	}
}

// readLines reads "ruleset<TAB>name<TAB>moves" lines; blank lines and
// lines starting with # are skipped.
func readLines(br *bufio.Reader, file string) (es []Entry, errs []error) {
	sc := bufio.NewScanner(br)
	sc.Buffer(nil, 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimRight(strings.TrimPrefix(sc.Text(), "\ufeff"), "\r")
		if t := strings.TrimSpace(line); t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) != 3 || strings.TrimSpace(f[0]) == "" || strings.TrimSpace(f[1]) == "" {
			errs = append(errs, &Error{File: file, Line: n, Err: errors.New("want ruleset<TAB>name<TAB>moves")})
			continue
		}
		e := Entry{Game: strings.TrimSpace(f[0]), Name: strings.TrimSpace(f[1]), File: file, Line: n}
		for _, tok := range strings.Fields(f[2]) {
			if !moveNumber(tok) {
				e.Moves = append(e.Moves, Move{Text: tok, Line: n})
			}
		}
		es = append(es, e)
	}
	if err := sc.Err(); err != nil {
		errs = append(errs, fmt.Errorf("%s: %w", file, err))
	}
	return es, errs
}

// moveNumber reports a move number token ("1.", "12...", "3").
func moveNumber(tok string) bool {
	t := strings.TrimRight(tok, ".")
	if t == "" {
		return false
	}
	for _, c := range t {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// readRecords reads records; each names its position by its Opening tag
// (and Variation).
func readRecords(br *bufio.Reader, file string) (es []Entry, errs []error) {
	rd := record.NewReader(br, file)
	for {
		g, err := rd.Next()
		if err == io.EOF {
			return es, errs
		}
		if err != nil {
			var re *record.Error
			if errors.As(err, &re) {
				errs = append(errs, &Error{File: file, Line: re.Pos.Line, Err: err})
				continue
			}
			return es, append(errs, fmt.Errorf("%s: %w", file, err))
		}
		e, err := FromRecord(g, file)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		es = append(es, e)
	}
}

// FromRecord is the entry of a record: its Game tag, its Opening tag
// (with ", Variation" when it has one, after its ECO tag as a code when
// it has one: code.go), its FEN and its main line.
func FromRecord(g *record.Game, file string) (Entry, error) {
	e := Entry{Game: g.Tag("Game"), Name: strings.TrimSpace(g.Tag("Opening")), FEN: g.Tag("FEN"), File: file, Line: g.Pos.Line}
	if v := strings.TrimSpace(g.Tag("Variation")); v != "" && e.Name != "" {
		e.Name += ", " + v
	}
	if code := strings.TrimSpace(g.Tag("ECO")); code != "" && !strings.Contains(code, " ") {
		e.Name = WithCode(code, e.Name)
	}
	switch {
	case e.Name == "":
		return e, &Error{File: file, Line: e.Line, Err: errors.New("the record has no Opening tag")}
	case e.Game == "":
		return e, &Error{File: file, Line: e.Line, Err: errors.New("the record has no Game tag")}
	}
	for _, m := range g.Moves {
		e.Moves = append(e.Moves, Move{Text: m.Text, Line: m.Pos.Line})
	}
	return e, nil
}

// WithTag is a stored game's canonical text with an Opening tag naming
// its opening (without its code) and an ECO tag giving its code (if it
// has one: code.go), unless its tags have an Opening or an ECO tag of
// their own, which are kept as they are: the canonical form writes a tag
// outside the ordered ones after them, where these are added (the last
// lines of the tag section).
func WithTag(text []byte, name string) []byte {
	end := bytes.Index(text, []byte("\n\n"))
	if end < 0 || len(text) == 0 || text[0] != '[' {
		return text
	}
	for _, tag := range []string{"Opening", "ECO"} {
		if bytes.HasPrefix(text, []byte(`[`+tag+` "`)) || bytes.Contains(text[:end], []byte("\n["+tag+" \"")) {
			return text
		}
	}
	code, rest := SplitCode(name)
	esc := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", " ", "\r", " ")
	out := make([]byte, 0, len(text)+len(name)+24)
	out = append(out, text[:end+1]...)
	out = append(out, `[Opening "`...)
	out = append(out, esc.Replace(rest)...)
	out = append(out, "\"]\n"...)
	if code != "" {
		out = append(out, `[ECO "`...)
		out = append(out, esc.Replace(code)...)
		out = append(out, "\"]\n"...)
	}
	return append(out, text[end+1:]...)
}
