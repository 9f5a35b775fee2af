package pdn3check_test

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/plateau/plateau/internal/annotated"
	"github.com/plateau/plateau/internal/pdn3check"
	"github.com/plateau/plateau/record"
	"github.com/plateau/plateau/replay"
	"github.com/plateau/plateau/rules"
	_ "github.com/plateau/plateau/rules/all"
)

// pdnOf is what plateau export writes for a record: its canonical form
// (replayed) in PDN 3.0 form.
func pdnOf(t *testing.T, rec *record.Game) []byte {
	t.Helper()
	g := replay.Replay(rec, replay.Options{})
	if g.Err != nil {
		t.Fatalf("invalid game: %v", g.Err)
	}
	return record.FormatPDN(g.Canonical())
}

// TestSamplesWritten: the PDN export of every sample game follows the PDN
// 3.0 grammar, one file of each sample directory as a whole.
func TestSamplesWritten(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("..", "..", "samples", "*", "*.pdn"))
	if len(files) < 20 {
		t.Fatalf("%d sample files", len(files))
	}
	for _, f := range files {
		if filepath.Base(filepath.Dir(f)) == "broken" {
			continue
		}
		t.Run(filepath.Base(f), func(t *testing.T) {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			var out bytes.Buffer
			r := record.NewReader(bytes.NewReader(data), f)
			for {
				rec, err := r.Next()
				if errors.Is(err, io.EOF) {
					break
				}
				if err != nil {
					t.Fatal(err)
				}
				out.Write(pdnOf(t, rec))
			}
			if err := pdn3check.Check(out.Bytes()); err != nil {
				t.Fatalf("%v\n%s", err, out.Bytes())
			}
		})
	}
}

// TestAnnotatedWritten: an annotated game of every ruleset (comments before
// and after moves, NAGs, nested variations, tags with quotes and
// backslashes, FEN and SetUp) is written in PDN 3.0.
func TestAnnotatedWritten(t *testing.T) {
	for _, rg := range rules.Games() {
		t.Run(rg.ID(), func(t *testing.T) {
			rec, err := annotated.Game(rg.ID())
			if err != nil {
				t.Fatal(err)
			}
			out := pdnOf(t, rec)
			if err := pdn3check.Check(out); err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			for _, want := range []string{"$14", "(", "{now the reply}", `[Site "C:\\games\\club"]`, `[FEN "`, "{deeper", "*\n\n"} {
				if !bytes.Contains(out, []byte(want)) {
					t.Errorf("no %q in\n%s", want, out)
				}
			}
		})
	}
}

// TestWrittenExceptions: what PDN 3.0 cannot hold. A comment holding a brace
// is kept whole as a ';' comment (PDN 3.0 comments hold no '}', and the
// reader refuses a '{' inside one), a tag name outside [A-Z][a-zA-Z0-9_]*
// and a tag value ending with a backslash are written as read: each is
// outside the grammar, and nothing else is.
func TestWrittenExceptions(t *testing.T) {
	tests := []struct {
		name string
		edit func(g *record.Game)
		ok   bool
	}{
		{"a plain annotated game", func(g *record.Game) {}, true},
		{"a comment with a brace", func(g *record.Game) { g.Moves[0].After = []string{"a } b"} }, false},
		{"a lower-case tag name", func(g *record.Game) { g.Tags = append(g.Tags, record.Tag{Name: "remark", Value: "x"}) }, false},
		{"a tag value ending with a backslash", func(g *record.Game) { g.SetTag("Site", `C:\`) }, false},
		{"a backslash elsewhere", func(g *record.Game) { g.SetTag("Site", `\C:\ \"`) }, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec, err := annotated.Game("draughts")
			if err != nil {
				t.Fatal(err)
			}
			tt.edit(rec)
			out := pdnOf(t, rec)
			err = pdn3check.Check(out)
			if (err == nil) != tt.ok {
				t.Fatalf("Check = %v, want ok %v\n%s", err, tt.ok, out)
			}
			// Whatever the grammar says, the record reads back the same.
			back, err := record.NewReader(bytes.NewReader(out), "back").Next()
			if err != nil {
				t.Fatal(err)
			}
			if again := pdnOf(t, back); !bytes.Equal(again, out) {
				t.Errorf("read back differently:\n%s\nwas\n%s", again, out)
			}
		})
	}
}

// TestPDN: the result token that ends a canonical record becomes '*'; other
// text is left alone.
func TestPDN(t *testing.T) {
	tests := []struct{ in, want string }{
		{"[Result \"2-0\"]\n\n1. 32-28 2-0\n\n", "[Result \"2-0\"]\n\n1. 32-28 *\n\n"},
		{"[Result \"1/2-1/2\"]\n\n1. 32-28\n1/2-1/2\n\n", "[Result \"1/2-1/2\"]\n\n1. 32-28\n*\n\n"},
		{"[Result \"*\"]\n\n1. 32-28 *\n\n", "[Result \"*\"]\n\n1. 32-28 *\n\n"},
		{"[Result \"1-0\"]\n\n1. 32-28 {kept as written}\n", "[Result \"1-0\"]\n\n1. 32-28 {kept as written}\n"},
	}
	for _, tt := range tests {
		if got := string(record.PDN([]byte(tt.in))); got != tt.want {
			t.Errorf("PDN(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	if strings.Contains(string(record.FormatPDN(&record.Game{Result: "1-0"})), "1-0\n\n") {
		t.Error("FormatPDN writes the result token")
	}
}
