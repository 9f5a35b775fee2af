package criteria

import (
	"reflect"
	"strings"
	"testing"

	"github.com/plateau/plateau/record"
)

// TestWithout: the conditions but one keep the arguments of the others, in
// order.
func TestWithout(t *testing.T) {
	var w Where
	w.Add("a = ?", 1)
	w.Add("b IN (?, ?)", 2, 3)
	w.Add("c")
	w.Add("d = ?", 4)
	for _, tc := range []struct {
		i    int
		cond string
		args []any
	}{
		{0, "b IN (?, ?) AND c AND d = ?", []any{2, 3, 4}},
		{1, "a = ? AND c AND d = ?", []any{1, 4}},
		{2, "a = ? AND b IN (?, ?) AND d = ?", []any{1, 2, 3, 4}},
		{3, "a = ? AND b IN (?, ?) AND c", []any{1, 2, 3}},
		{9, w.String(), w.Args()},
	} {
		cond, args := w.Without(tc.i)
		if cond != tc.cond || !reflect.DeepEqual(args, tc.args) {
			t.Errorf("without %d: %q %v, want %q %v", tc.i, cond, args, tc.cond, tc.args)
		}
	}
	var one Where
	one.Add("a = ?", 1)
	if cond, args := one.Without(0); cond != "1" || args != nil {
		t.Errorf("without the only condition: %q %v", cond, args)
	}
	var none Where
	if none.String() != "1" || none.Len() != 0 {
		t.Errorf("no condition: %q, %d", none.String(), none.Len())
	}
}

// TestOnlyValidGame: only the base of a valid query (and its ruleset)
// holds for every game with stored positions.
func TestOnlyValidGame(t *testing.T) {
	for _, tc := range []struct {
		q    Query
		want bool
	}{
		{Query{}, true},
		{Query{Game: "ogi"}, true},
		{Query{Invalid: true}, false},
		{Query{Game: "ogi", Invalid: true}, false},
		{Query{Result: "1-0"}, false},
		{Query{Game: "ogi", MinPlies: 3}, false},
	} {
		w := Base(&tc.q)
		w.Columns(&tc.q, strings.ToLower)
		if got := w.OnlyValidGame(); got != tc.want {
			t.Errorf("%+v: %v, want %v", tc.q, got, tc.want)
		}
	}
	var w Where
	if w.OnlyValidGame() {
		t.Error("no condition: only valid games")
	}
}

// TestColumns: each criterion on a column is its condition, dates and
// folded texts as the column holds them.
func TestColumns(t *testing.T) {
	fold := func(s string) string { return "<" + strings.ToLower(s) + ">" }
	for _, tc := range []struct {
		name string
		q    Query
		cond string
		args []any
	}{
		{"none", Query{}, "1", nil},
		{"event folded", Query{Event: "Ōsaka Open"}, "instr(plateau_fold(g.event), ?) > 0", []any{"<ōsaka open>"}},
		{"site folded", Query{Site: "X"}, "instr(plateau_fold(g.site), ?) > 0", []any{"<x>"}},
		{"termination folded", Query{Termination: "Time"}, "instr(plateau_fold(g.termination), ?) > 0", []any{"<time>"}},
		{"date prefix bounds", Query{DateFrom: "2026", DateTo: "2026.07"}, "g.date >= ? AND g.date <= ?", []any{"2026", "2026.07~"}},
		{"date in another form", Query{DateFrom: "13-01-1996"}, "g.date >= ?", []any{"1996.01.13"}},
		{"result exact", Query{Result: "1-0"}, "g.result = ?", []any{"1-0"}},
		{"plies", Query{MinPlies: 3, MaxPlies: 9}, "g.plies >= ? AND g.plies <= ?", []any{3, 9}},
		{"date tag exact", Query{Tags: []record.Tag{{Name: "date", Value: "13/01/1996"}}}, "g.date = ?", []any{"1996.01.13"}},
		{"column tag exact", Query{Tags: []record.Tag{{Name: "EVENT", Value: "Open"}}}, "g.event = ?", []any{"Open"}},
		{"game tag", Query{Tags: []record.Tag{{Name: "Game", Value: "OGI"}}}, "g.game = ?", []any{"ogi"}},
		{"other tag", Query{Game: "ogi", Tags: []record.Tag{{Name: "Round", Value: "3"}}},
			"EXISTS (SELECT 1 FROM tags t JOIN tag_names n ON n.id = t.tag WHERE n.name = ? COLLATE NOCASE AND t.value = ? AND t.game = g.id)", []any{"Round", "3"}},
		{"side tag of the game", Query{Game: "ogi", Tags: []record.Tag{{Name: "gote", Value: "Fujii"}}},
			"((g.game IN (?) AND g.p1 IN (SELECT id FROM players WHERE name = ?)))", []any{"ogi", "Fujii"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var w Where
			w.Columns(&tc.q, fold)
			if w.String() != tc.cond || !reflect.DeepEqual(w.Args(), tc.args) {
				t.Errorf("got %q %v, want %q %v", w.String(), w.Args(), tc.cond, tc.args)
			}
		})
	}
}

// TestSideTagInAnyGame: without a ruleset, a tag that names a side in some
// rulesets is that side's player there and a stored tag elsewhere.
func TestSideTagInAnyGame(t *testing.T) {
	q := Query{Tags: []record.Tag{{Name: "Sente", Value: "Fujii"}}}
	var w Where
	w.Columns(&q, strings.ToLower)
	cond, args := w.String(), w.Args()
	if !strings.Contains(cond, "g.p0 IN (SELECT id FROM players WHERE name = ?)") ||
		!strings.Contains(cond, "(NOT g.game IN (?) AND EXISTS") {
		t.Errorf("condition %q", cond)
	}
	want := []any{"ogi", "Fujii", "ogi", "Sente", "Fujii"}
	if !reflect.DeepEqual(args, want) {
		t.Errorf("args %v, want %v", args, want)
	}
}

// TestBase: the first condition is the validity, then the ruleset by its
// id (an unknown one as given).
func TestBase(t *testing.T) {
	for _, tc := range []struct {
		q    Query
		cond string
		args []any
	}{
		{Query{}, "g.valid = ?", []any{true}},
		{Query{Invalid: true, Game: "ogi"}, "g.valid = ? AND g.game = ?", []any{false, "ogi"}},
		{Query{Game: "no-such-game"}, "g.valid = ? AND g.game = ?", []any{true, "no-such-game"}},
	} {
		w := Base(&tc.q)
		if w.String() != tc.cond || !reflect.DeepEqual(w.Args(), tc.args) {
			t.Errorf("%+v: %q %v, want %q %v", tc.q, w.String(), w.Args(), tc.cond, tc.args)
		}
	}
}

// TestTagName: known tags and the game's sides in their canonical case,
// others as given.
func TestTagName(t *testing.T) {
	for _, tc := range []struct{ game, name, want string }{
		{"", "event", "Event"},
		{"", "WHITEELO", "WhiteElo"},
		{"ogi", "sente", "Sente"},
		{"", "sente", "sente"},
		{"draughts", "white", "White"},
		{"ogi", "myTag", "myTag"},
	} {
		if got := TagName(tc.game, tc.name); got != tc.want {
			t.Errorf("TagName(%q, %q) = %q, want %q", tc.game, tc.name, got, tc.want)
		}
	}
}
