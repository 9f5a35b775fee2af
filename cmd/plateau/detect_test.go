package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// corpus is the shared reference corpus, read in place.
const corpus = "../../../shared/corpus"

var numericMove = regexp.MustCompile(`(^|[^0-9./])([0-9]+(?:[-x][0-9]+)+)`)

// algebraic writes the numeric moves of a checkers text in algebraic
// squares, as online sites write checkers: turned, the first mover (Black,
// on 1–12) at the bottom (11-15 is c3-d4); else as PDN's board stands (a1 is
// 29, 11-15 is f6-e5). Results are left alone.
func algebraic(text string, turned bool) string {
	square := func(n int) string {
		if turned {
			n = 33 - n
		}
		r := 8 - (n-1)/4
		f := 2 * ((n - 1) % 4)
		if r%2 == 0 {
			f++
		}
		return string(rune('a'+f)) + strconv.Itoa(r)
	}
	return numericMove.ReplaceAllStringFunc(text, func(m string) string {
		sub := numericMove.FindStringSubmatch(m)
		move := sub[2]
		switch move {
		case "1-0", "0-1", "2-0", "0-2", "1-1", "0-0":
			return m
		}
		var b strings.Builder
		b.WriteString(sub[1])
		num := 0
		for i := 0; i <= len(move); i++ {
			if i < len(move) && move[i] >= '0' && move[i] <= '9' {
				num = num*10 + int(move[i]-'0')
				continue
			}
			b.WriteString(square(num))
			num = 0
			if i < len(move) {
				b.WriteByte(move[i])
			}
		}
		return b.String()
	})
}

// russianSpelling writes a collection as Russian files do: results with a
// colon, tag values without quotes, tags named in Russian.
func russianSpelling(text string) string {
	r := strings.NewReplacer("1/2-1/2", "1/2:1/2", "1-0", "1:0", "0-1", "0:1", "[White ", "[Белые ", "[Black ", "[Черные ")
	text = r.Replace(text)
	return regexp.MustCompile(`\[(Round|Date) "([^"]*)"\]`).ReplaceAllString(text, "[$1 $2]")
}

func writeTemp(t *testing.T, name, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestValidateDetection: untagged checkers games written in algebraic
// squares, as online sites write them, are read as checkers whichever way
// the board is turned (they were read as russian, czech or brazilian, or
// refused); untagged Russian games stay Russian; a problem with an empty
// board is kept.
func TestValidateDetection(t *testing.T) {
	read := func(name string) string {
		b, err := os.ReadFile(filepath.Join(samples, name, name+".pdn"))
		if err != nil {
			t.Fatal(err)
		}
		return regexp.MustCompile(`(?m)^\[Game "[a-z]+"\]\n`).ReplaceAllString(string(b), "")
	}
	checkers := read("checkers")
	tests := []struct {
		name, text string
		games      int
		ruleset    string // every game is read as this
		warn       []string
	}{
		{"checkers, first mover at the bottom", algebraic(checkers, true), 10, "checkers",
			[]string{"numbered with the board turned (the first mover at the bottom: a1 = 4, c3 = 11)"}},
		{"checkers, first mover at the top", algebraic(checkers, false), 10, "checkers",
			[]string{"numbered with a1 = 29"}},
		{"checkers in numbers", checkers, 10, "checkers", nil},
		{"russian", read("russian"), 10, "russian", nil},
		{"russian as Russian files write it", russianSpelling(read("russian")), 10, "russian", nil},
		{"an empty problem after checkers games", checkers + "\n[Event \"#14\"]\n[Result \"1/2-1/2\"]\n[FEN \"W::.\"]\n1/2-1/2\n", 11, "checkers",
			[]string{`game 11: warning: result: [Result "1/2-1/2"] of an empty board without moves: not checked`}},
		// Boland's Bridges (corpus): problems without moves, whose moves say
		// nothing of the file's ruleset, then an empty board: the ruleset of
		// the problem before it.
		{"an empty problem after problems without moves", "[Event \"#1\"]\n[Result \"0-1\"]\n[FEN \"W:W13,11,10,6:BK14,3,1.\"]\n0-1\n\n" +
			"[Event \"#2\"]\n[Result \"1/2-1/2\"]\n[FEN \"W::.\"]\n1/2-1/2\n", 2, "checkers",
			[]string{"game 2: warning: ruleset: no Game or GameType tag: read as checkers (it writes no square to judge by"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if strings.Contains(tt.text, "[Game ") {
				t.Fatal("the text still names its game")
			}
			f := writeTemp(t, "untagged.pdn", tt.text)
			out, errOut, status := plateau(t, "validate", "--warnings", f)
			if status != exitOK || !strings.Contains(out, strconv.Itoa(tt.games)+" games, "+strconv.Itoa(tt.games)+" valid, 0 invalid") {
				t.Fatalf("status %d\n%s%s", status, out, errOut)
			}
			if n := strings.Count(out, "read as "+tt.ruleset+" ("); n != tt.games {
				t.Errorf("%d games read as %s, want %d:\n%s", n, tt.ruleset, tt.games, out)
			}
			for _, w := range tt.warn {
				if !strings.Contains(out, w) {
					t.Errorf("no warning %q:\n%s", w, out)
				}
			}
		})
	}
}

// TestValidateFailCorpus: every file of the PDN fail corpus is refused, or
// read with a warning naming the line and the grammar rule of its fault.
func TestValidateFailCorpus(t *testing.T) {
	dir := filepath.Join(corpus, "pdn", "fail")
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("corpus %s is missing (%v)", dir, err)
	}
	tests := []struct {
		file    string
		invalid int
		lines   []string // substrings of validate --warnings lines
	}{
		{"40Camp.DamaInternazionaleAssoluto.pdn", 0, []string{
			":226: game 11: warning: syntax: no result before the next game's tags (line 228)", "GameSeparator"}},
		{"Cat.A1.pdn", 0, []string{":405: game 30: warning: syntax: stray '.' dropped (PDN grammar: no token is '.' alone"}},
		{"Cat.C1.pdn", 1, []string{":579: game 43: warning: syntax: move number without a move (PDN grammar: GameMove is MOVENUMBER? Move",
			":579: game 43: warning: syntax: no result before the next game's tags (line 582)"}},
		{"abatsiev.pdn", 0, []string{":595: game 36: warning: syntax: 50 unknown moves written '-'", "'-' alone is no move"}},
		{"delfts.pdn", 0, []string{`:26: game 1: warning: syntax: "4-6" read as the game's result, not as a move`, "Result is 1-0",
			`:53: game 2: warning: result: [Result "1-9"] is no result marker`}},
		{"mrdrcd07.pdn", 0, []string{":198: game 12: warning: syntax: move number without a move"}},
		{"mrdrcd08.pdn", 0, []string{":499: game 31: warning: syntax: move number without a move"}},
		{"nested_comment.pdn", 1, []string{":1: game 1: '{' inside a comment (comments do not nest)"}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			out, errOut, _ := plateau(t, "validate", "--warnings", filepath.Join(dir, tt.file))
			if !strings.Contains(out, " valid, "+strconv.Itoa(tt.invalid)+" invalid") {
				t.Errorf("want %d invalid:\n%s%s", tt.invalid, out, errOut)
			}
			for _, l := range tt.lines {
				if !strings.Contains(out, l) {
					t.Errorf("no line with %q:\n%s", l, out)
				}
			}
		})
	}
}

// brazilianUntagged is an untagged file whose first three games Russian,
// Brazilian, Czech, pool and checkers rules all read, and whose last two
// only Brazilian rules read with one other each (Czech: a man that passes
// the far row in a capture and stops; Russian: a man that captures
// backward): Brazilian is the file's majority.
const brazilianUntagged = `[Event "ambiguous 1"]
[Result "*"]

1. c3-d4 f6-e5 2. d4xf6 g7xe5 *

[Event "ambiguous 2"]
[Result "*"]

1. e3-f4 d6-c5 2. g3-h4 c7-d6 *

[Event "ambiguous 3"]
[Result "*"]

1. c3-b4 f6-g5 2. b4-a5 g7-f6 *

[Event "brazilian and czech"]
[FEN "W:Wb6,a1:Bc7,g5,h8"]
[Result "*"]

1. b6xd8 *

[Event "brazilian and russian"]
[FEN "W:Wd4,a1:Be3,h8"]
[Result "*"]

1. d4xf2 *
`

// TestDetectionWholeFile: the whole file's evidence decides the ruleset of
// its first games too, alike in every command that reads the file:
// validate names the rulesets that also read a game and the count that
// decided; export, its JSON, show's list and show of one game (read
// through the file's index) read game 1 as brazilian, which russian, first
// in the order tried, read before the look-ahead.
func TestDetectionWholeFile(t *testing.T) {
	f := writeTemp(t, "untagged.pdn", brazilianUntagged)
	out, errOut, status := plateau(t, "validate", "--warnings", f)
	if status != exitOK {
		t.Fatalf("status %d\n%s%s", status, out, errOut)
	}
	if n := strings.Count(out, "read as brazilian ("); n != 5 {
		t.Errorf("%d games read as brazilian, want 5:\n%s", n, out)
	}
	if w := "game 1: warning: ruleset: no Game or GameType tag: read as brazilian (every square exists on 8×8 and every move is legal under brazilian); russian, czech, pool, checkers read it as valid too: the file's majority, brazilian read 5 of its 5 untagged games"; !strings.Contains(out, w) {
		t.Errorf("no warning %q:\n%s", w, out)
	}
	// Standard input, which cannot be read twice, is read ahead as well.
	stdin := func(args ...string) string {
		t.Helper()
		fd, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		defer fd.Close()
		saved := os.Stdin
		os.Stdin = fd
		defer func() { os.Stdin = saved }()
		return mustRun(t, args...)
	}
	for _, tc := range []struct {
		name, out, want string
	}{
		{"validate -", stdin("validate", "--warnings", "-"), "game 1: warning: ruleset: no Game or GameType tag: read as brazilian"},
		{"export", mustRun(t, "export", f), "[Game \"brazilian\"]\n[Event \"ambiguous 1\"]"},
		{"export json", mustRun(t, "export", "--format", "json", f), `"index":1,"line":1,"game":"brazilian"`},
		{"show list", mustRun(t, "show", f), "   1  brazilian"},
		{"show one game", mustRun(t, "show", f, "--game", "1"), "Brazilian draughts — ambiguous 1"},
	} {
		if !strings.Contains(tc.out, tc.want) {
			t.Errorf("%s: no %q in\n%s", tc.name, tc.want, tc.out)
		}
	}
}
