package jetan

import (
	"fmt"
	"sort"

	"github.com/plateau/plateau/rules"
)

// Rule names of illegal moves (MoveError.Rule).
const (
	RuleGameOver        = "game over"
	RuleEmptySquare     = "empty square"
	RuleNotYourPiece    = "not your piece"
	RuleWrongPiece      = "wrong piece"
	RuleNullMove        = "null move"
	RuleOccupied        = "occupied square"
	RuleNothingCaptured = "nothing to capture"
	RuleUnreachable     = "unreachable square"
	RulePathBlocked     = "path blocked"
	RulePrincessCapture = "princess cannot capture"
	RuleThreatened      = "threatened square"
	RuleEscapeUsed      = "escape used"
)

var moveShapes = [numKinds + 1]string{
	"",
	"the Chief moves exactly 3 steps, straight or diagonal in any mix",
	"the Princess moves exactly 3 steps like the Chief, or makes her escape",
	"the Flier moves exactly 3 diagonal steps",
	"the Dwar moves exactly 3 straight steps",
	"the Warrior moves exactly 2 straight steps",
	"the Padwar moves exactly 2 diagonal steps",
	"the Thoat moves one straight and one diagonal step",
	"the Panthan moves one step forward, sideways or diagonally forward",
}

// parseSquare reads a square name at the start of s: a file a–j and a rank
// 1–10. It returns the square and the number of bytes read.
func parseSquare(s string) (sq, n int, ok bool) {
	if len(s) < 2 || s[0] < 'a' || s[0] > 'j' || s[1] < '1' || s[1] > '9' {
		return 0, 0, false
	}
	file, rank, n := int(s[0]-'a'), int(s[1]-'0'), 2
	if rank == 1 && len(s) > 2 && s[2] == '0' {
		rank, n = 10, 3
	}
	return (rank-1)*size + file, n, true
}

// ParseMove implements rules.Position. The long form is from-square,
// "-" or "x", to-square (e2-e3, e2xe5; the separator may be left out, and
// "-" is accepted for a capture, but "x" must capture); a piece letter may
// come first (Ne2-e3). The short form is a piece letter and the
// destination (Ne3, Nxe3) and names the one piece of that kind that can go
// there. The Princess's escape is written like any move and recognised from
// its length.
func (p *Position) ParseMove(text string) (rules.Move, error) {
	s := text
	kind, i := 0, 0
	if len(s) > 0 {
		if k := kindFromLetter(s[0]); k != 0 {
			kind, i = k, 1
		}
	}
	syntax := func(detail string) (rules.Move, error) {
		return 0, &rules.MoveError{Text: text, Kind: rules.Syntax, Detail: detail}
	}
	capMark := false
	if kind != 0 && i < len(s) && s[i] == 'x' {
		to, n, ok := parseSquare(s[i+1:])
		if !ok || i+1+n != len(s) {
			return syntax("want a square after the x")
		}
		return p.parseShort(text, kind, to, true)
	}
	from, n, ok := parseSquare(s[i:])
	if !ok {
		return syntax("want a square a1–j10")
	}
	i += n
	if i == len(s) {
		if kind == 0 {
			return syntax("want from-square and to-square (e2-e3)")
		}
		return p.parseShort(text, kind, from, false)
	}
	switch s[i] {
	case '-':
		i++
	case 'x':
		capMark = true
		i++
	}
	to, n, ok := parseSquare(s[i:])
	if !ok || i+n != len(s) {
		return syntax("want from-square and to-square (e2-e3)")
	}
	return p.check(text, kind, from, to, capMark)
}

func illegal(text, rule, detail string) error {
	return &rules.MoveError{Text: text, Kind: rules.Illegal, Rule: rule, Detail: detail}
}

// check returns the move from → to if it is legal, or why not.
func (p *Position) check(text string, kind, from, to int, capMark bool) (rules.Move, error) {
	if o := p.Outcome(); o.Over {
		return 0, illegal(text, RuleGameOver, fmt.Sprintf("the game ended %s (%s)", o.Result, o.Reason))
	}
	side := p.toMove
	c := p.board[from]
	if c == 0 {
		return 0, illegal(text, RuleEmptySquare, "no piece on "+SquareName(from))
	}
	if sideOf(c) != side {
		return 0, illegal(text, RuleNotYourPiece, "the piece on "+SquareName(from)+" is the opponent's")
	}
	k := kindOf(c)
	if kind != 0 && kind != k {
		return 0, illegal(text, RuleWrongPiece, fmt.Sprintf("%s holds a %s", SquareName(from), kindNames[k]))
	}
	if from == to {
		return 0, illegal(text, RuleNullMove, "a move may not end where it began")
	}
	t := p.board[to]
	if t != 0 && sideOf(t) == side {
		return 0, illegal(text, RuleOccupied, SquareName(to)+" holds a piece of the same side")
	}
	if capMark && t == 0 {
		return 0, illegal(text, RuleNothingCaptured, SquareName(to)+" is empty")
	}
	if k == princess {
		if t != 0 {
			return 0, illegal(text, RulePrincessCapture, "the Princess never captures")
		}
		ordinary := reach[princess][from][to] != 0
		if !ordinary && !p.escape[side] {
			return 0, illegal(text, RuleEscapeUsed, "beyond her three steps the Princess needs her escape, already made")
		}
		if p.threatened(to, side.Other(), from) {
			return 0, illegal(text, RuleThreatened, "an enemy piece could move to "+SquareName(to))
		}
		return newMove(from, to, !ordinary, false), nil
	}
	if !p.reaches(c, from, to) {
		if reach[moveClass(k, side)][from][to] == 0 {
			return 0, illegal(text, RuleUnreachable, moveShapes[k])
		}
		return 0, illegal(text, RulePathBlocked, "every path to "+SquareName(to)+" crosses a piece")
	}
	return newMove(from, to, false, t != 0), nil
}

// parseShort resolves a piece letter and a destination.
func (p *Position) parseShort(text string, kind, to int, capMark bool) (rules.Move, error) {
	if o := p.Outcome(); o.Over {
		return 0, illegal(text, RuleGameOver, fmt.Sprintf("the game ended %s (%s)", o.Result, o.Reason))
	}
	var found []rules.Move
	var lastErr error
	pieces, sameRule := 0, true
	for from, c := range p.board {
		if c == 0 || sideOf(c) != p.toMove || kindOf(c) != kind {
			continue
		}
		pieces++
		m, err := p.check(text, kind, from, to, capMark)
		if err != nil {
			if lastErr != nil && lastErr.(*rules.MoveError).Rule != err.(*rules.MoveError).Rule {
				sameRule = false
			}
			lastErr = err
			continue
		}
		found = append(found, m)
	}
	switch {
	case len(found) == 1:
		return found[0], nil
	case pieces == 0:
		return 0, illegal(text, RuleEmptySquare, "no "+kindNames[kind]+" of the side to move is on the board")
	case len(found) == 0 && sameRule:
		return 0, lastErr // every piece's reason (the one piece's)
	case len(found) == 0:
		return 0, illegal(text, RuleUnreachable, "no "+kindNames[kind]+" can move to "+SquareName(to))
	}
	cands := make([]string, len(found))
	for i, m := range found {
		cands[i] = p.FormatMove(m)
	}
	sort.Strings(cands)
	return 0, &rules.MoveError{Text: text, Kind: rules.Ambiguous, Candidates: cands}
}

// FormatMove implements rules.Position: e2-e3, or e2xe5 for a capture.
func (p *Position) FormatMove(m rules.Move) string {
	sep := "-"
	if m&moveCapture != 0 {
		sep = "x"
	}
	return SquareName(moveFrom(m)) + sep + SquareName(moveTo(m))
}
