package record_test

import (
	"errors"
	"io"
	"runtime"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/plateau/plateau/record"
)

// readLimited reads every game of src with a size limit, returning the
// games read without error and the errors.
func readLimited(t *testing.T, src io.Reader, limit int64) ([]*record.Game, []error) {
	t.Helper()
	r := record.NewReader(src, "t.pdn")
	r.SetMaxRecord(limit)
	var gs []*record.Game
	var errs []error
	for i := 0; i < 100000; i++ {
		g, err := r.Next()
		if errors.Is(err, io.EOF) {
			return gs, errs
		}
		if g == nil {
			t.Fatalf("nil game with %v", err)
		}
		if err != nil {
			errs = append(errs, err)
			continue
		}
		gs = append(gs, g)
	}
	t.Fatal("reader does not end")
	return nil, nil
}

// repeatReader yields head, then body repeated until n bytes in all, then
// tail, without holding them.
type repeatReader struct {
	head, body, tail string
	n                int64
	i                int64
}

func (r *repeatReader) Read(p []byte) (int, error) {
	k := 0
	for k < len(p) {
		switch {
		case r.i < int64(len(r.head)):
			c := copy(p[k:], r.head[r.i:])
			k += c
			r.i += int64(c)
		case r.i < r.n:
			o := (r.i - int64(len(r.head))) % int64(len(r.body))
			c := copy(p[k:], r.body[o:])
			c = int(min(int64(c), r.n-r.i))
			k += c
			r.i += int64(c)
		case r.i < r.n+int64(len(r.tail)):
			c := copy(p[k:], r.tail[r.i-r.n:])
			k += c
			r.i += int64(c)
		default:
			if k == 0 {
				return 0, io.EOF
			}
			return k, nil
		}
	}
	return k, nil
}

func TestRecordLimit(t *testing.T) {
	const limit = 4 << 10
	next := "\n[Event \"next\"]\n1. e4 *\n"
	for _, tc := range []struct {
		name string
		src  io.Reader
		line int    // of the error
		msg  string // in the error
	}{
		{"many moves", &repeatReader{head: "[Event \"big\"]\n1. e4 ", body: "32-28 {a comment of some length, long enough to weigh more than its count}\n", n: 1 << 20, tail: " *" + next}, 1, "record larger than 4 KiB"},
		{"many short tokens", &repeatReader{head: "[Event \"big\"]\n", body: "a ", n: 1 << 20, tail: " *" + next}, 1, "moves, comments and other tokens"},
		{"one huge comment", &repeatReader{head: "\n[Event \"big\"]\n1. e4 {", body: "blah blah\n", n: 1 << 20, tail: "} *" + next}, 2, "record larger than 4 KiB"},
		{"one huge line", &repeatReader{head: "1. e4 ", body: strings.Repeat("x", 100) + "(", n: 3 << 20, tail: next}, 1, "record larger than 4 KiB"},
		{"no result, next at tag", &repeatReader{head: "1. e4 ", body: "e5 e4 ", n: 1 << 20, tail: next}, 1, "more than 128 moves"},
		{"huge tag section", &repeatReader{head: "[A \"x\"]", body: "[B \"y\"]", n: 1 << 20, tail: "\n1. e4 *\n\n[Event \"next\"]\n1. e4 *"}, 1, "tokens"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			gs, errs := readLimited(t, tc.src, limit)
			var tooLarge []error
			for _, err := range errs {
				if errors.Is(err, record.ErrTooLarge) {
					tooLarge = append(tooLarge, err)
				}
			}
			if len(tooLarge) != 1 {
				t.Fatalf("errors %d (too large %d), want one too large: %v", len(errs), len(tooLarge), errs)
			}
			var se *record.Error
			if !errors.As(tooLarge[0], &se) || !errors.Is(tooLarge[0], record.ErrSyntax) {
				t.Fatalf("%v is not a record.Error", tooLarge[0])
			}
			if se.Pos.Line != tc.line || !strings.Contains(se.Msg, tc.msg) || len(se.Error()) > 200 {
				t.Errorf("error %q, want line %d and %q", se, tc.line, tc.msg)
			}
			if len(gs) == 0 || gs[len(gs)-1].Tag("Event") != "next" || texts(gs[len(gs)-1].Moves)[0] != "e4" {
				t.Errorf("the game after the large one is not read: %d games", len(gs))
			}
		})
	}
}

func TestRecordLimitKeepsTags(t *testing.T) {
	src := "[Event \"big\"]\n[Site \"s\"]\n1. " + strings.Repeat("32-28 ", 1000) + "*\n[Event \"small\"]\n1. 32-28 *\n"
	r := record.NewReader(strings.NewReader(src), "t.pdn")
	r.SetMaxRecord(1 << 10)
	g, err := r.Next()
	if !errors.Is(err, record.ErrTooLarge) || g == nil || g.Tag("Site") != "s" || len(g.Moves) != 0 {
		t.Fatalf("got %v, %v", g, err)
	}
	g, err = r.Next()
	if err != nil || g.Tag("Event") != "small" || len(g.Moves) != 1 {
		t.Fatalf("next game: %v, %v", g, err)
	}
	if _, err := r.Next(); err != io.EOF {
		t.Fatalf("want EOF, got %v", err)
	}
	// Under the limit: read whole.
	r = record.NewReader(strings.NewReader(src), "t.pdn")
	if g, err := r.Next(); err != nil || len(g.Moves) != 1000 || r.MaxRecord() != record.DefaultMaxRecord {
		t.Fatalf("default limit: %v", err)
	}
}

func TestLongLineNumbers(t *testing.T) {
	// Lines longer than the 1 MiB pieces keep later line numbers right,
	// and a rune cut at a piece boundary stays one rune.
	long := strings.Repeat("é", (1<<20)/2+7) // 2 bytes a rune, odd piece cut
	for _, sep := range []string{"\n", "\r\n", "\r"} {
		src := "[Event \"" + "x" + "\"]" + sep + "{" + long + long + "}" + sep + "1. e4" + sep + "e5 *" + sep
		r := record.NewReader(strings.NewReader(src), "t.pdn")
		r.SetMaxRecord(64 << 20)
		g, err := r.Next()
		if err != nil {
			t.Fatalf("%q: %v", sep, err)
		}
		if len(g.Intro) != 1 || g.Intro[0] != long+long || !utf8.ValidString(g.Intro[0]) {
			t.Fatalf("%q: comment changed (%d bytes)", sep, len(g.Intro[0]))
		}
		if l := g.Moves[0].Pos.Line; l != 3 {
			t.Errorf("%q: e4 on line %d, want 3", sep, l)
		}
		if l := g.Moves[1].Pos.Line; l != 4 {
			t.Errorf("%q: e5 on line %d, want 4", sep, l)
		}
	}
	// A move after a 3 MiB line of blanks: line 2, and its column counts
	// from the start of the long line.
	src := strings.Repeat(" ", 3<<20) + "e4\ne5 *"
	g := one(t, src)
	if p := g.Moves[0].Pos; p.Line != 1 || p.Col != 3<<20+1 {
		t.Errorf("e4 at %v", p)
	}
	if p := g.Moves[1].Pos; p.Line != 2 || p.Col != 1 {
		t.Errorf("e5 at %v", p)
	}
	// An escape line is recognised only at a real line start.
	src = strings.Repeat(" ", 1<<20) + "%x\n%comment\ne4 *"
	g = one(t, src)
	if texts(g.Moves)[0] != "%x" || len(g.Moves) != 2 {
		t.Errorf("moves %q", texts(g.Moves))
	}
}

func TestClip(t *testing.T) {
	for _, tc := range []struct {
		s    string
		n    int
		want string
	}{
		{"abc", 3, "abc"},
		{"abcd", 3, "abc…"},
		{"ééé", 3, "é…"},
		{"", 0, ""},
	} {
		if got := record.Clip(tc.s, tc.n); got != tc.want {
			t.Errorf("Clip(%q, %d) = %q, want %q", tc.s, tc.n, got, tc.want)
		}
	}
	if got := record.Size(4 << 20); got != "4 MiB" {
		t.Errorf("Size = %q", got)
	}
}

func TestLongTextInMessages(t *testing.T) {
	long := strings.Repeat("N", 1<<20)
	// A tag name of 1 MiB reads whole (a record is read the same wherever
	// its long lines are cut); its pair's error quotes a piece of it.
	_, errs := readAll(t, "["+long+" \"x\" y]\n1. e4 *")
	if len(errs) != 1 || len(errs[0].Error()) > 200 {
		t.Fatalf("errors %d, first %d bytes", len(errs), len(errs[0].Error()))
	}
	w := long[:300]
	got := record.ClipWords("a "+w+" b "+w, 10)
	if got != "a NNNNNNNNNN… b NNNNNNNNNN…" {
		t.Errorf("ClipWords = %q", got)
	}
	if got := record.ClipWords("short words stay", 10); got != "short words stay" {
		t.Errorf("ClipWords = %q", got)
	}
}

// Games of one move with a large comment each: the reader keeps none of
// them once the caller drops them (its block of moves is not shared with
// later games).
func TestLargeGamesNotRetained(t *testing.T) {
	comment := "{" + strings.Repeat("x", 1<<20) + "}\n"
	src := &repeatReader{body: "[Event \"e\"]\n1. e4 " + comment + "*\n", n: 40 * int64(len(comment)+30)}
	r := record.NewReader(src, "t.pdn")
	var ms runtime.MemStats
	var peak uint64
	for n := 0; ; n++ {
		g, err := r.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil && !strings.Contains(err.Error(), "not closed") {
			t.Fatal(err)
		}
		if n%8 == 7 {
			runtime.GC()
			runtime.ReadMemStats(&ms)
			peak = max(peak, ms.HeapAlloc)
		}
		_ = g
	}
	if peak > 24<<20 {
		t.Errorf("heap %d MB after 40 games of 1 MiB: games are retained", peak>>20)
	}
}
