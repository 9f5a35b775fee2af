package replay

import (
	"strings"
	"testing"

	"github.com/plateau/plateau/record"
	"github.com/plateau/plateau/rules"
	_ "github.com/plateau/plateau/rules/dames"
)

// TestNumberText: algebraic squares are written as checkers numbers, the
// board as it stands (a1 = 29) or turned half round (a1 = 4), capture
// marks as 'x'; a light square is refused.
func TestNumberText(t *testing.T) {
	tests := []struct {
		text   string
		turned bool
		want   string
		ok     bool
	}{
		{"c3-d4", false, "22-18", true},
		{"c3-d4", true, "11-15", true},
		{"a1-b2", false, "29-25", true},
		{"a1-b2", true, "4-8", true},
		{"h8-g7", false, "4-8", true},
		{"b8xd6xf8", true, "32x23x30", true},
		{"d4:f6", true, "15x22", true},
		{"c3d4", true, "11-15", true},    // no mark between neighbours: a step
		{"d4f6", true, "15x22", true},    // no mark across a square: a capture
		{"c3-d4!", true, "11-15!", true}, // other text kept
		{"a2-b3", true, "", false},       // a light square
	}
	for _, tt := range tests {
		got, ok := numberText(tt.text, tt.turned)
		if got != tt.want || ok != tt.ok {
			t.Errorf("numberText(%q, %v) = %q %v, want %q %v", tt.text, tt.turned, got, ok, tt.want, tt.ok)
		}
	}
}

// TestNumbered: who moves first from the start turns the board: a first
// move from ranks 1–4 puts the first mover at the bottom; variations are
// numbered too, and the record itself is left alone.
func TestNumbered(t *testing.T) {
	mk := func(texts ...string) *record.Game {
		g := &record.Game{}
		for i, s := range texts {
			g.Moves = append(g.Moves, &record.Move{Text: s, Ply: i})
		}
		return g
	}
	bottom := mk("c3-d4", "f6-g5")
	bottom.Moves[1].Variations = []record.Line{{&record.Move{Text: "b6-a5", Ply: 1}}}
	n, how, ok := numbered(bottom)
	if !ok || n.Moves[0].Text != "11-15" || n.Moves[1].Text != "22-17" || n.Moves[1].Variations[0][0].Text != "24-20" || !strings.Contains(how, "turned") {
		t.Errorf("first mover at the bottom: %v %q %v", n, how, ok)
	}
	if bottom.Moves[0].Text != "c3-d4" || bottom.Moves[1].Variations[0][0].Text != "b6-a5" {
		t.Errorf("the record was changed")
	}
	top := mk("f6-e5", "c3-d4")
	if n, how, ok := numbered(top); !ok || n.Moves[0].Text != "11-15" || n.Moves[1].Text != "22-18" || !strings.Contains(how, "a1 = 29") {
		t.Errorf("first mover at the top: %v %q %v", n, how, ok)
	}
	for _, g := range []*record.Game{mk(), mk("c3-d4", "a2-b3"), mk("11-15")} {
		if _, _, ok := numbered(g); ok {
			t.Errorf("%v numbered", g.Moves)
		}
	}
}

// TestVotesChoose: among the rulesets that read a record, the one that read
// the most of the file's games before wins; on a tie the one tried first
// (the previous game's, when it is one of them). Votes of another file do
// not count, a moveless game adds none, and a copy does not move with the
// votes it was taken from.
func TestVotesChoose(t *testing.T) {
	lookup := func(id string) rules.Game {
		rg, err := rules.Lookup(id)
		if err != nil {
			t.Fatal(err)
		}
		return rg
	}
	rec := &record.Game{Pos: record.Pos{File: "a.pdn", Line: 1}, Moves: record.Line{{Text: "c3-d4"}}}
	readings := func(ids ...string) []reading {
		var out []reading
		for i, id := range ids {
			out = append(out, reading{g: &Game{Record: rec, Rules: lookup(id)}, at: i})
		}
		return out
	}
	add := func(v *Votes, file string, ids ...string) {
		v.Add(&Game{Record: &record.Game{Pos: record.Pos{File: file}}, readBy: ids})
	}
	var v Votes
	g := v.choose(rec, readings("russian", "checkers"), "", nil, nil, false)
	if g.Rules.ID() != "russian" || !strings.Contains(g.Warnings[0].Text, "checkers read it as valid too: russian comes first in the order tried") {
		t.Errorf("no votes: %s %v", g.Rules.ID(), g.Warnings)
	}
	if strings.Join(g.readBy, ",") != "russian,checkers" {
		t.Errorf("readBy %v", g.readBy)
	}
	add(&v, "a.pdn", "checkers")
	add(&v, "a.pdn", "checkers", "russian")
	snap := v.Copy()
	g = v.choose(rec, readings("russian", "checkers"), "russian", nil, nil, false)
	if g.Rules.ID() != "checkers" || !strings.Contains(g.Warnings[0].Text, "russian read it as valid too: the file's majority, checkers read 2 of its 2 untagged games before it") {
		t.Errorf("majority: %s %v", g.Rules.ID(), g.Warnings)
	}
	add(&v, "a.pdn", "russian")
	if g = snap.choose(rec, readings("russian", "checkers"), "", nil, nil, false); g.Rules.ID() != "checkers" {
		t.Errorf("the copy moved with the votes: %s", g.Rules.ID())
	}
	if g = v.choose(rec, readings("checkers", "russian"), "checkers", nil, nil, false); g.Rules.ID() != "checkers" ||
		!strings.Contains(g.Warnings[0].Text, "as the game before it in the file") {
		t.Errorf("tie: %s %v", g.Rules.ID(), g.Warnings)
	}
	add(&v, "b.pdn", "czech")
	if g = v.choose(rec, readings("russian", "czech"), "", nil, nil, false); g.Rules.ID() != "russian" || v.leader("b.pdn") != "czech" || v.leader("a.pdn") != "" {
		t.Errorf("another file's votes: %s, leader %q", g.Rules.ID(), v.leader("b.pdn"))
	}
	g = v.choose(rec, readings("russian", "czech"), "", []string{"pool"}, []int{1}, true)
	if g.readBy != nil || !strings.Contains(g.Warnings[0].Text, "no move to tell it from the 1 other rulesets") || strings.Contains(g.Warnings[0].Text, "not under") {
		t.Errorf("moveless: %v %v", g.readBy, g.Warnings)
	}
}

// choose is the choice among readings of rec with the votes v (tallyFor).
func (v *Votes) choose(rec *record.Game, valid []reading, prefer string, tried []string, triedAt []int, moveless bool) *Game {
	return v.tallyFor(rec).choose(valid, prefer, tried, triedAt, moveless)
}

// leader is the leader of v's votes for a record of file.
func (v *Votes) leader(file string) string {
	return v.tallyFor(&record.Game{Pos: record.Pos{File: file}}).leader()
}

// TestEvidenceChoose: a record that carries its file's evidence is read with
// it, not with the votes of the games before it; the warning says whether
// the evidence counted the whole file or its first games.
func TestEvidenceChoose(t *testing.T) {
	lookup := func(id string) rules.Game {
		rg, err := rules.Lookup(id)
		if err != nil {
			t.Fatal(err)
		}
		return rg
	}
	var v Votes
	for range 3 {
		v.Add(&Game{Record: &record.Game{Pos: record.Pos{File: "a.pdn"}}, readBy: []string{"russian", "brazilian"}})
	}
	v.Add(&Game{Record: &record.Game{Pos: record.Pos{File: "a.pdn"}}, readBy: []string{"brazilian"}})
	ev := v.Evidence(true)
	if ev.Games != 4 || ev.Read["brazilian"] != 4 || ev.Read["russian"] != 3 || !ev.Whole {
		t.Fatalf("evidence %+v", ev)
	}
	var none Votes // the games before it: none
	for _, tc := range []struct {
		ev   *record.Evidence
		want string
		text string
	}{
		{nil, "russian", "brazilian read it as valid too: russian comes first in the order tried"},
		{ev, "brazilian", "russian read it as valid too: the file's majority, brazilian read 4 of its 4 untagged games"},
		{v.Evidence(false), "brazilian", "the file's majority, brazilian read 4 of its first 4 untagged games"},
	} {
		rec := &record.Game{Pos: record.Pos{File: "a.pdn", Line: 1}, Moves: record.Line{{Text: "c3-d4"}}, Evidence: tc.ev}
		valid := []reading{{g: &Game{Record: rec, Rules: lookup("russian")}, at: 0}, {g: &Game{Record: rec, Rules: lookup("brazilian")}, at: 1}}
		g := none.choose(rec, valid, "", nil, nil, false)
		if g.Rules.ID() != tc.want || !strings.Contains(g.Warnings[0].Text, tc.text) {
			t.Errorf("evidence %+v: %s %q, want %s %q", tc.ev, g.Rules.ID(), g.Warnings[0].Text, tc.want, tc.text)
		}
	}
	// A record without moves and squares is read under the evidence's
	// leader.
	if l := none.tallyFor(&record.Game{Pos: record.Pos{File: "b.pdn"}, Evidence: ev}).leader(); l != "brazilian" {
		t.Errorf("leader %q", l)
	}
}

// TestEvidenceIgnoresPrefer: with its file's evidence a record's ruleset
// does not depend on the game before it: on a tie the order tried decides,
// not Options.Prefer (an import's chunks know no game before their first).
func TestEvidenceIgnoresPrefer(t *testing.T) {
	ev := &record.Evidence{Read: map[string]int{"russian": 2, "brazilian": 2}, Games: 2, Whole: true}
	for _, tc := range []struct {
		ev   *record.Evidence
		want string
	}{{nil, "brazilian"}, {ev, "russian"}} {
		rec := &record.Game{Pos: record.Pos{File: "a.pdn"}, Moves: record.Line{{Text: "c3-d4"}, {Text: "f6-e5"}}, Evidence: tc.ev}
		g := Replay(rec, Options{DefaultGame: "draughts", Detect: true, Prefer: "brazilian"})
		if g.Err != nil || g.Rules.ID() != tc.want {
			t.Errorf("evidence %v: %v %v, want %s", tc.ev, g.Rules, g.Err, tc.want)
		}
	}
}
