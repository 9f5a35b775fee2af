package record_test

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/plateau/plateau/record"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// dump reads every game of a file and writes its canonical form, each error
// as an "error:" line, and each game's position.
func dump(t *testing.T, path string) []byte {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out bytes.Buffer
	r := record.NewReader(f, filepath.Base(path))
	for i := 0; i < 10000; i++ {
		g, err := r.Next()
		if errors.Is(err, io.EOF) {
			return out.Bytes()
		}
		if err != nil {
			var se *record.Error
			if !errors.As(err, &se) || !errors.Is(err, record.ErrSyntax) {
				t.Fatalf("%s: not a syntax error: %v", path, err)
			}
			fmt.Fprintf(&out, "; error: %v\n", err)
			if g == nil {
				t.Fatalf("%s: syntax error without a game", path)
			}
			fmt.Fprintf(&out, "; partial game at %v with %d tags, %d moves\n\n", g.Pos, len(g.Tags), len(g.Moves))
			continue
		}
		fmt.Fprintf(&out, "; game at %v offset %d\n", g.Pos, g.Pos.Offset)
		for _, w := range g.Warnings {
			fmt.Fprintf(&out, "; warning: %v\n", w)
		}
		out.Write(record.Format(g))
	}
	t.Fatalf("%s: reader does not end", path)
	return nil
}

func TestGolden(t *testing.T) {
	inputs, err := filepath.Glob("testdata/*.pdn")
	if err != nil || len(inputs) == 0 {
		t.Fatalf("no inputs: %v", err)
	}
	for _, in := range inputs {
		t.Run(filepath.Base(in), func(t *testing.T) {
			got := dump(t, in)
			golden := strings.TrimSuffix(in, ".pdn") + ".golden"
			if *update {
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -update)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s differs from %s:\n%s", in, golden, got)
			}
			checkRoundTrip(t, in)
		})
	}
}

// checkRoundTrip checks import → export → import on every game of a file
// that reads without error.
func checkRoundTrip(t *testing.T, path string) int {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r := record.NewReader(f, path)
	n := 0
	for {
		g, err := r.Next()
		if errors.Is(err, io.EOF) {
			return n
		}
		if err != nil {
			continue
		}
		n++
		roundTrip(t, fmt.Sprintf("%s game %d", path, n), g)
	}
}

// roundTrip checks that the canonical form of g reads back as g (modulo
// positions and the canonical tag order and Result) and that formatting is
// then a fixed point.
func roundTrip(t *testing.T, what string, g1 *record.Game) {
	t.Helper()
	text1 := record.Format(g1)
	g2 := parseOne(t, what, text1)
	if g2 == nil {
		return
	}
	if !reflect.DeepEqual(strip(canonical(g1)), strip(g2)) {
		t.Errorf("%s: model changed by export+import:\n%s\nfirst:  %s\nsecond: %s", what, text1, show(canonical(g1)), show(g2))
		return
	}
	text2 := record.Format(g2)
	if !bytes.Equal(text1, text2) {
		t.Errorf("%s: canonical form not a fixed point:\n%s\n---\n%s", what, text1, text2)
	}
	if record.Hash(g1) != record.Hash(g2) {
		t.Errorf("%s: hash changed", what)
	}
}

func parseOne(t *testing.T, what string, text []byte) *record.Game {
	t.Helper()
	r := record.NewReader(bytes.NewReader(text), "canonical")
	g, err := r.Next()
	if err != nil {
		t.Errorf("%s: canonical form does not read: %v\n%s", what, err, text)
		return nil
	}
	if _, err := r.Next(); !errors.Is(err, io.EOF) {
		t.Errorf("%s: canonical form reads as more than one game: %v\n%s", what, err, text)
	}
	return g
}

var order = []string{"Game", "Event", "Site", "Date", "Round", "Sente", "Gote", "White", "Black", "Orange", "Result", "FEN", "SetUp"}

// canonical is what the canonical form should read back as: tags in the
// canonical order, a Result tag, and the movetext result.
func canonical(g *record.Game) *record.Game {
	c := *g
	c.Tags = nil
	known := map[string]bool{}
	for _, name := range order {
		known[name] = true
		for _, tg := range g.Tags {
			if tg.Name == name {
				c.Tags = append(c.Tags, tg)
			}
		}
		if name == "Result" && g.Tag("Result") == "" && !hasTag(g, "Result") {
			r := g.Result
			if r == "" {
				r = "*"
			}
			c.Tags = append(c.Tags, record.Tag{Name: "Result", Value: r})
		}
	}
	for _, tg := range g.Tags {
		if !known[tg.Name] {
			c.Tags = append(c.Tags, tg)
		}
	}
	c.Result = record.ResultOf(g)
	return &c
}

func hasTag(g *record.Game, name string) bool {
	for _, t := range g.Tags {
		if t.Name == name {
			return true
		}
	}
	return false
}

// strip returns a deep copy of g without positions and warnings (which
// name positions of the text read).
func strip(g *record.Game) *record.Game {
	c := *g
	c.Pos = record.Pos{}
	c.Warnings = nil
	c.Moves = stripLine(g.Moves)
	return &c
}

func stripLine(l record.Line) record.Line {
	if l == nil {
		return nil
	}
	out := make(record.Line, len(l))
	for i, m := range l {
		c := *m
		c.Pos = record.Pos{}
		if m.Variations != nil {
			c.Variations = make([]record.Line, len(m.Variations))
			for j, v := range m.Variations {
				c.Variations[j] = stripLine(v)
			}
		}
		out[i] = &c
	}
	return out
}

func show(g *record.Game) string {
	var b strings.Builder
	fmt.Fprintf(&b, "tags %v intro %q result %q\n", g.Tags, g.Intro, g.Result)
	var line func(l record.Line, depth int)
	line = func(l record.Line, depth int) {
		for _, m := range l {
			fmt.Fprintf(&b, "%*s%d %q nags %v before %q after %q\n", depth*2, "", m.Ply, m.Text, m.NAGs, m.Before, m.After)
			for _, v := range m.Variations {
				line(v, depth+1)
			}
		}
	}
	line(g.Moves, 1)
	return b.String()
}
