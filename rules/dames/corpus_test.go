package dames_test

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/plateau/plateau/record"
	"github.com/plateau/plateau/replay"
	"github.com/plateau/plateau/rules"
)

const corpusDir = "../../../shared/corpus/pdn"

// readCorpus reads every game of a file; syntax errors are returned with the
// games, the reader goes on after them.
func readCorpus(t testing.TB, path string) (games []*record.Game, errs []error) {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r := record.NewReader(f, filepath.Base(path))
	for {
		g, err := r.Next()
		if err == io.EOF {
			return
		}
		if err != nil {
			var se *record.Error
			if !errors.As(err, &se) {
				errs = append(errs, err)
				return
			}
			errs = append(errs, err)
			continue
		}
		games = append(games, g)
	}
}

// international reports whether a game is 10×10 international draughts: a
// GameType whose first field is 20, or, without GameType, numeric notation
// naming a square above 32 in its FEN or moves (so not an 8×8 game).
func international(g *record.Game) bool {
	if gt := g.Tag("GameType"); gt != "" {
		first, _, _ := strings.Cut(gt, ",")
		return strings.TrimSpace(first) == "20"
	}
	if len(g.Tags) > 0 && g.Tag("White") == "" && g.Tag("Black") == "" && g.Tag("FEN") == "" && g.Tag("Event") == "" {
		return false // Italian tags (Bianco/Nero): 8×8 Italian draughts
	}
	big := func(s string) bool {
		for _, f := range strings.FieldsFunc(s, func(r rune) bool { return r < '0' || r > '9' }) {
			if n, _ := strconv.Atoi(f); n > 32 {
				return true
			}
		}
		return false
	}
	if big(g.Tag("FEN")) {
		return true
	}
	var walk func(l record.Line) bool
	walk = func(l record.Line) bool {
		for _, m := range l {
			if len(m.Text) > 0 && (m.Text[0] < '0' || m.Text[0] > '9') {
				return false
			}
			if big(m.Text) {
				return true
			}
		}
		return false
	}
	return walk(g.Moves)
}

// Every 10×10 international game of the PDN standard's succeed/ corpus
// validates as draughts.
func TestCorpusSucceed(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(corpusDir, "succeed", "*.pdn"))
	if len(files) == 0 {
		t.Skip("corpus not found at " + corpusDir)
	}
	total, plies, gametype20, ambiguous := 0, 0, 0, 0
	for _, path := range files {
		games, errs := readCorpus(t, path)
		for _, err := range errs {
			t.Logf("%s: %v", filepath.Base(path), err)
		}
		for _, g := range games {
			if !international(g) {
				continue
			}
			if strings.HasPrefix(g.Tag("GameType"), "20") {
				gametype20++
			}
			total++
			if n := joinSplitMoves(&g.Moves); n > 0 {
				t.Logf("%s:%d: record reader split %d moves written with a space (\"1- 6\"); joined", filepath.Base(path), g.Pos.Line, n)
			}
			rg := replay.Replay(g, replay.Options{DefaultGame: "draughts"})
			if rg.Rules == nil || rg.Rules.ID() != "draughts" {
				t.Errorf("%s:%d: ruleset %v", filepath.Base(path), g.Pos.Line, rg.Rules)
				continue
			}
			if rg.Err != nil {
				if fixed := lookahead(g, rg); fixed != "" {
					t.Logf("%s:%d: %v; only %s lets the game go on to its end", filepath.Base(path), rg.Err.Pos.Line, rg.Err, fixed)
					ambiguous++
				} else {
					t.Errorf("%s:%d: %v", filepath.Base(path), rg.Err.Pos.Line, rg.Err)
				}
			}
			plies += rg.Plies()
		}
	}
	t.Logf("%d international games (%d with GameType 20), %d plies, %d ambiguous short captures resolved by looking ahead", total, gametype20, plies, ambiguous)
	if gametype20 < 83 || total < 284 {
		t.Errorf("only %d international games (%d GameType 20) found", total, gametype20)
	}
}

// Files in fail/ give clear errors, one game at a time, without stopping.
func TestCorpusFail(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(corpusDir, "fail", "*.pdn"))
	if len(files) == 0 {
		t.Skip("corpus not found at " + corpusDir)
	}
	for _, path := range files {
		games, errs := readCorpus(t, path)
		bad, warned := len(errs), 0
		for _, g := range games {
			rg := replay.Replay(g, replay.Options{DefaultGame: "draughts"})
			if rg.Err == nil {
				for _, w := range rg.Warnings {
					if w.Kind == replay.WarnResult {
						warned++ // lenient metadata: the Result is a warning now
						break
					}
				}
				continue
			}
			bad++
			msg := rg.Err.Error()
			if msg == "" || !utf8.ValidString(msg) {
				t.Errorf("%s: unclear error %q", filepath.Base(path), msg)
			}
			if rg.Err.Move != "" {
				var me *rules.MoveError
				if !errors.As(rg.Err, &me) && !errors.Is(rg.Err, replay.ErrAfterEnd) {
					t.Errorf("%s: move error %v is not a MoveError", filepath.Base(path), rg.Err)
				}
			}
		}
		t.Logf("%s: %d games read, %d with errors, %d with Result warnings", filepath.Base(path), len(games), bad, warned)
		if bad+warned == 0 {
			t.Errorf("%s: no error or warning found in a fail/ file", filepath.Base(path))
		}
	}
}

// joinSplitMoves works around the record reader splitting a move written
// with a space after its separator ("1- 6", "28x 6", as DUTCH96H.pdn and
// schildpad.pdn do): "1-" followed by "6" is joined into "1-6".
func joinSplitMoves(l *record.Line) int {
	n := 0
	var out record.Line
	for i := 0; i < len(*l); i++ {
		m := (*l)[i]
		for _, v := range m.Variations {
			n += joinSplitMoves(&v)
		}
		if t := m.Text; (strings.HasSuffix(t, "-") || strings.HasSuffix(t, "x")) && i+1 < len(*l) {
			next := (*l)[i+1].Text
			if _, err := strconv.Atoi(next); err == nil {
				m.Text += next
				m.After = append(m.After, (*l)[i+1].After...)
				m.NAGs = append(m.NAGs, (*l)[i+1].NAGs...)
				i++
				n++
			}
		}
		out = append(out, m)
	}
	*l = out
	return n
}

// lookahead handles a record whose short capture is ambiguous (the notation
// cannot tell two sequences apart): it returns the one candidate with which
// the whole game validates, or "".
func lookahead(g *record.Game, rg *replay.Game) string {
	var me *rules.MoveError
	if !errors.As(rg.Err, &me) || me.Kind != rules.Ambiguous || rg.Err.Ply == 0 {
		return ""
	}
	var src *record.Move
	for _, m := range g.Moves {
		if m.Text == rg.Err.Move && m.Pos == rg.Err.Pos {
			src = m
		}
	}
	if src == nil {
		return ""
	}
	orig, found := src.Text, ""
	defer func() { src.Text = orig }()
	for _, c := range me.Candidates {
		src.Text = c
		if replay.Replay(g, replay.Options{DefaultGame: "draughts"}).Err == nil {
			if found != "" {
				return ""
			}
			found = c
		}
	}
	return found
}

// The 8×8 files of succeed/ (no GameType tag) read under their family: the
// number of games each must validate (every game but those with a start
// position the FEN reader refuses, or a real ambiguity noted in the log).
func TestCorpus8x8(t *testing.T) {
	want := map[string]struct {
		game string
		min  int
	}{
		"OCA_2.0.pdn":                  {"checkers", 43},
		"Principles of Strategy.pdn":   {"checkers", 16},
		"Tricks traps and shots.pdn":   {"checkers", 91},
		"inferno.pdn":                  {"checkers", 68},
		"goulds.pdn":                   {"checkers", 262},
		"lpc.pdn":                      {"checkers", 100},
		"beginner.pdn":                 {"checkers", 58},
		"gem.pdn":                      {"checkers", 162},
		"borderclassics.pdn":           {"checkers", 183},
		"bridges.pdn":                  {"checkers", 266},
		"Campionato Assoluto 2005.pdn": {"italian", 52},
		"ussr1947.pdn":                 {"russian", 153},
		"mrcd2000kval.pdn":             {"czech", 40},
		"mrcd2006.pdn":                 {"czech", 44},
		"mrcd2007.pdn":                 {"czech", 102},
	}
	if _, err := os.Stat(filepath.Join(corpusDir, "succeed")); err != nil {
		t.Skip("corpus not found at " + corpusDir)
	}
	for file, w := range want {
		games, _ := readCorpus(t, filepath.Join(corpusDir, "succeed", file))
		valid := 0
		for _, g := range games {
			if international(g) {
				continue
			}
			g.SetTag("Game", w.game)
			rg := replay.Replay(g, replay.Options{})
			if rg.Err != nil {
				t.Logf("%s:%d: %v", file, g.Pos.Line, rg.Err)
				continue
			}
			valid++
		}
		t.Logf("%s: %d of %d games valid as %s", file, valid, len(games), w.game)
		if valid < w.min {
			t.Errorf("%s: %d games valid as %s, want at least %d", file, valid, w.game, w.min)
		}
	}
}
