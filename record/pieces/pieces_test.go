package pieces

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/plateau/plateau/record"
)

// readAll is every result of a reader's Next up to the end (or 100,000
// calls), each game and error as text: a game in full (%#v of every field,
// its moves followed), an error with its message and position.
func readAll(t *testing.T, next func() (*record.Game, error)) []string {
	t.Helper()
	var out []string
	for range 100000 {
		g, err := next()
		s := ""
		if g != nil {
			s = dump(g)
		}
		if err != nil {
			var se *record.Error
			if errors.As(err, &se) {
				s += fmt.Sprintf(" error %s at %+v (too large: %v)", se.Msg, se.Pos, errors.Is(err, record.ErrTooLarge))
			} else {
				s += " end " + err.Error()
			}
		}
		out = append(out, s)
		if g == nil && err != nil {
			return out
		}
	}
	t.Fatal("no end after 100,000 games")
	return nil
}

// dump is a game as text, every field of it and of its moves.
func dump(g *record.Game) string {
	var b strings.Builder
	fmt.Fprintf(&b, "tags %q intro %q result %q pos %+v warnings %+v evidence %v\n", g.Tags, g.Intro, g.Result, g.Pos, g.Warnings, g.Evidence)
	var line func(l record.Line, depth int)
	line = func(l record.Line, depth int) {
		for _, m := range l {
			fmt.Fprintf(&b, "%*s%q nags %v before %q after %q ply %d pos %+v\n", depth, "", m.Text, m.NAGs, m.Before, m.After, m.Ply, m.Pos)
			for _, v := range m.Variations {
				line(v, depth+1)
			}
		}
	}
	line(g.Moves, 0)
	return b.String()
}

// serial is what one record.Reader reads from text.
func serial(t *testing.T, text []byte, src io.Reader, max int64) []string {
	rd := record.NewReader(src, "f.pdn")
	rd.SetMaxRecord(max)
	return readAll(t, rd.Next)
}

// parallel is what a Reader cutting pieces of size bytes reads from src.
func parallel(t *testing.T, src io.Reader, size, workers int, max int64) []string {
	r := NewReader(src, "f.pdn", workers)
	r.size = size
	r.SetMaxRecord(max)
	defer r.Close()
	return readAll(t, r.Next)
}

// corpus is every record file of the repository's samples, the shared
// corpus and the record package's test data.
func corpus(t *testing.T) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	for _, root := range []string{"../../samples", "../../../shared/corpus", "../testdata"} {
		err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() || strings.HasSuffix(path, ".sgf") || strings.HasSuffix(path, ".md") {
				return err
			}
			b, err := os.ReadFile(path)
			files[path] = b
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if len(files) < 100 {
		t.Fatalf("only %d files in the corpus", len(files))
	}
	return files
}

// TestSameAsReader: for every file of the corpus, cut into pieces of many
// sizes (down to a byte, so that every place that may be cut is cut), on
// one to three workers, the games and errors read are record.Reader's.
func TestSameAsReader(t *testing.T) {
	files := corpus(t)
	sizes := []int{1, 7, 100, 1000, 1 << 14, pieceSize}
	if testing.Short() {
		// .ci/run's race run (-short): the workers meet as they do with
		// the tiny pieces, which the default run reads.
		sizes = []int{1000, pieceSize}
	}
	cuts := 0
	for path, text := range files {
		want := serial(t, text, bytes.NewReader(text), 0)
		for _, size := range sizes {
			for _, workers := range []int{1, 3} {
				got := parallel(t, bytes.NewReader(text), size, workers, 0)
				if !reflect.DeepEqual(got, want) {
					t.Fatalf("%s, pieces of %d bytes, %d workers:\n%s", path, size, workers, firstDiff(got, want))
				}
			}
		}
		cuts += countCuts(text)
	}
	if cuts < 1000 {
		t.Errorf("only %d places to cut in the corpus: the comparison says little", cuts)
	}
}

// countCuts is the number of places a piece may end in text.
func countCuts(text []byte) int {
	n := 0
	for i := bytes.Index(text, []byte("\n[")); i >= 0; {
		if afterResult(text[:i]) {
			n++
		}
		j := bytes.Index(text[i+1:], []byte("\n["))
		if j < 0 {
			break
		}
		i += 1 + j
	}
	return n
}

// TestMixed: files made of the corpus's games and of text that makes a
// cut wrong (a comment, a variation or a string left open, a ';' comment,
// an escape line, a record over the size limit, Windows-1252 and CR line
// ends) are read as record.Reader reads them.
func TestMixed(t *testing.T) {
	var games [][]byte
	for _, text := range corpus(t) {
		for _, g := range bytes.SplitAfter(text, []byte("\n\n[")) {
			if len(g) < 4000 {
				games = append(games, g)
			}
		}
	}
	bad := []string{"{open comment 1-0\n\n", "(1. e4 1-0\n\n", "\"open 1-0\n\n", "; rest 1-0\n\n", "% escape 1-0\n\n",
		"1-0 {x}\n\n", "1:0\n\n", "½-½\n\n", "\r\n\r\n", "\r\r", "caf\xe9 1-0\n\n", "*\n\n[Event \"x\"]\n\n1. e4 *\n\n"}
	r := rand.New(rand.NewPCG(1, 2))
	for round := range 200 {
		var text []byte
		for range 2 + r.IntN(30) {
			if r.IntN(4) == 0 {
				text = append(text, bad[r.IntN(len(bad))]...)
			}
			text = append(text, games[r.IntN(len(games))]...)
		}
		limit := int64(0)
		if round%5 == 0 {
			limit = 300 // some records over the limit
		}
		want := serial(t, text, bytes.NewReader(text), limit)
		for _, size := range []int{1, 50, 400} {
			got := parallel(t, bytes.NewReader(text), size, 2, limit)
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("round %d, pieces of %d bytes:\n%s\ntext:\n%q", round, size, firstDiff(got, want), text)
			}
		}
	}
}

// failing gives its text, then an error.
type failing struct {
	text []byte
	err  error
}

func (f *failing) Read(b []byte) (int, error) {
	if len(f.text) == 0 {
		return 0, f.err
	}
	n := copy(b, f.text[:min(len(f.text), 5)])
	f.text = f.text[n:]
	return n, nil
}

// TestReadError: a stream that fails gives the games before the failure,
// then its error at every call, as record.Reader does.
func TestReadError(t *testing.T) {
	errDisk := errors.New("disk on fire")
	text, err := os.ReadFile("../../samples/ogi/endings.pdn")
	if err != nil {
		t.Fatal(err)
	}
	for _, at := range []int{0, 10, len(text) / 3, len(text) - 1} {
		want := serial(t, nil, &failing{text[:at], errDisk}, 0)
		got := parallel(t, &failing{text[:at], errDisk}, 100, 2, 0)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("failing after %d bytes:\n%s", at, firstDiff(got, want))
		}
		r := NewReader(&failing{text[:at], errDisk}, "f.pdn", 2)
		readAll(t, r.Next)
		if _, err := r.Next(); !errors.Is(err, errDisk) {
			t.Errorf("after the end: %v, want the stream's error again", err)
		}
		r.Close()
	}
}

// TestClose: a Reader closed before its end leaves no goroutine.
func TestClose(t *testing.T) {
	text, err := os.ReadFile("../../samples/ogi/endings.pdn")
	if err != nil {
		t.Fatal(err)
	}
	before := runtime.NumGoroutine()
	for range 20 {
		r := NewReader(bytes.NewReader(bytes.Repeat(text, 20)), "f.pdn", 3)
		r.size = 500
		if g, err := r.Next(); g == nil || err != nil {
			t.Fatalf("first game: %v", err)
		}
		r.Close()
	}
	NewReader(bytes.NewReader(text), "f.pdn", 2).Close() // never read
	deadline := time.Now().Add(2 * time.Second)
	for runtime.NumGoroutine() > before {
		if time.Now().After(deadline) {
			t.Fatalf("%d goroutines left, %d before", runtime.NumGoroutine(), before)
		}
		time.Sleep(time.Millisecond)
	}
}

// TestCutAt: where a piece may end, and where not.
func TestCutAt(t *testing.T) {
	for _, tc := range []struct {
		text string
		want int
	}{
		{"[A \"1\"]\n1. e4 1-0\n\n[B \"2\"]\n", 19},
		{"1. e4 1-0\n[B \"2\"]\n", 10},
		{"1. e4 1/2-1/2 \r\n\r\n[B \"2\"]\n", 18},
		{"1. e4 1:0\n\n[B", 11},
		{"1. e4 ½-½\n\n[B", 13},
		{"1. e4 *\n\n[B", 9},
		{"1. e4 e5\n\n[B", -1},              // no marker
		{"1. e4 ; a comment 1-0\n\n[B", -1}, // the marker may be the comment's
		{"% 1-0\n\n[B", -1},                 // an escape line
		{"[Result \"1-0\"]\n[B", -1},        // a tag
		{"1. e4 1-0\n\nB", -1},              // no '[' at the line's start
		{"1-0\n[A\n1. e4\n[B", 4},           // the last place that may be cut
	} {
		if got := cutAt([]byte(tc.text)); got != tc.want {
			t.Errorf("cutAt(%q) = %d, want %d", tc.text, got, tc.want)
		}
	}
}

// TestAdvance: lines are counted as record.Reader counts them.
func TestAdvance(t *testing.T) {
	for _, tc := range []struct {
		text  string
		lines int
	}{
		{"a\n", 1}, {"a\r\n", 1}, {"a\rb\n", 2}, {"a\r\rb\r\n", 3}, {"\n\n\n", 3}, {"a\r", 1},
	} {
		p := advance(record.Pos{Line: 1, Offset: 5}, []byte(tc.text))
		if p.Line != 1+tc.lines || p.Offset != int64(5+len(tc.text)) {
			t.Errorf("advance over %q: line %d offset %d, want %d and %d", tc.text, p.Line, p.Offset, 1+tc.lines, 5+len(tc.text))
		}
	}
}

// firstDiff is the first result where two reads differ.
func firstDiff(got, want []string) string {
	for i := range min(len(got), len(want)) {
		if got[i] != want[i] {
			return fmt.Sprintf("result %d:\n got  %s\n want %s", i+1, got[i], want[i])
		}
	}
	return fmt.Sprintf("%d results, want %d", len(got), len(want))
}
