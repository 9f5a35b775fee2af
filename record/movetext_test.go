package record_test

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/plateau/plateau/record"
)

// Move texts share blocks of the Reader's (moveText): a text read earlier,
// and kept by the caller, never changes while the Reader reads on, nor
// after a Reset onto another source. The games hold more texts than a
// block, one longer than a block's share (kept whole), and variations.
func TestMoveTextsKept(t *testing.T) {
	var src bytes.Buffer
	long := strings.Repeat("Q", 40) // longer than a text a block takes
	for i := 0; i < 200; i++ {
		src.Write(gameText(i))
		if i%7 == 0 {
			src.WriteString("[Event \"v\"]\n\n1. e4 (1. d4 d5 (1... Nf6)) e5 2. " + long + " *\n\n")
		}
	}
	r := record.NewReader(bytes.NewReader(src.Bytes()), "a")
	var kept []*record.Game
	var want [][]string
	var texts func(l record.Line, out []string) []string
	texts = func(l record.Line, out []string) []string {
		for _, m := range l {
			out = append(out, strings.Clone(m.Text))
			for _, v := range m.Variations {
				out = append(texts(v, out), ")")
			}
		}
		return out
	}
	read := func() {
		for {
			g, err := r.Next()
			if errors.Is(err, io.EOF) {
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			kept = append(kept, g)
			want = append(want, texts(g.Moves, nil))
		}
	}
	read()
	r.Reset(bytes.NewReader(src.Bytes()), "b")
	read()
	if len(kept) < 400 {
		t.Fatalf("%d games", len(kept))
	}
	n := 0
	for i, g := range kept {
		got := texts(g.Moves, nil)
		if strings.Join(got, " ") != strings.Join(want[i], " ") {
			t.Fatalf("game %d: moves now %q, read as %q", i, got, want[i])
		}
		n += len(got)
	}
	if n < 30000 {
		t.Fatalf("only %d move texts", n)
	}
}
