package replay_test

import (
	"strings"
	"testing"

	"github.com/plateau/plateau/record"
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
		{name: "PDN 3.0: the movetext ends with '*', the Result tag has the result", id: "race", tag: "1-0", text: "*", moves: "+2 +2 +2 +2 +2", valid: true},
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

// TestLenientRecords: the Reader's warnings come first among the game's
// (kind syntax, with the grammar rule); a main line is played up to its
// first unknown move ('-'), the rest kept as written; a Result that is no
// result marker ("4-6", a score) is kept with a warning instead of making
// the record invalid.
func TestLenientRecords(t *testing.T) {
	tests := []struct {
		name      string
		tag, text string
		moves     string
		syntax    []record.Warning
		plies     int
		warn      []string // substrings of the warnings, in order
		canon     string   // the canonical main line
	}{
		{name: "the record's warnings, first", tag: "1-0", text: "1-0", moves: "+2 +2 +2 +2 +2", plies: 5,
			syntax: []record.Warning{{Pos: record.Pos{Line: 3}, Rule: "GameSeparator", Msg: "no result"}},
			warn:   []string{"no result (PDN grammar: GameSeparator)"}, canon: "+2 +2 +2 +2 +2"},
		{name: "unknown moves end what is played", tag: "*", text: "*", moves: "+1 +1 - - +2", plies: 2,
			canon: "+1 +1 - - +2"},
		{name: "unknown moves from the start", tag: "1-0", text: "1-0", moves: "- - - -", plies: 0, canon: "- - - -"},
		{name: "a move after an unknown one is not played", tag: "0-1", text: "0-1", moves: "+1 - +1", plies: 1,
			warn: []string{`[Result "0-1"] but the final position does not give it`}, canon: "+1 - +1"},
		{name: "a score for a result", tag: "4-6", text: "4-6", moves: "+1", plies: 1,
			warn: []string{`[Result "4-6"] is no result marker: kept as written`}, canon: "+1"},
		{name: "a score tag, an unknown movetext result: no clash", tag: "4-6", text: "*", moves: "+1", plies: 1,
			warn: []string{`[Result "4-6"] is no result marker`}, canon: "+1"},
		{name: "a score tag on a finished game", tag: "1-9", moves: "+2 +2 +2 +2 +2", plies: 5,
			warn: []string{`[Result "1-9"] is no result marker`}, canon: "+2 +2 +2 +2 +2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := game("race-picky", "", tt.tag, tt.moves)
			rec.Result = tt.text
			rec.Warnings = tt.syntax
			g := replay.Replay(rec, replay.Options{})
			if g.Err != nil {
				t.Fatalf("invalid: %v", g.Err)
			}
			if g.Plies() != tt.plies {
				t.Errorf("%d plies, want %d", g.Plies(), tt.plies)
			}
			if len(g.Warnings) != len(tt.warn) {
				t.Fatalf("warnings %v, want %q", g.Warnings, tt.warn)
			}
			for i, w := range tt.warn {
				kind := replay.WarnResult
				if i < len(tt.syntax) {
					kind = replay.WarnSyntax
				}
				if g.Warnings[i].Kind != kind || !strings.Contains(g.Warnings[i].Text, w) {
					t.Errorf("warning %d = %v, want %s %q", i, g.Warnings[i], kind, w)
				}
			}
			var got []string
			for _, m := range g.Canonical().Moves {
				got = append(got, m.Text)
			}
			if strings.Join(got, " ") != tt.canon {
				t.Errorf("canonical moves %q, want %q", got, tt.canon)
			}
			if g.Result != tt.tag {
				t.Errorf("Result %q, want %q", g.Result, tt.tag)
			}
		})
	}
}
