package replay_test

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/plateau/plateau/rules"
)

// race is a tiny game for testing replay without a real ruleset: two sides
// add 1 or 2 to a shared counter; whoever reaches 10 wins. "+3" is a
// well-formed but illegal move (rule "too far"); "h" is a move that keeps the
// turn (like a dames huff); "+1!" is accepted with a note (like a dames fault);
// "?" and "?2" are ambiguous, +1 or +2.
type race struct{ loses bool }

func (r race) ID() string             { return map[bool]string{false: "race", true: "race-loses"}[r.loses] }
func (race) Name() string             { return "Race to ten" }
func (race) Sides() [2]string         { return [2]string{"White", "Black"} }
func (r race) IllegalMoveLoses() bool { return r.loses }
func (race) NewPosition(s string) (rules.Position, error) {
	if s == "" {
		return &racePos{}, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 || n >= 10 {
		return nil, rules.PositionError(s, "want a number from 0 to 9")
	}
	return &racePos{n: n}, nil
}

type racePos struct {
	n    int
	side rules.Side
}

func (p *racePos) String() string        { return strconv.Itoa(p.n) }
func (p *racePos) Key() uint64           { return uint64(p.n)<<1 | uint64(p.side) }
func (p *racePos) ToMove() rules.Side    { return p.side }
func (p *racePos) Clone() rules.Position { c := *p; return &c }
func (p *racePos) Legal(dst []rules.Move) []rules.Move {
	if p.n >= 10 {
		return dst
	}
	dst = append(dst, 1)
	if p.n <= 8 {
		dst = append(dst, 2)
	}
	return dst
}

const (
	huff  rules.Move = 100
	fault rules.Move = 101
)

func (p *racePos) ParseMove(text string) (rules.Move, error) {
	switch text {
	case "h":
		return huff, nil
	case "+1!":
		return fault, nil
	case "?":
		return 0, &rules.MoveError{Text: text, Kind: rules.Ambiguous, Candidates: []string{"+1", "+2"}}
	case "?2": // the same, listed the other way round
		return 0, &rules.MoveError{Text: text, Kind: rules.Ambiguous, Candidates: []string{"+2", "+1"}}
	}
	if !strings.HasPrefix(text, "+") {
		return 0, &rules.MoveError{Text: text, Kind: rules.Syntax}
	}
	k, err := strconv.Atoi(text[1:])
	if err != nil {
		return 0, &rules.MoveError{Text: text, Kind: rules.Syntax}
	}
	if k < 1 || k > 2 || p.n+k > 10 {
		return 0, &rules.MoveError{Text: text, Kind: rules.Illegal, Rule: "too far"}
	}
	return rules.Move(k), nil
}

func (p *racePos) FormatMove(m rules.Move) string {
	switch m {
	case huff:
		return "h"
	case fault:
		return "+1!"
	}
	return fmt.Sprintf("+%d", m)
}

func (p *racePos) Describe(m rules.Move) rules.MoveInfo {
	switch m {
	case huff:
		return rules.MoveInfo{KeepsTurn: true}
	case fault:
		return rules.MoveInfo{Note: "fault"}
	}
	return rules.MoveInfo{}
}

func (p *racePos) Play(m rules.Move) {
	switch m {
	case huff:
		return
	case fault:
		m = 1
	}
	p.n += int(m)
	p.side = p.side.Other()
}

func (p *racePos) Outcome() rules.Outcome {
	if p.n < 10 {
		return rules.Outcome{}
	}
	res := "1-0"
	if p.side == 0 { // the side that just moved is Black
		res = "0-1"
	}
	return rules.Outcome{Over: true, Result: res, Reason: "reached ten"}
}

func (p *racePos) CheckResult(result string) error {
	o := p.Outcome()
	switch {
	case o.Over && result != o.Result:
		return fmt.Errorf("%w: %s reached ten, so the result is %s, not %s", rules.ErrResult, o.Reason, o.Result, result)
	case !o.Over && result == "1/2-1/2":
		return fmt.Errorf("%w: no draws in a race", rules.ErrResult)
	}
	return nil
}

func (p *racePos) Board() []rules.Placement { return nil }
func (p *racePos) Diagram() string          { return "[" + p.String() + "]" }

func init() {
	rules.Register(race{})
	rules.Register(race{loses: true})
}
