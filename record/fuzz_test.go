package record_test

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/plateau/plateau/record"
)

// FuzzReader: the Reader never panics nor loops, every error is a
// positioned syntax error, and whatever reads without error survives
// export → import → export unchanged.
func FuzzReader(f *testing.F) {
	seeds, _ := filepath.Glob("testdata/*.pdn")
	for _, s := range seeds {
		if d, err := os.ReadFile(s); err == nil {
			f.Add(d)
		}
	}
	for _, s := range []string{
		"1. e4 (1. d4 {x} (1... d5)) e5 $1 1-0",
		"[A \"\\\"\"] %x\n;y\n1.32-28!? 19-23(?) *",
		"{ { } } ) ( ] [ \" $ $99999",
		"3228 .x 12 . e4 1. ... 2...",
		"1. 34-29 19-23\n\n[Event \"b\"]\n1. 0-2 . 6.\n[Result \"4-6\"] 1. - - 4-6 1:0",
		"[Round 1.1] [Белые Иванов] [Result \"1/2:1/2\"] 1. c3-d4 (1. 2.) 0:1",
		"(White to play) 11-15 (Roberto's (first) choice\n over lines) 23-19 (1st) ( {c} 8-11) (a\n[Event \"x\"] *",
		// Issue 42: errors in a tag section, a result in a tag pair, bad
		// bytes in a UTF-8 line, an escape line.
		"[Event \"a\"]]\n[Site \"s\"]\n1. e4 *\n[Event \"n\"] 1. e4 *",
		"[Event \"a\"] \"x\n[Result 1-0]\n1. e4 1-0 [Event \"n\"] *",
		"[Event \"\xc5\x8csaka \xff open\"]\n[Site \"M\xfcnchen\"]\n1. e4 {\xc3\xa9 \xfe} *",
		"%\xc5\x8c \xff escape\n[Event \"b\"]\n1. e4 *",
		// Unescaped quotes in tag values.
		"[Event \"The \"Big\" Open\"] [Site \"\"\"][White \"a\" [Black \"\"b\"\"]\n1. e4 *\n[Event \"x\"y\"] *",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		r := record.NewReader(bytes.NewReader(data), "fuzz")
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
				if !errors.As(err, &se) || g == nil || se.Pos.Line < 1 || se.Pos.Col < 1 {
					t.Fatalf("bad error %v (game %v)", err, g)
				}
				continue
			}
			roundTrip(t, "fuzz", g)
		}
	})
}
