package openings_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/plateau/plateau/index/internal/openings"
	"github.com/plateau/plateau/record"
	"github.com/plateau/plateau/rules"
	_ "github.com/plateau/plateau/rules/all"
)

// TestDeepest: the deepest named position a game reaches names it; names
// nest, an unnamed line has none.
func TestDeepest(t *testing.T) {
	names := map[int64]int64{10: 1, 30: 2, 50: 3}
	for _, c := range []struct {
		name string
		keys []int64
		want int64
		ok   bool
	}{
		{"none named", []int64{1, 2, 3}, 0, false},
		{"one", []int64{10, 11, 12}, 1, true},
		{"nested: the deeper wins", []int64{10, 20, 30, 40}, 2, true},
		{"deepest of three", []int64{10, 30, 50, 60}, 3, true},
		{"a deeper name without the shallower", []int64{5, 50}, 3, true},
		{"empty game", nil, 0, false},
	} {
		got, ok := openings.Deepest(c.keys, names)
		if got != c.want || ok != c.ok {
			t.Errorf("%s: %d %v, want %d %v", c.name, got, ok, c.want, c.ok)
		}
	}
}

// TestResolveTransposition: two move orders that reach one position give
// one key; a longer line another; plies and canonical moves are kept.
func TestResolveTransposition(t *testing.T) {
	resolve := func(moves string) openings.Opening {
		t.Helper()
		e := openings.Entry{Game: "draughts", Name: "x", File: "f", Line: 1}
		for _, m := range strings.Fields(moves) {
			e.Moves = append(e.Moves, openings.Move{Text: m, Line: 1})
		}
		o, err := openings.Resolve(e)
		if err != nil {
			t.Fatal(err)
		}
		return o
	}
	a := resolve("32-28 17-21 33-29")
	b := resolve("33-29 17-21 32-28")
	c := resolve("32-28 17-21 33-29 21-26")
	if a.Key != b.Key {
		t.Errorf("a transposition has another key: %d %d", a.Key, b.Key)
	}
	if a.Key == c.Key {
		t.Errorf("a longer line has the same key")
	}
	if a.Ply != 3 || c.Ply != 4 || a.Game != "draughts" || a.Moves != "32-28 17-21 33-29" {
		t.Errorf("resolved %+v, %+v", a, c)
	}
	rg, _ := rules.Lookup("draughts")
	if p, _ := rg.NewPosition(""); p.Key() == 0 {
		t.Fatal("no key")
	}
}

// TestReadErrors: a move that does not play, an unknown ruleset, a line
// without moves and a malformed line are errors naming file and line (and
// the move); the other entries are read and resolved.
func TestReadErrors(t *testing.T) {
	text := "# names\n" +
		"draughts\tSingle corner\t32-28\n" +
		"draughts\tBad\t32-28 18-23 99-98\n" +
		"\n" +
		"chess\tRuy Lopez\te4 e5\n" +
		"draughts\tNo moves\t\n" +
		"draughts only two fields\n" +
		"draughts\tDouble corner\t1. 33-29 2. 18-23\n"
	es, errs := openings.Read(strings.NewReader(text), "names.tsv")
	if len(errs) != 1 || !strings.Contains(errs[0].Error(), "names.tsv:7") {
		t.Errorf("read errors %v", errs)
	}
	var ok []string
	var bad []string
	for _, e := range es {
		o, err := openings.Resolve(e)
		if err != nil {
			var oe *openings.Error
			if !errors.As(err, &oe) || !errors.Is(err, openings.ErrEntry) {
				t.Errorf("%v is no *Error wrapping ErrEntry", err)
			}
			bad = append(bad, err.Error())
			continue
		}
		ok = append(ok, o.Name)
	}
	if strings.Join(ok, "|") != "Single corner|Double corner" {
		t.Errorf("resolved %q", ok)
	}
	want := []string{`names.tsv:3: move 3 "99-98"`, "names.tsv:5: ", "names.tsv:6: no moves"}
	if len(bad) != len(want) {
		t.Fatalf("errors %q", bad)
	}
	for i, w := range want {
		if !strings.HasPrefix(bad[i], w) {
			t.Errorf("error %q, want it to start %q", bad[i], w)
		}
	}
	if !errors.Is(mustResolveErr(t, es[0], "x"), rules.ErrMove) {
		t.Error("a move that does not parse should wrap rules.ErrMove")
	}
}

func mustResolveErr(t *testing.T, e openings.Entry, move string) error {
	e.Moves = append(e.Moves, openings.Move{Text: move, Line: 9})
	_, err := openings.Resolve(e)
	if err == nil {
		t.Fatal("no error")
	}
	return err
}

// TestReadRecords: records name their position by Opening and Variation,
// after their ECO tag as the name's code;
// a record without Opening or Game, or with a wrong move, is an error at
// its line, and the others are read.
func TestReadRecords(t *testing.T) {
	text := `[Game "draughts"]
[Opening "Single corner"]

1. 32-28 *

[Game "draughts"]
[Opening "Single corner"]
[Variation "Classic reply"]

1. 32-28 18-23 *

[Game "draughts"]
[ECO "D10"]
[Opening "Double corner"]

1. 33-29 *

[Game "draughts"]
[Event "no name"]

1. 33-29 *

[Game "draughts"]
[Opening "Wrong"]

1. 32-28
18-23 2. 28-27 *
`
	es, errs := openings.Read(strings.NewReader(text), "o.pdn")
	if len(errs) != 1 || !strings.Contains(errs[0].Error(), "o.pdn:18: the record has no Opening tag") {
		t.Errorf("errors %v", errs)
	}
	if len(es) != 4 || es[1].Name != "Single corner, Classic reply" || es[2].Name != "D10 Double corner" {
		t.Fatalf("entries %+v", es)
	}
	_, err := openings.Resolve(es[3])
	if err == nil || !strings.HasPrefix(err.Error(), `o.pdn:27: move 3 "28-27"`) {
		t.Errorf("wrong move: %v", err)
	}
}

// TestWithTag: the Opening tag (and the ECO tag of a coded name) added to
// a canonical text is where the canonical form of the record with those
// tags puts it; a record with an Opening or an ECO tag of its own keeps
// its tags as they are.
func TestWithTag(t *testing.T) {
	for _, c := range []struct{ name, text string }{
		{"plain", "[Game \"draughts\"]\n[White \"A\"]\n[Result \"*\"]\n\n1. 32-28 *\n"},
		{"other tags after", "[Game \"draughts\"]\n[Result \"*\"]\n[Annotator \"Z\"]\n\n{a} 1. 32-28 *\n"},
		{"own opening", "[Game \"draughts\"]\n[Result \"*\"]\n[Opening \"Mine\"]\n\n1. 32-28 *\n"},
		{"own code", "[Game \"draughts\"]\n[Result \"*\"]\n[ECO \"X99\"]\n\n1. 32-28 *\n"},
	} {
		for _, name := range []string{`Single "corner" \ x`, `B20 Single "corner"`, `B20a1 Sicilienne`} {
			g, err := record.NewReader(strings.NewReader(c.text), "t").Next()
			if err != nil {
				t.Fatal(err)
			}
			canon := record.Format(g)
			if g.Tag("Opening") == "" && g.Tag("ECO") == "" {
				code, rest := openings.SplitCode(name)
				g.SetTag("Opening", rest)
				if code != "" {
					g.SetTag("ECO", code)
				}
			}
			want := string(record.Format(g))
			if got := string(openings.WithTag(canon, name)); got != want {
				t.Errorf("%s, %s:\n%s\nwant\n%s", c.name, name, got, want)
			}
		}
	}
}

// TestSplitCode: a name's code is its first word when that word is an
// upper-case letter and two digits, then anything, and more words follow.
func TestSplitCode(t *testing.T) {
	for _, c := range []struct{ name, code, rest string }{
		{"B20 Sicilienne", "B20", "Sicilienne"},
		{"C45a Écossaise, variante", "C45a", "Écossaise, variante"},
		{"A00 ", "A00", ""},
		{"B20", "", "B20"},                       // a code alone is a name
		{"b20 Sicilienne", "", "b20 Sicilienne"}, // lower case
		{"B2 Sicilienne", "", "B2 Sicilienne"},
		{"BB20 Sicilienne", "", "BB20 Sicilienne"},
		{"É20 Sicilienne", "", "É20 Sicilienne"},
		{"B20\tSicilienne", "", "B20\tSicilienne"}, // a space, not a tab
		{"Sicilian, B20 line", "", "Sicilian, B20 line"},
	} {
		code, rest := openings.SplitCode(c.name)
		if code != c.code || rest != c.rest {
			t.Errorf("%q: %q %q, want %q %q", c.name, code, rest, c.code, c.rest)
		}
		if got := openings.WithCode(code, rest); code != "" && rest != "" && got != c.name {
			t.Errorf("%q: WithCode %q", c.name, got)
		}
	}
	if got := openings.WithCode("B20", "B21 Sicilienne"); got != "B21 Sicilienne" {
		t.Errorf("a coded name took another code: %q", got)
	}
}
