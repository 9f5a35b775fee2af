package sgf_test

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/plateau/plateau/importers/sgf"
	"github.com/plateau/plateau/record"
)

func TestParse(t *testing.T) {
	src := `(;FF[4]GM[1]EV[Cup \] final]PB[Black\\Man]PW[White]DT[2020-04-10]RE[W+34.5]C[root
 comment]AB[pd][dp]
;B[qd]C[first]
;W[dp]
(;B[pp]C[main \
line])
(;B[cc];W[]C[pass])
(;C[no move];B[dd]))
(;GaMe[1]PlayerBlack[hi]PlayerWhite[ka]Black[ff];White[tt])`
	gs, err := sgf.ReadAll(strings.NewReader(src), "t.sgf")
	if err != nil {
		t.Fatal(err)
	}
	if len(gs) != 2 {
		t.Fatalf("%d games", len(gs))
	}
	g := gs[0]
	wantTags := []record.Tag{
		{Name: "SGF_FF", Value: "4"}, {Name: "SGFGame", Value: "1"}, {Name: "Event", Value: "Cup ] final"}, {Name: "Black", Value: `Black\Man`}, {Name: "White", Value: "White"},
		{Name: "Date", Value: "2020.04.10"}, {Name: "Result", Value: "0-1"}, {Name: "SGFResult", Value: "W+34.5"}, {Name: "SGF_AB", Value: "pd,dp"},
	}
	if !reflect.DeepEqual(g.Tags, wantTags) {
		t.Errorf("tags %v\nwant %v", g.Tags, wantTags)
	}
	if !reflect.DeepEqual(g.Intro, []string{"root comment"}) {
		t.Errorf("intro %q", g.Intro)
	}
	var main []string
	for _, m := range g.Moves {
		main = append(main, m.Text)
	}
	if !reflect.DeepEqual(main, []string{"B:qd", "W:dp", "B:pp"}) {
		t.Fatalf("main line %q", main)
	}
	pp := g.Moves[2]
	if pp.Ply != 2 || !reflect.DeepEqual(pp.After, []string{"main line"}) {
		t.Errorf("B:pp ply %d after %q", pp.Ply, pp.After)
	}
	if len(pp.Variations) != 2 {
		t.Fatalf("variations %d", len(pp.Variations))
	}
	v0, v1 := pp.Variations[0], pp.Variations[1]
	if v0[0].Text != "B:cc" || v0[1].Text != "W:pass" || v0[1].Ply != 3 || v0[1].After[0] != "pass" {
		t.Errorf("variation 1: %+v %+v", v0[0], v0[1])
	}
	if v1[0].Text != "B:dd" || !reflect.DeepEqual(v1[0].Before, []string{"no move"}) {
		t.Errorf("variation 2: %+v", v1[0])
	}
	// FF[1] long names.
	g = gs[1]
	if g.Tag("Black") != "hi" || g.Tag("White") != "ka" || g.Tag("SGFGame") != "1" || len(g.Moves) != 2 || g.Moves[1].Text != "W:pass" {
		t.Errorf("FF[1] game: %v %v", g.Tags, g.Moves)
	}
	// The canonical record form reads back.
	for _, g := range gs {
		text := record.Format(g)
		g2, err := record.NewReader(bytes.NewReader(text), "x").Next()
		if err != nil || !bytes.Equal(record.Format(g2), text) {
			t.Errorf("record round trip: %v\n%s", err, text)
		}
	}
}

func TestUnclosedValue(t *testing.T) {
	_, err := sgf.ReadAll(strings.NewReader("(;B[aa)"), "u.sgf")
	var se *record.Error
	if !errors.As(err, &se) || se.Pos.Line != 1 || se.Pos.Col != 4 {
		t.Fatalf("got %v, want an error at 1:4", err)
	}
}

func TestErrors(t *testing.T) {
	tests := []struct {
		src       string
		line, col int
	}{
		{"(;B[aa]", 1, 1},
		{"(;B[aa];W[bb](;B[cc]);W[dd])", 1, 22},
		{"(B[aa])", 1, 2},
		{"(;B)", 1, 3},
		{"(;1)", 1, 3},
	}
	for _, tt := range tests {
		r, err := sgf.NewReader(strings.NewReader(tt.src+"\n(;B[ee])"), "e.sgf")
		if err != nil {
			t.Fatal(err)
		}
		_, err = r.Next()
		var se *record.Error
		if !errors.As(err, &se) || !errors.Is(err, record.ErrSyntax) || se.Pos.Line != tt.line || se.Pos.Col != tt.col {
			t.Errorf("%q: %v, want an error at %d:%d", tt.src, err, tt.line, tt.col)
			continue
		}
		// The next game is still read (unless the error swallowed it).
		g, err := r.Next()
		if err == nil && g.Moves[0].Text != "B:ee" {
			t.Errorf("%q: next game %v", tt.src, g.Moves)
		}
	}
}

func TestCorpus(t *testing.T) {
	dir := "../../../shared/corpus/sgf"
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("corpus directory %s is missing (%v): SGF corpus test skipped", dir, err)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.sgf"))
	want := map[string]int{"xmgt97.sgf": 1, "ogs.sgf": 1, "panda1.sgf": 1}
	for _, f := range files {
		fh, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		r, err := sgf.NewReader(fh, f)
		fh.Close()
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for {
			g, err := r.Next()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				t.Errorf("%v", err)
				continue
			}
			n++
			if len(g.Moves) < 10 || g.Tag("SGFGame") != "1" || g.Tag("Black") == "" {
				t.Errorf("%s: %d moves, tags %v", f, len(g.Moves), g.Tags)
			}
			t.Logf("%s: %d moves, %s vs %s, %s", filepath.Base(f), len(g.Moves), g.Tag("Black"), g.Tag("White"), g.Tag("Result"))
		}
		if w, ok := want[filepath.Base(f)]; ok && n != w {
			t.Errorf("%s: %d games, want %d", f, n, w)
		}
	}
}

// FuzzReader: the reader ends, and every record it returns (a game, or
// the error of one) starts at a game tree of the collection's top level,
// each after the last: a nested tree is never read as a game of its own.
func FuzzReader(f *testing.F) {
	f.Add([]byte("(;FF[4]C[a\\]b](;B[aa])(;W[bb]C[x]))"))
	f.Add([]byte("(;GaMe[1];Black[ff](;White[tt]))"))
	f.Add([]byte("(;GM[1]" + strings.Repeat("(;B[aa]", 1000) + strings.Repeat(")", 1001) + "(;W[bb])"))
	f.Add([]byte("(;GM[1](;B[aa](;W[bb]x(;B[cc])(;W[dd]))))(;GM[1];B[cc])"))
	f.Add([]byte("(;GM[1];B[aa](;W[bb]);B[cc](;W[dd])(;B[ee]))x[(;B[aa])"))
	f.Add([]byte("(;EV[\xc5\x8csaka \xff]PC[M\xfcnchen];B[\xe9\xff]C[\xc3\xa9 \xfe])"))
	f.Add([]byte("\xef\xbb\xbf(;GM[1];B[aa])\n(;B)(;W[bb])"))
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := sgf.NewReader(bytes.NewReader(data), "f")
		if err != nil {
			return
		}
		body, bom := bytes.CutPrefix(data, []byte("\xef\xbb\xbf"))
		starts := map[int64]bool{} // offsets in the file, a BOM's 3 bytes included
		for o := range topLevel(body) {
			if bom {
				o += 3
			}
			starts[o] = true
		}
		last := int64(-1)
		for i := 0; i <= len(data)+1; i++ {
			g, err := r.Next()
			if errors.Is(err, io.EOF) {
				return
			}
			if g == nil {
				continue
			}
			if o := g.Pos.Offset; !starts[o] || o <= last {
				t.Fatalf("record %d at offset %d (%v): no game tree of the top level starts there (%v)", i+1, o, g.Pos, err)
			}
			last = g.Pos.Offset
		}
		t.Fatal("reader does not end")
	})
}

// topLevel is the set of offsets of the '(' that open a game tree at the
// top level of an SGF collection: nesting counted outside values ("[…]"
// with '\' escapes, within trees).
func topLevel(data []byte) map[int64]bool {
	starts := map[int64]bool{}
	depth := 0
	for i := 0; i < len(data); i++ {
		switch data[i] {
		case '(':
			if depth == 0 {
				starts[int64(i)] = true
			}
			depth++
		case ')':
			depth = max(depth-1, 0)
		case '[':
			if depth == 0 {
				continue
			}
			for i++; i < len(data) && data[i] != ']'; i++ {
				if data[i] == '\\' {
					i++
				}
			}
		}
	}
	return starts
}

// records lists what a Reader returns for src, one entry per record: the
// number of main-line moves, or the error with its line; "too large" for a
// record over the size limit.
func records(t *testing.T, src string) []string {
	t.Helper()
	r, err := sgf.NewReader(strings.NewReader(src), "t.sgf")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for i := 0; ; i++ {
		if i > len(src) {
			t.Fatal("reader does not end")
		}
		g, err := r.Next()
		var se *record.Error
		switch {
		case errors.Is(err, io.EOF):
			return got
		case errors.Is(err, record.ErrTooLarge):
			got = append(got, "too large")
		case errors.As(err, &se):
			if g == nil {
				t.Errorf("error %v of game %v", err, g)
			}
			got = append(got, "error: "+se.Msg)
		case err != nil:
			t.Fatal(err)
		default:
			got = append(got, strconv.Itoa(len(g.Moves))+" moves")
		}
	}
}

// A game tree is one record however deep it nests: read whole, or refused
// whole, never as several games (issue 42: 20,000 levels read as 5 games,
// 200,000 as 49).
func TestDeepTreeIsOneRecord(t *testing.T) {
	chain := func(n int) string {
		return "(;GM[1]" + strings.Repeat("(;B[aa]", n) + strings.Repeat(")", n+1)
	}
	next := "\n(;GM[1];B[cc])"
	for _, tc := range []struct {
		name, src string
		want      []string
	}{
		{"20,000 levels", chain(20000) + next, []string{"20000 moves", "1 moves"}},
		{"200,000 levels", chain(200000) + next, []string{"too large", "1 moves"}},
		{"error deep inside", "(;GM[1](;B[aa](;W[bb]x(;B[cc])(;W[dd]))))" + next, []string{"error: property identifier without upper-case letter", "1 moves"}},
		{"error before nested games", "(;GM[1];B[aa](;W[bb]);B[cc](;W[dd])(;B[ee]))" + next, []string{"error: node after a variation", "1 moves"}},
		{"error at the start", "(B[aa](;W[bb])(;W[cc]))" + next, []string{"error: ';' expected after '('", "1 moves"}},
		{"variations too deep", "(;B[aa]" + strings.Repeat("(;W[bb])(;W[cc]", 600) + strings.Repeat(")", 601) + next,
			[]string{"error: variations nested more than 512 deep", "1 moves"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := records(t, tc.src); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("records %q, want %q", got, tc.want)
			}
		})
	}
	// The deep line keeps its variations where they were.
	src := "(;B[aa](;W[bb](;B[cc](;W[dd])(;W[ee]))(;B[ff]))(;W[gg]))"
	gs, err := sgf.ReadAll(strings.NewReader(src), "t.sgf")
	if err != nil {
		t.Fatal(err)
	}
	want := "intro []\n0 \"B:aa\" [] [] [] []\n1 \"W:bb\" [] [] [] [(1 \"W:gg\" [] [] [] []\n)]\n" +
		"2 \"B:cc\" [] [] [] [(2 \"B:ff\" [] [] [] []\n)]\n3 \"W:dd\" [] [] [] [(3 \"W:ee\" [] [] [] []\n)]\n"
	if got := showGame(gs[0]); got != want {
		t.Errorf("game\n%s\nwant\n%s", got, want)
	}
}

// One invalid byte in a value that is UTF-8 is replaced by U+FFFD, with a
// warning, and the rest stays UTF-8; a value without UTF-8 is Windows-1252.
func TestInvalidUTF8(t *testing.T) {
	src := "(;GM[1]EV[\xc5\x8csaka \xff open]PC[M\xfcnchen];B[aa]C[\xc3\xa9 \xfe\xfe])"
	gs, err := sgf.ReadAll(strings.NewReader(src), "t.sgf")
	if err != nil {
		t.Fatal(err)
	}
	g := gs[0]
	if ev, pc, c := g.Tag("Event"), g.Tag("Site"), g.Moves[0].After[0]; ev != "Ōsaka \uFFFD open" || pc != "München" || c != "é \uFFFD\uFFFD" {
		t.Errorf("Event %q Site %q comment %q", ev, pc, c)
	}
	if len(g.Warnings) != 1 || g.Warnings[0].Pos.Col != 8 || !strings.Contains(g.Warnings[0].Msg, "3 bytes replaced by U+FFFD in 2 values") {
		t.Errorf("warnings %v", g.Warnings)
	}
}

// A property repeated in the root counts once (the first), and GM[] is
// Go, one SGFGame tag: the canonical form reads back the same (FuzzSGF
// found GM[] written as two SGFGame tags).
func TestRootRepeats(t *testing.T) {
	for src, want := range map[string][]record.Tag{
		"(;GM[])":                {{Name: "SGFGame", Value: "1"}},
		"(;EV[a]EV[b]GM[2])":     {{Name: "Event", Value: "a"}, {Name: "SGFGame", Value: "2"}},
		"(;XX[1]XX[2]RE[0])":     {{Name: "SGF_XX", Value: "1"}, {Name: "Result", Value: "1/2-1/2"}, {Name: "SGFResult", Value: "0"}, {Name: "SGFGame", Value: "1"}},
		"(;GM[3]C[a]C[b];B[aa])": {{Name: "SGFGame", Value: "3"}},
	} {
		gs, err := sgf.ReadAll(strings.NewReader(src), "t.sgf")
		if err != nil || len(gs) != 1 {
			t.Fatalf("%s: %v", src, err)
		}
		if !reflect.DeepEqual(gs[0].Tags, want) {
			t.Errorf("%s: tags %v, want %v", src, gs[0].Tags, want)
		}
	}
}

// TestBOMPositions: a UTF-8 BOM is 3 bytes of the file but no column: the
// positions of games and errors in a file with one are those of the same
// file without, their offsets 3 bytes on (each the offset of its byte in
// the file, as the record reader's).
func TestBOMPositions(t *testing.T) {
	for _, src := range []string{
		"(;B[aa]",
		"(;B[aa];W[bb](;B[cc]);W[dd])",
		"(B[aa])",
		"(;B)\n(;B[ee])",
		"\n\n  (;GM[1]\nB[aa]\n;1)\n(;B[ee])",
		"(;GM[1];B[aa])\n(;C[é\n\n\";W[bb]\n(;B[cc])\n(;B",
		"x(;GM[1];B[aa])(;W[bb]",
	} {
		plain, bom := positions(t, []byte(src)), positions(t, []byte("\xef\xbb\xbf"+src))
		if len(plain) == 0 || len(plain) != len(bom) {
			t.Errorf("%q: %d positions, %d with a BOM", src, len(plain), len(bom))
			continue
		}
		for i, p := range plain {
			want := p
			want.Offset += 3
			if bom[i] != want {
				t.Errorf("%q: position %d is %+v with a BOM, want %+v", src, i, bom[i], want)
			}
			if c := ("\xef\xbb\xbf" + src)[want.Offset]; p.Line == 1 && p.Col == 1 && c != src[0] {
				t.Errorf("%q: offset %d is %q, not the first byte", src, want.Offset, c)
			}
		}
	}
}

// positions lists the positions of the games and errors of an SGF file.
func positions(t *testing.T, data []byte) []record.Pos {
	t.Helper()
	r, err := sgf.NewReader(bytes.NewReader(data), "b.sgf")
	if err != nil {
		t.Fatal(err)
	}
	var out []record.Pos
	for range 100 {
		g, err := r.Next()
		if errors.Is(err, io.EOF) {
			return out
		}
		if g != nil {
			out = append(out, g.Pos)
		}
		var re *record.Error
		if errors.As(err, &re) {
			out = append(out, re.Pos)
		}
	}
	t.Fatal("reader does not end")
	return nil
}
