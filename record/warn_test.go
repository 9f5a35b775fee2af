package record_test

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/plateau/plateau/record"
)

// want is a warning expected: where, and a part of its message and of its
// rule.
type want struct {
	line, col int
	msg, rule string
}

// TestGrammarWarnings: each departure from the PDN grammar that the Reader
// reads past is a warning at its place naming the rule (the faults of the
// PDN fail corpus, one a row), and well-formed movetext has none.
func TestGrammarWarnings(t *testing.T) {
	tests := []struct {
		name, src string
		game      int // the game (0-based) whose warnings are checked
		moves     []string
		result    string
		warns     []want
	}{
		{"no result before the next game", "[Event \"a\"]\n1. 34-29 19-23\n\n[Event \"b\"] 1. 32-28 *", 0,
			[]string{"34-29", "19-23"}, "", []want{{2, 10, "no result before the next game's tags (line 4)", "GameSeparator"}}},
		{"the last game may end without a result", "[Event \"a\"]\n1. 34-29 19-23\n", 0,
			[]string{"34-29", "19-23"}, "", nil},
		{"a stray dot", "1. 17-12 14x45 2. 12-8 . 1-0", 0,
			[]string{"17-12", "14x45", "12-8"}, "1-0", []want{{1, 24, "stray '.'", "'.' alone"}}},
		{"two dots", "1. 17-12 .. 14x45 *", 0,
			[]string{"17-12", "14x45"}, "*", []want{{1, 10, "stray '.'", "'.' alone"}}},
		{"a move number before the result", "[PlyCount \"0\"]\n1. 0-2", 0,
			nil, "0-2", []want{{2, 1, "move number without a move", "MOVENUMBER? Move"}}},
		{"a move number before the next tags", "1. 22-18 13x22 6.\n[Event \"b\"] *", 0,
			[]string{"22-18", "13x22"}, "", []want{{1, 16, "move number without a move", "MOVENUMBER"}, {1, 10, "no result", "GameSeparator"}}},
		{"two move numbers", "1. 2. 32-28 *", 0,
			[]string{"32-28"}, "*", []want{{1, 1, "move number without a move", "MOVENUMBER"}}},
		{"a move number before a variation's end", "1. 32-28 (1. 33-28 2.) 19-23 *", 0,
			[]string{"32-28", "19-23"}, "*", []want{{1, 20, "move number without a move", "MOVENUMBER"}}},
		{"numbers, ellipses and comments before moves are well-formed", "1. {c} 32-28 1... 19-23 2. ... 28x19 12 . 14x23 3. … 33-28 *", 0,
			[]string{"32-28", "19-23", "28x19", "14x23", "33-28"}, "*", nil},
		{"moves without numbers are moves", "11-15 23-19 8-11 22-17 *", 0,
			[]string{"11-15", "23-19", "8-11", "22-17"}, "*", nil},
		{"unknown moves are kept, one warning", "[Result \"1/2-1/2\"]\n1. - - 2. - - 1/2-1/2", 0,
			[]string{"-", "-", "-", "-"}, "1/2-1/2", []want{{2, 4, "4 unknown moves written '-'", "'-' alone is no move"}}},
		{"a score equal to the Result tag ends the game", "[Result \"4-6\"]\n1. 34-29 18-22 4-6\n[Event \"b\"] *", 0,
			[]string{"34-29", "18-22"}, "4-6", []want{{2, 16, `"4-6" read as the game's result`, "Result is 1-0"}}},
		{"the game after the score reads", "[Result \"4-6\"]\n1. 34-29 18-22 4-6\n[Event \"b\"] 1. 32-28 *", 1,
			[]string{"32-28"}, "*", nil},
		{"without that Result tag 4-6 is a move", "[Result \"*\"]\n1. 34-29 4-6 *", 0,
			[]string{"34-29", "4-6"}, "*", nil},
		{"a result tag that is no score leaves moves alone", "[Result \"?\"]\n1. 34-29 *", 0,
			[]string{"34-29"}, "*", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			gs, errs := readAll(t, tt.src)
			if len(errs) != 0 || len(gs) <= tt.game {
				t.Fatalf("%d games, errors %v", len(gs), errs)
			}
			g := gs[tt.game]
			if got := texts(g.Moves); !reflect.DeepEqual(got, tt.moves) {
				t.Errorf("moves %q, want %q", got, tt.moves)
			}
			if g.Result != tt.result {
				t.Errorf("result %q, want %q", g.Result, tt.result)
			}
			checkWarnings(t, g.Warnings, tt.warns)
		})
	}
}

func checkWarnings(t *testing.T, got []record.Warning, wants []want) {
	t.Helper()
	if len(got) != len(wants) {
		t.Fatalf("warnings %v, want %d", got, len(wants))
	}
	for i, w := range wants {
		g := got[i]
		if g.Pos.Line != w.line || g.Pos.Col != w.col || !strings.Contains(g.Msg, w.msg) || !strings.Contains(g.Rule, w.rule) {
			t.Errorf("warning %d = %v, want %d:%d %q (rule %q)", i, g, w.line, w.col, w.msg, w.rule)
		}
	}
}

// TestRussianSpellings: results with a colon (1:0 0:1 1/2:1/2) are results,
// in the movetext and the Result tag, written canonically; a tag value
// without quotes is read up to its ']'; tag names may be written in any
// alphabet. None of them is a warning: each has one reading.
func TestRussianSpellings(t *testing.T) {
	tests := []struct {
		src    string
		result string
		tags   []record.Tag
	}{
		{"1. c3-d4 1:0", "1-0", nil},
		{"1. c3-d4 0:1", "0-1", nil},
		{"1. c3-d4 1/2:1/2", "1/2-1/2", nil},
		{"1. c3-d4 ½:½", "1/2-1/2", nil},
		{"[Result \"1/2:1/2\"] *", "*", []record.Tag{{"Result", "1/2-1/2"}}},
		{"[Result \"½-½\"] *", "*", []record.Tag{{"Result", "1/2-1/2"}}},
		{"[Result \"1-0\"] [Event \"1:0\"] *", "*", []record.Tag{{"Result", "1-0"}, {"Event", "1:0"}}},
		{"[Round 1.1]\n[White Иванов И.И. ]\n*", "*", []record.Tag{{"Round", "1.1"}, {"White", "Иванов И.И."}}},
		{"[Round 3][Site \"Москва\"] *", "*", []record.Tag{{"Round", "3"}, {"Site", "Москва"}}},
		{"[Ход \"Иванов\"] [Résumé \"1-0\"] *", "*", []record.Tag{{"Ход", "Иванов"}, {"Résumé", "1-0"}}},
	}
	for _, tt := range tests {
		g := one(t, tt.src)
		if g.Result != tt.result || !reflect.DeepEqual(g.Tags, tt.tags) || len(g.Warnings) != 0 {
			t.Errorf("%q: result %q tags %q warnings %v, want %q %q", tt.src, g.Result, g.Tags, g.Warnings, tt.result, tt.tags)
		}
	}
	// Still errors: an empty value, a value not closed on its line.
	for _, src := range []string{"[Round ]\n*", "[Round 1.1\n1. c3-d4 *", "[Round \"1]\n*"} {
		if _, errs := readAll(t, src); len(errs) != 1 {
			t.Errorf("%q: errors %v, want one", src, errs)
		}
	}
}

// TestProseParentheses: a parenthesis whose first word is no move (no
// digit: prose, as English checkers books write notes) is a comment, with a
// warning at the '('; one that starts with a move, a move number, an
// ellipsis or a comment is a variation.
func TestProseParentheses(t *testing.T) {
	tests := []struct {
		name, src string
		moves     []string
		after     []string // comments after the first move
		intro     []string
		vars      int // variations of the first move
		warns     []want
	}{
		{"a note after a move", "11-15 (Roberto's first choice; see (game 3) later) 23-19 *",
			[]string{"11-15", "23-19"}, []string{"Roberto's first choice; see (game 3) later"}, nil, 0,
			[]want{{1, 7, "a parenthesis that does not start with a move read as a comment", "Variation is '(' GameBody ')'"}}},
		{"a note before any move", "(White to play and win.) 1. 32-28 *",
			[]string{"32-28"}, nil, []string{"White to play and win."}, 0, []want{{1, 1, "read as a comment", "COMMENT"}}},
		{"an ordinal starts prose", "1. 11-15 (1st choice of the book) 23-19 *",
			[]string{"11-15", "23-19"}, []string{"1st choice of the book"}, nil, 0, []want{{1, 10, "read as a comment", "Variation"}}},
		{"over two lines", "1. 11-15 (a note\n  over two lines) 23-19 *",
			[]string{"11-15", "23-19"}, []string{"a note over two lines"}, nil, 0, []want{{1, 10, "read as a comment", "Variation"}}},
		{"an evaluation sign first", "1. 11-15 (+- for Black) *",
			[]string{"11-15"}, []string{"+- for Black"}, nil, 0, []want{{1, 10, "read as a comment", "Variation"}}},
		{"a variation", "1. 11-15 (11-16 24-20) 23-19 *", []string{"11-15", "23-19"}, nil, nil, 1, nil},
		{"a variation on the next line", "1. 11-15 (\n 1. 11-16) 23-19 *", []string{"11-15", "23-19"}, nil, nil, 1, nil},
		{"a variation with a comment first", "1. 11-15 ({why not} 11-16) *", []string{"11-15"}, nil, nil, 1, nil},
		{"a variation after an ellipsis", "1. 11-15 (... 11-16) *", []string{"11-15"}, nil, nil, 1, nil},
		{"a variation of an algebraic move", "1. c3-d4 (c3-b4) *", []string{"c3-d4"}, nil, nil, 1, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := one(t, tt.src)
			if got := texts(g.Moves); !reflect.DeepEqual(got, tt.moves) {
				t.Fatalf("moves %q, want %q", got, tt.moves)
			}
			if !reflect.DeepEqual(g.Moves[0].After, tt.after) || !reflect.DeepEqual(g.Intro, tt.intro) || len(g.Moves[0].Variations) != tt.vars {
				t.Errorf("after %q intro %q variations %d, want %q %q %d", g.Moves[0].After, g.Intro, len(g.Moves[0].Variations), tt.after, tt.intro, tt.vars)
			}
			checkWarnings(t, g.Warnings, tt.warns)
		})
	}
	// An unclosed note ends at the next tag section, with an error.
	gs, errs := readAll(t, "1. 11-15 (a note\n\n[Event \"b\"] 1. 11-16 *")
	var se *record.Error
	if len(errs) != 1 || len(gs) != 1 || gs[0].Tag("Event") != "b" || !errors.As(errs[0], &se) || se.Pos.Line != 1 || se.Pos.Col != 10 {
		t.Errorf("unclosed note: games %d, errors %v", len(gs), errs)
	}
}

// TestLocalisedTags: a tag named in the file's language adds the standard
// tag it stands for, when the game has none (or an empty one), and is kept;
// a year alone gives the Date when no date does.
func TestLocalisedTags(t *testing.T) {
	tests := []struct {
		src  string
		want map[string]string // standard tags and their values ("" absent)
	}{
		{"[Bianco \"Rossi\"] [Nero \"Verdi\"] [Risultato \"1-0\"] [Dati \"03.07.20\"] *",
			map[string]string{"White": "Rossi", "Black": "Verdi", "Result": "1-0", "Date": "03.07.20", "Bianco": "Rossi"}},
		{"[Anno \"1998\"] [Torneo \"Campionato\"] [Luogo \"Arco\"] [Turno \"3\"] *",
			map[string]string{"Date": "1998", "Event": "Campionato", "Site": "Arco", "Round": "3"}},
		{"[Anno \"1998\"] [Data \"1998.05.02\"] *", map[string]string{"Date": "1998.05.02", "Anno": "1998"}},
		{"[Dati \"69° ASSOLUTO 1° TURNO\"] [Anno \"2005\"] *", map[string]string{"Date": "2005", "Event": "69° ASSOLUTO 1° TURNO"}},
		{"[Data \"primavera\"] *", map[string]string{"Date": ""}},
		{"[Date \"????.??.??\"] [Jaar \"1998\"] *", map[string]string{"Date": "1998"}},
		{"[Blancs \"Dupont\"] [NOIRS \"Durand\"] [Résultat \"0-1\"] [Lieu \"Paris\"] [Ronde \"2\"] *",
			map[string]string{"White": "Dupont", "Black": "Durand", "Result": "0-1", "Site": "Paris", "Round": "2"}},
		{"[Wit \"Sijbrands\"] [zwart \"Baljakin\"] [Uitslag \"1-1\"] [Datum \"13-01-1996\"] *",
			map[string]string{"White": "Sijbrands", "Black": "Baljakin", "Result": "1-1", "Date": "13-01-1996"}},
		{"[Белые \"Иванов\"] [Черные \"Петров\"] [Результат \"1:0\"] [Турнир \"ЧМ\"] *",
			map[string]string{"White": "Иванов", "Black": "Петров", "Result": "1-0", "Event": "ЧМ", "Результат": "1:0"}},
		{"[Brancas \"Silva\"] [Pretas \"Souza\"] [Resultado \"1/2-1/2\"] [Rodada \"4\"] *",
			map[string]string{"White": "Silva", "Black": "Souza", "Result": "1/2-1/2", "Round": "4"}},
		{"[White \"Kept\"] [Bianco \"Other\"] *", map[string]string{"White": "Kept", "Bianco": "Other"}},
		{"[White \"?\"] [Bianco \"Rossi\"] *", map[string]string{"White": "Rossi"}},
		{"[Bianco \"\"] *", map[string]string{"White": ""}},
	}
	for _, tt := range tests {
		g := one(t, tt.src)
		for name, v := range tt.want {
			if got := g.Tag(name); got != v {
				t.Errorf("%q: %s = %q, want %q (tags %q)", tt.src, name, got, v, g.Tags)
			}
		}
	}
}

// TestTagErrorReadsNumber: a tag pair in error that read past a move
// number ([Site 12. …] without quotes nor ']' on its line) leaves it before
// the moves that follow it on the line of its ']': the number stands
// before a move, no warning.
func TestTagErrorReadsNumber(t *testing.T) {
	r := record.NewReader(strings.NewReader("[Event \"x\"]\n[Site 12.\n3]e4 e5 *"), "t")
	g, err := r.Next()
	var se *record.Error
	if !errors.As(err, &se) || !strings.Contains(se.Msg, "value string expected") {
		t.Fatalf("error %v, want the tag pair's", err)
	}
	if got := texts(g.Moves); !reflect.DeepEqual(got, []string{"e4", "e5"}) {
		t.Errorf("moves %q, want e4 e5", got)
	}
	checkWarnings(t, g.Warnings, nil)
}
