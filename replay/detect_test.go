package replay_test

import (
	"strings"
	"testing"

	"github.com/plateau/plateau/record"
	"github.com/plateau/plateau/replay"
	"github.com/plateau/plateau/rules"
)

// ones is race where only "+1" is legal, registered under the PDN GameType
// 21 so that detection tries it as an 8×8 ruleset.
type ones struct{ race }

func (ones) ID() string { return "ones" }
func (ones) NewPosition(s string) (rules.Position, error) {
	p, err := race{}.NewPosition(s)
	if err != nil {
		return nil, err
	}
	return &onesPos{p.(*racePos)}, nil
}

type onesPos struct{ *racePos }

func (p *onesPos) Clone() rules.Position { c := *p.racePos; return &onesPos{&c} }
func (p *onesPos) ParseMove(text string) (rules.Move, error) {
	m, err := p.racePos.ParseMove(text)
	if err == nil && m == 2 {
		return 0, &rules.MoveError{Text: text, Kind: rules.Illegal, Rule: "only ones"}
	}
	return m, err
}

// ones2 is ones under another id and the PDN GameType 22, to test
// Options.Prefer.
type ones2 struct{ ones }

func (ones2) ID() string { return "ones2" }

func init() {
	rules.Register(ones{}, "21")
	rules.Register(ones2{}, "22")
}

func TestDetect(t *testing.T) {
	tests := []struct {
		name    string
		rec     *record.Game
		detect  bool
		prefer  string
		id      string // ruleset chosen
		valid   bool
		warning string // substring of the ruleset warning; "" for none
		err     string // substring of the error
	}{
		{name: "fits 8×8, legal under the first family", rec: game("", "", "*", "+1 +1"), detect: true, id: "ones", valid: true,
			warning: "no Game or GameType tag: read as ones (every square exists on 8×8 and every move is legal under ones)"},
		{name: "fits 8×8, only the default reads it", rec: game("", "", "*", "+1 +2"), detect: true, id: "race", valid: true,
			warning: "read as race (every square exists on 8×8 and every move is legal under race; not under ones"},
		{name: "a FEN alone decides", rec: game("", "5", "*", ""), detect: true, id: "ones", valid: true, warning: "read as ones"},
		{name: "fits 8×8, nobody reads it: the error names the rulesets tried", rec: game("", "", "*", "+1 +1 +3"), detect: true, id: "ones",
			err: `ply 3 "+3": illegal move "+3" (too far) (no Game or GameType tag: read as ones); no ruleset reads it as a valid game (tried ones, `},
		{name: "the one that plays most moves gives the error", rec: game("", "", "*", "+2 +3"), detect: true, id: "race",
			err: ", race)"},
		{name: "a square above 32: the default alone", rec: game("", "", "*", "+1 +33"), detect: true, id: "race",
			err: "(no Game or GameType tag: read as race)"},
		{name: "no square at all: the default", rec: game("", "", "*", ""), detect: true, id: "race", valid: true},
		{name: "the previous game's ruleset is tried first", rec: game("", "", "*", "+1 +1"), detect: true, prefer: "ones2", id: "ones2", valid: true,
			warning: "read as ones2 (as the game before it in the file; every square exists on 8×8 and every move is legal under ones2)"},
		{name: "the preference gives way when it cannot read the game", rec: game("", "", "*", "+1 +2"), detect: true, prefer: "ones2", id: "race", valid: true,
			warning: "not under ones2, ones"},
		{name: "the default is never preferred", rec: game("", "", "*", "+1 +1"), detect: true, prefer: "race", id: "ones", valid: true, warning: "read as ones (every square"},
		{name: "without detection: the default", rec: game("", "", "*", "+1 +1"), id: "race", valid: true},
		{name: "a Game tag is obeyed", rec: game("race", "", "*", "+1 +1"), detect: true, id: "race", valid: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := replay.Replay(tt.rec, replay.Options{DefaultGame: "race", Detect: tt.detect, Prefer: tt.prefer})
			if g.Rules == nil || g.Rules.ID() != tt.id {
				t.Fatalf("ruleset %v, want %s (err %v)", g.Rules, tt.id, g.Err)
			}
			if (g.Err == nil) != tt.valid {
				t.Fatalf("valid = %v, want %v (err %v)", g.Err == nil, tt.valid, g.Err)
			}
			if g.Err != nil && !strings.Contains(g.Err.Error(), tt.err) {
				t.Errorf("error %q, want it to contain %q", g.Err, tt.err)
			}
			var got string
			for _, w := range g.Warnings {
				if w.Kind == replay.WarnRuleset {
					got = w.Text
				}
			}
			if tt.warning == "" && got != "" || !strings.Contains(got, tt.warning) {
				t.Errorf("ruleset warning %q, want %q", got, tt.warning)
			}
			if (g.Detected() != "") != (got != "") {
				t.Errorf("Detected %q with warning %q", g.Detected(), got)
			}
			if g.Err == nil && g.Canonical().Tag("Game") != tt.id {
				t.Errorf("canonical Game tag %q", g.Canonical().Tag("Game"))
			}
		})
	}
}
