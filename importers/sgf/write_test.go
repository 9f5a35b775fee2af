package sgf_test

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/plateau/plateau/importers/sgf"
	"github.com/plateau/plateau/internal/annotated"
	"github.com/plateau/plateau/record"
	"github.com/plateau/plateau/replay"
	"github.com/plateau/plateau/rules"
	_ "github.com/plateau/plateau/rules/all"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// canonical replays rec and returns its canonical form; the game must be
// valid.
func canonical(t *testing.T, rec *record.Game) *record.Game {
	t.Helper()
	g := replay.Replay(rec, replay.Options{})
	if g.Err != nil {
		t.Fatalf("invalid: %v", g.Err)
	}
	if len(g.Warnings) > 0 {
		t.Errorf("warnings: %v", g.Warnings)
	}
	return g.Canonical()
}

// readOne reads the one game of an SGF text.
func readOne(t *testing.T, text []byte) *record.Game {
	t.Helper()
	gs, err := sgf.ReadAll(bytes.NewReader(text), "back.sgf")
	if err != nil || len(gs) != 1 {
		t.Fatalf("read back: %d games, %v\n%s", len(gs), err, text)
	}
	return gs[0]
}

// TestWriteRoundTrip: the annotated game of every ruleset, written as SGF,
// reads back as the same game (canonical form: tags, moves, comments, NAGs,
// variations, result), and writes again the same SGF.
func TestWriteRoundTrip(t *testing.T) {
	for _, rg := range rules.Games() {
		t.Run(rg.ID(), func(t *testing.T) {
			rec, err := annotated.Game(rg.ID())
			if err != nil {
				t.Fatal(err)
			}
			c := canonical(t, rec)
			out := sgf.Append(nil, c)
			back := canonical(t, readOne(t, out))
			if got, want := record.Format(back), record.Format(c); !bytes.Equal(got, want) {
				t.Fatalf("read back:\n%s\nwant\n%s\nSGF:\n%s", got, want, out)
			}
			if got, want := showGame(back), showGame(c); got != want {
				t.Errorf("moves read back:\n%s\nwant\n%s", got, want)
			}
			if again := sgf.Append(nil, back); !bytes.Equal(again, out) {
				t.Errorf("written again:\n%s\nwas\n%s", again, out)
			}
		})
	}
}

// TestWriteSides: a ruleset's side tags are SGF's players, Black or Sente
// as PB; a tag named like a side of another game stays a tag.
func TestWriteSides(t *testing.T) {
	for _, tt := range []struct{ id, pb, pw string }{
		{"ogi", "Sente", "Gote"}, {"jetan", "Black", "Orange"}, {"draughts", "Black", "White"}, {"checkers", "Black", "White"},
	} {
		rec, err := annotated.Game(tt.id)
		if err != nil {
			t.Fatal(err)
		}
		rec.Tags = append(rec.Tags, record.Tag{Name: "Gote", Value: "not a side"}, record.Tag{Name: "White", Value: "nor this"})
		c := canonical(t, rec)
		out := sgf.Append(nil, c)
		for _, want := range []string{"PB[" + escaped(c.Tag(tt.pb)) + "]", "PW[" + escaped(c.Tag(tt.pw)) + "]"} {
			if !bytes.Contains(out, []byte(want)) {
				t.Errorf("%s: no %s in\n%s", tt.id, want, out)
			}
		}
		back := readOne(t, out)
		for _, name := range []string{tt.pb, tt.pw, "Gote", "White"} {
			if got := back.Tag(name); got != c.Tag(name) {
				t.Errorf("%s: %s read back as %q, want %q", tt.id, name, got, c.Tag(name))
			}
		}
		// A second tag of a side's name stays second.
		if got, want := record.Format(canonical(t, back)), record.Format(c); !bytes.Equal(got, want) {
			t.Errorf("%s read back:\n%s\nwant\n%s", tt.id, got, want)
		}
	}
}

func escaped(s string) string { return strings.ReplaceAll(s, "]", `\]`) }

// TestWriteVariationOfVariation: a variation whose first move has
// variations of its own (1. 32-28 (1. 33-28 (1. 31-27))) reads back so, an
// empty node before its fork (found by FuzzPlateauSGF).
func TestWriteVariationOfVariation(t *testing.T) {
	w := record.Line{{Text: "31-27"}}
	v := record.Line{{Text: "33-28", Variations: []record.Line{w}}, {Text: "18-23", Ply: 1}}
	g := &record.Game{Tags: []record.Tag{{Name: "Game", Value: "draughts"}},
		Moves: record.Line{{Text: "32-28", Variations: []record.Line{v}}}}
	c := canonical(t, g)
	out := sgf.Append(nil, c)
	if !bytes.Contains(out, []byte("(;\n(;MOVE[33-28]")) {
		t.Errorf("no empty node before the fork:\n%s", out)
	}
	back := canonical(t, readOne(t, out))
	if got, want := record.Format(back), record.Format(c); !bytes.Equal(got, want) {
		t.Errorf("read back:\n%s\nwant\n%s", got, want)
	}
}

// TestWriteNAGs: every list of NAGs reads back in its order, SGF's
// annotation properties first where they stand for the first ones.
func TestWriteNAGs(t *testing.T) {
	tests := []struct {
		nags []int
		sgf  string // the node's properties after MOVE
	}{
		{[]int{1}, "TE[1]"}, {[]int{3}, "TE[2]"}, {[]int{2}, "BM[1]"}, {[]int{4}, "BM[2]"},
		{[]int{5}, "IT[]"}, {[]int{6}, "DO[]"}, {[]int{10}, "DM[1]"}, {[]int{13}, "UC[1]"},
		{[]int{14}, "GW[1]"}, {[]int{15}, "GB[1]"}, {[]int{18}, "GW[2]"}, {[]int{19}, "GB[2]"},
		{[]int{1, 14}, "TE[1]GW[1]"}, {[]int{14, 1}, "GW[1]NAG[1]"}, {[]int{7}, "NAG[7]"},
		{[]int{2, 19, 7, 1, 1}, "BM[1]GB[2]NAG[7][1][1]"}, {[]int{16, 0}, "NAG[16][0]"},
	}
	for _, tt := range tests {
		g := &record.Game{Tags: []record.Tag{{Name: "Game", Value: "draughts"}},
			Moves: record.Line{{Text: "32-28", NAGs: tt.nags}}}
		out := sgf.Append(nil, g)
		if want := ";MOVE[32-28]" + tt.sgf + ")"; !bytes.Contains(out, []byte(want)) {
			t.Errorf("NAGs %v: %s, want %s", tt.nags, out, want)
		}
		back := readOne(t, out)
		if got := back.Moves[0].NAGs; len(got) != len(tt.nags) || !bytes.Equal(nagBytes(got), nagBytes(tt.nags)) {
			t.Errorf("NAGs %v read back as %v", tt.nags, got)
		}
	}
}

func nagBytes(n []int) []byte {
	b := make([]byte, len(n))
	for i, k := range n {
		b[i] = byte(k)
	}
	return b
}

// TestWriteGolden: the SGF of the annotated draughts game, as written.
func TestWriteGolden(t *testing.T) {
	rec, err := annotated.Game("draughts")
	if err != nil {
		t.Fatal(err)
	}
	out := sgf.Append(nil, canonical(t, rec))
	golden := filepath.Join("testdata", "annotated-draughts.sgf")
	if *update {
		if err := os.WriteFile(golden, out, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test -update)", err)
	}
	if !bytes.Equal(out, want) {
		t.Errorf("SGF written:\n%s\nwant (%s)\n%s", out, golden, want)
	}
}

// TestNotPlateau: a Go game is still read as before (moves B:xy, GM in
// SGFGame) and an SGF with a GAME root property as Plateau's.
func TestNotPlateau(t *testing.T) {
	g := readOne(t, []byte("(;GM[1]PB[a]TE[1];B[pd]TE[1]C[x])"))
	if g.Tag("SGFGame") != "1" || g.Moves[0].Text != "B:pd" || g.Moves[0].NAGs != nil {
		t.Errorf("Go game read as %q %v %v", g.Tags, g.Moves[0].Text, g.Moves[0].NAGs)
	}
	g = readOne(t, []byte("(;GAME[draughts]RE[2-0];MOVE[32-28]TE[1]CB[b]C[a])"))
	if g.Tag("Game") != "draughts" || g.Tag("Result") != "2-0" || g.Tag("SGFGame") != "" || g.Moves[0].Text != "32-28" ||
		len(g.Moves[0].NAGs) != 1 || len(g.Moves[0].Before) != 1 || len(g.Moves[0].After) != 1 {
		t.Errorf("Plateau's SGF read as %q %+v", g.Tags, g.Moves[0])
	}
}

// TestLooks: SGF is told by its content.
func TestLooks(t *testing.T) {
	for s, want := range map[string]bool{"(;GM[1])": true, "\xef\xbb\xbf \n( ;FF[4])": true, "[Game \"x\"]": false, "(2... 32-28)": false, "": false} {
		if got := sgf.Looks([]byte(s)); got != want {
			t.Errorf("Looks(%q) = %v", s, got)
		}
	}
}

// FuzzPlateauSGF: reading Plateau's SGF never panics, and a game it reads
// writes an SGF that reads back as the same game and writes the same.
func FuzzPlateauSGF(f *testing.F) {
	for _, id := range []string{"draughts", "ogi", "sauts", "dejarik", "jetan"} {
		rec, err := annotated.Game(id)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(sgf.Append(nil, replay.Replay(rec, replay.Options{}).Canonical()))
	}
	f.Add([]byte("(;GAME[x]TAG[a][b:c:d]C[];MOVE[]NAG[x][-1]BM[]GW[3];C[z](;MOVE[a])(;CB[q]))"))
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := sgf.NewReader(bytes.NewReader(data), "fuzz.sgf")
		if err != nil {
			return
		}
		for i := 0; i < 10; i++ {
			g, err := r.Next()
			if err != nil {
				return
			}
			once := sgf.Append(nil, g)
			back, err := sgf.ReadAll(bytes.NewReader(once), "once.sgf")
			if err != nil || len(back) != 1 {
				t.Fatalf("written game does not read back: %v\n%s", err, once)
			}
			if twice := sgf.Append(nil, back[0]); !bytes.Equal(twice, once) {
				t.Fatalf("written twice differently:\n%s\n%s", once, twice)
			}
		}
	})
}
