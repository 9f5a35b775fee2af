package sgf_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/plateau/plateau/importers/sgf"
	"github.com/plateau/plateau/record"
)

// moveTree writes a line's moves, comments and variations, for comparing
// two games.
func moveTree(b *strings.Builder, l record.Line) {
	for _, m := range l {
		fmt.Fprintf(b, "%d %q %v %q %q [", m.Ply, m.Text, m.NAGs, m.Before, m.After)
		for _, v := range m.Variations {
			b.WriteString("(")
			moveTree(b, v)
			b.WriteString(")")
		}
		b.WriteString("]\n")
	}
}

func showGame(g *record.Game) string {
	var b strings.Builder
	fmt.Fprintf(&b, "intro %q\n", g.Intro)
	moveTree(&b, g.Moves)
	return b.String()
}

// FuzzSGF: the SGF reader never panics, fails with positioned record
// errors, and every game it reads is written in a canonical form that reads
// back as the same game (tags, moves, comments, variations).
func FuzzSGF(f *testing.F) {
	for _, s := range []string{
		"(;GM[1]PB[Black]PW[White]RE[B+R];B[dd];W[pp](;B[dp]C[a comment])(;B[pd]))",
		"(;B[a b];W[{x}];B[\"q\"];W[(];B[$1];W[1-0];B[dd!];W[%x];B[;])",
		"(;C[comment with } and { and ( and $ and \"];B[aa]C[x}y{z])",
		"(;PB[name\nwith line]EV[a\\]b]DT[2026-07-14];B[\xe9\xe8])",
		"(;B[aa](;W[bb](;B[cc](;W[dd])(;W[ee]))(;B[ff]))(;W[gg]))",
		"(;B[aa];C[after];W[];B[tt])(;W[bb])",
		strings.Repeat("(;B[aa]", 600) + strings.Repeat(")", 600),
		"(;B[aa]" + strings.Repeat("(;W[bb])(;W[cc]", 520) + strings.Repeat(")", 521),
		"(;B[aa]" + strings.Repeat("(;W[bb])(;W[cc]", 512) + strings.Repeat(")", 513),
		"(;B[aa]" + strings.Repeat(";W[bb]", 5000) + ")(;B[cc])",
		"(;B[aa]\\", "((;", ")", "(;B", "(;B[aa]C[\x00\x01\x7f])",
		// Issue 42: a tree nested as deep as a long line, errors
		// inside nested trees, bad bytes in UTF-8 values.
		"(;GM[1]" + strings.Repeat("(;B[aa]", 1000) + strings.Repeat(")", 1001) + "(;W[bb])",
		"(;GM[1](;B[aa](;W[bb]x(;B[cc])(;W[dd]))))(;GM[1];B[cc])",
		"(;EV[\xc5\x8csaka \xff]PC[M\xfcnchen];B[\xe9\xff]C[\xc3\xa9 \xfe])",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := sgf.NewReader(bytes.NewReader(data), "fuzz.sgf")
		if err != nil {
			t.Fatal(err)
		}
		r.SetMaxRecord(16 << 10)
		for i := 0; ; i++ {
			if i > len(data)+2 {
				t.Fatal("reader does not end")
			}
			g, err := r.Next()
			if errors.Is(err, io.EOF) {
				return
			}
			if err != nil {
				var se *record.Error
				if !errors.As(err, &se) || se.Pos.Line < 1 || se.Pos.Col < 1 {
					t.Fatalf("error %v is not a positioned *record.Error", err)
				}
				continue
			}
			text := record.Format(g)
			rd := record.NewReader(bytes.NewReader(text), "canonical")
			g2, err := rd.Next()
			if err != nil {
				t.Fatalf("canonical form does not read: %v\n%s", err, text)
			}
			if _, err := rd.Next(); !errors.Is(err, io.EOF) {
				t.Fatalf("canonical form reads as more than one game: %v\n%s", err, text)
			}
			if a, b := showGame(g), showGame(g2); a != b {
				t.Fatalf("game changed by export and import:\n%s\n--- first\n%s--- second\n%s", text, a, b)
			}
			for _, tg := range g.Tags {
				if g2.Tag(tg.Name) != tg.Value {
					t.Fatalf("tag %s %q read back as %q\n%s", tg.Name, tg.Value, g2.Tag(tg.Name), text)
				}
			}
			if text2 := record.Format(g2); !bytes.Equal(text, text2) {
				t.Fatalf("canonical form not a fixed point:\n%s\n---\n%s", text, text2)
			}
		}
	})
}

func TestSGFLimits(t *testing.T) {
	big := "(;GM[1]" + strings.Repeat(";B[aa]C[a comment of some length to fill the game]", 2000) + ")"
	src := "(;B[aa])" + big + "(;W[bb])"
	r, err := sgf.NewReader(strings.NewReader(src), "t.sgf")
	if err != nil {
		t.Fatal(err)
	}
	r.SetMaxRecord(16 << 10)
	var got []string
	for {
		g, err := r.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		switch {
		case errors.Is(err, record.ErrTooLarge):
			got = append(got, "too large at "+g.Pos.String())
		case err != nil:
			got = append(got, err.Error())
		default:
			got = append(got, g.Moves[0].Text)
		}
	}
	if want := "[B:aa too large at t.sgf:1:9 W:bb]"; fmt.Sprint(got) != want {
		t.Errorf("got %v, want %v", got, want)
	}
	// Variations nested deeper than a record allows: a positioned error,
	// and the next game reads.
	nest := func(n int) string {
		return "(;B[aa]" + strings.Repeat("(;W[bb])(;W[cc]", n) + strings.Repeat(")", n+1)
	}
	deep := nest(record.MaxDepth + 1)
	r, _ = sgf.NewReader(strings.NewReader(deep+"(;W[dd])"), "t.sgf")
	if _, err := r.Next(); err == nil || !strings.Contains(err.Error(), "variations nested more than 512 deep") {
		t.Errorf("deep variations: %v", err)
	}
	if g, err := r.Next(); err != nil || g.Moves[0].Text != "W:dd" {
		t.Errorf("game after the deep one: %v", err)
	}
	r, _ = sgf.NewReader(strings.NewReader(nest(record.MaxDepth)), "t.sgf")
	if g, err := r.Next(); err != nil {
		t.Errorf("variations %d deep: %v", record.MaxDepth, err)
	} else if _, err := record.NewReader(bytes.NewReader(record.Format(g)), "x").Next(); err != nil {
		t.Errorf("variations %d deep do not read back: %v", record.MaxDepth, err)
	}
	// A long main line written as nested single children is one line.
	chain := strings.Repeat("(;B[aa]", 1000) + strings.Repeat(")", 1000)
	r, _ = sgf.NewReader(strings.NewReader(chain), "t.sgf")
	if g, err := r.Next(); err != nil || len(g.Moves) != 1000 {
		t.Errorf("chain: %v", err)
	}
}
