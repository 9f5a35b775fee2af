package record

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// records reads every record of data with lines cut in pieces of piece
// bytes (0: maxLine), and describes each: its place, its error or its
// canonical form, and its warnings.
func records(t *testing.T, data []byte, piece int) []string {
	r := NewReader(bytes.NewReader(data), "fuzz")
	if piece > 0 {
		// A small buffer, so that short lines are cut too.
		r.s.lr.br = bufio.NewReaderSize(bytes.NewReader(data), 16)
		r.s.lr.piece = piece
	}
	var out []string
	for i := 0; ; i++ {
		if i > len(data)+2 {
			t.Fatal("reader does not end")
		}
		g, err := r.Next()
		if errors.Is(err, io.EOF) {
			return out
		}
		var se *Error
		switch {
		case errors.As(err, &se):
			out = append(out, fmt.Sprintf("%v: error %v", g.Pos, err))
		case err != nil:
			t.Fatal(err)
		default:
			out = append(out, fmt.Sprintf("%v: %s", g.Pos, Format(g)))
		}
		for _, w := range g.Warnings {
			out = append(out, "warning "+w.String())
		}
	}
}

// FuzzPieces: where the line reader cuts a long line into pieces changes
// no record: the same records, at the same places, each read the same (or
// failing the same), with the same warnings. A record is one record wherever its lines are cut
// (issue 42: a 1,100 KiB tag value cut at 1 MiB was read as two games).
func FuzzPieces(f *testing.F) {
	seeds, _ := filepath.Glob("testdata/*.pdn")
	for _, s := range seeds {
		if d, err := os.ReadFile(s); err == nil {
			f.Add(d, uint8(0))
		}
	}
	for _, s := range []string{
		"[Event \"a [B \\\"x\\\"] 1. e4 * ; { \"]\n1. e4 *\n[Event \"next\"] 1. e4 *",
		"[Event \"big\"]\n1. e4 ; [Event \"x\"] 1. e4 * [Event \"x\"] 1. e4 *\ne5 *",
		"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx1-0 e5 *\n[Event \"next\"] 1. e4 *",
		"[Event \"a\"]]\n[Site \"s\"]\n1. e4 *\n[Event \"next\"] 1. e4 *",
		"[Event \"\xc5\x8csaka \xff open\"]\n[Site \"M\xfcnchen\"]\n1. e4 {\xc3\xa9 \xfe} *",
		"[S \"x\"][S \"x\"][S \"x\"][S \"x\"][Result 1-0] 1. e4 1-0 [Event \"n\"] *",
	} {
		f.Add([]byte(s), uint8(3))
	}
	f.Fuzz(func(t *testing.T, data []byte, piece uint8) {
		whole := records(t, data, 0)
		cut := records(t, data, 8+int(piece%64))
		if !utf8.Valid(data) && hasUTF8(data) {
			// UTF-8 with bad bytes, or Windows-1252, is decided piece
			// by piece in a cut line: the texts (and columns) may
			// differ, the records and their lines may not.
			whole, cut = places(whole), places(cut)
		}
		if strings.Join(whole, "\n") != strings.Join(cut, "\n") {
			t.Fatalf("lines cut in pieces of %d bytes read differently:\n%q\nwhole lines:\n%q", 8+piece%64, cut, whole)
		}
	})
}

// places keeps the lines where records start, without their texts and
// warnings (nor columns: a character decoded another way has another
// length).
func places(recs []string) []string {
	var out []string
	for _, r := range recs {
		if !strings.HasPrefix(r, "warning ") {
			p := r[:strings.Index(r, ": ")]
			out = append(out, p[:strings.LastIndex(p, ":")])
		}
	}
	return out
}
