package replay_test

import (
	"strings"
	"testing"

	"github.com/plateau/plateau/replay"
	"github.com/plateau/plateau/rules"
)

// strictRace is race without resignation or agreement ("race-strict": a
// position that is not over accepts only "*"), or with them at the start
// only ("race-picky": a game that accepts every result off the board, whose
// CheckResult yet refuses them once play started).
type strictRace struct{ picky bool }

func (r strictRace) ID() string {
	if r.picky {
		return "race-picky"
	}
	return "race-strict"
}
func (strictRace) Name() string           { return "Race to ten" }
func (strictRace) Sides() [2]string       { return [2]string{"White", "Black"} }
func (strictRace) IllegalMoveLoses() bool { return false }
func (r strictRace) NewPosition(s string) (rules.Position, error) {
	p, err := race{}.NewPosition(s)
	if err != nil {
		return nil, err
	}
	return &strictPos{p.(*racePos), r.picky}, nil
}

type strictPos struct {
	*racePos
	picky bool
}

func (p *strictPos) Clone() rules.Position { c := *p.racePos; return &strictPos{&c, p.picky} }
func (p *strictPos) CheckResult(result string) error {
	if !p.Outcome().Over && result != "*" && !(p.picky && p.n == 0) {
		return rules.ErrResult
	}
	return p.racePos.CheckResult(result)
}

func init() {
	rules.Register(strictRace{})
	rules.Register(strictRace{picky: true})
}

func TestResultWarnings(t *testing.T) {
	tests := []struct {
		name      string
		id        string
		tag, text string // Result tag and movetext result ("" for none)
		moves     string
		valid     bool
		warn      []string // substrings of the warnings, in order
	}{
		{name: "tag and movetext agree", id: "race", tag: "1-0", text: "1-0", moves: "+2 +2 +2 +2 +2", valid: true},
		{name: "tag and movetext differ", id: "race", tag: "0-1", text: "1/2-1/2", moves: "+1", valid: true,
			warn: []string{`[Result "0-1"] but the movetext ends with 1/2-1/2`}},
		{name: "tag differs from a finished position: an error", id: "race", tag: "0-1", moves: "+2 +2 +2 +2 +2", valid: false},
		{name: "a result the unfinished position refuses, the game allows it off the board", id: "race-picky", tag: "0-1", moves: "+1", valid: true,
			warn: []string{`[Result "0-1"] but the final position does not give it (the game is not over)`}},
		{name: "both faults", id: "race-picky", tag: "0-1", text: "1-0", moves: "+1", valid: true,
			warn: []string{`[Result "0-1"] but the movetext ends with 1-0`, `[Result "0-1"] but the final position does not give it`}},
		{name: "a result the game never gives off the board (race has no draw by agreement)", id: "race", tag: "1/2-1/2", moves: "+1", valid: false},
		{name: "no resignation in the game: an error", id: "race-strict", tag: "1-0", moves: "+1", valid: false},
		{name: "no resignation, clash of tag and movetext only", id: "race-strict", tag: "1-0", text: "0-1", moves: "+2 +2 +2 +2 +2", valid: true,
			warn: []string{`[Result "1-0"] but the movetext ends with 0-1`}},
		{name: "an illegal move stays an error whatever the result", id: "race", tag: "0-1", text: "1-0", moves: "+1 +3", valid: false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := game(tt.id, "", tt.tag, tt.moves)
			rec.Result = tt.text
			g := replay.Replay(rec, replay.Options{})
			if (g.Err == nil) != tt.valid {
				t.Fatalf("valid = %v, want %v (err %v)", g.Err == nil, tt.valid, g.Err)
			}
			if !tt.valid {
				return
			}
			if len(g.Warnings) != len(tt.warn) {
				t.Fatalf("warnings %v, want %d", g.Warnings, len(tt.warn))
			}
			for i, w := range tt.warn {
				if g.Warnings[i].Kind != replay.WarnResult || !strings.Contains(g.Warnings[i].Text, w) {
					t.Errorf("warning %d = %v, want %q", i, g.Warnings[i], w)
				}
			}
			if g.Result != tt.tag {
				t.Errorf("Result %q, want the tag's %q", g.Result, tt.tag)
			}
		})
	}
}
