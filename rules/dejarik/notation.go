package dejarik

import (
	"fmt"
	"math/bits"
	"strings"

	"github.com/plateau/plateau/rules"
)

// Rule names of illegal moves (MoveError.Rule).
const (
	RuleGameOver     = "game over"
	RuleNoPawn       = "no pawn"
	RuleNotYours     = "not your pawn"
	RuleOccupied     = "occupied cell"
	RulePathBlocked  = "path blocked"
	RuleFirstTurn    = "diagonal exit in first turn"
	RuleReEntryOnly  = "re-entry only"
	RuleLateral      = "lateral move"
	RuleNoSuchMove   = "no such move"
	RuleAugmentation = "augmentation"
)

// FormatMove writes origin and first landing cell: "o1-i1", "o4-c",
// "c-o9", "i3-o3", "o2-i3" (a diagonal exit, whatever augmentations follow).
func (p *Position) FormatMove(m rules.Move) string {
	return cellName(moveFrom(m)) + "-" + cellName(moveLand(m))
}

// Describe gives origin, final cell (after augmentations) and the number of
// pawns taken.
func (p *Position) Describe(m rules.Move) rules.MoveInfo {
	return rules.MoveInfo{
		From:     cellName(moveFrom(m)),
		To:       cellName(moveFinal(m)),
		Captures: bits.OnesCount32(moveTaken(m)),
	}
}

// Path lists the cells a move of this position lands on: the first landing
// cell, then each augmentation's landing cell.
func (p *Position) Path(m rules.Move) []string {
	out := []string{cellName(moveLand(m))}
	if moveKind(m) == kindStraight {
		return out
	}
	k, d := moveLand(m), 1
	if around(ringNum(moveFrom(m)), -1) == k || around(ringNum(moveFrom(m)), -2) == k {
		d = -1
	}
	for c := k; c != moveFinal(m) && len(out) <= ring; {
		c = inner(around(c, 2*d))
		out = append(out, cellName(c))
	}
	return out
}

// ParseMove reads "from-to" ('x' may stand for '-', cells in either case),
// where to is the first landing cell; a diagonal exit may also list its
// augmentation landings ("o2-i3-i5"), which must be the forced ones.
func (p *Position) ParseMove(text string) (rules.Move, error) {
	t := strings.TrimSpace(text)
	var buf8 [ring + 2]int
	cells := buf8[:0]
	for len(t) > 0 || len(cells) == 0 {
		i := strings.IndexAny(t, "-xX")
		part := t
		if i >= 0 {
			part, t = t[:i], t[i+1:]
			if t == "" {
				part = "" // a trailing separator
			}
		} else {
			t = ""
		}
		c, ok := parseCell(part)
		if !ok || len(cells) == cap(cells) {
			d := "want from-to, e.g. o1-i1, o4-c, c-o9"
			if part != "" && !ok {
				d = fmt.Sprintf("%q is not a cell (c, i1–i12, o1–o12)", part)
			}
			return 0, &rules.MoveError{Text: text, Kind: rules.Syntax, Detail: d}
		}
		cells = append(cells, c)
	}
	if len(cells) < 2 {
		return 0, &rules.MoveError{Text: text, Kind: rules.Syntax, Detail: "want from-to, e.g. o1-i1, o4-c, c-o9"}
	}
	if o, over := p.stateOutcome(); over {
		return 0, &rules.MoveError{Text: text, Kind: rules.Illegal, Rule: RuleGameOver, Detail: o.Reason}
	}
	from, to := cells[0], cells[1]
	var buf [64]rules.Move
	for _, m := range p.gen(buf[:0]) {
		if moveFrom(m) != from || moveLand(m) != to {
			continue
		}
		if len(cells) > 2 {
			path := p.Path(m)
			ok := len(path) == len(cells)-1
			for i := 1; ok && i < len(path); i++ {
				ok = path[i] == cellName(cells[i+1])
			}
			if !ok {
				return 0, &rules.MoveError{Text: text, Kind: rules.Illegal, Rule: RuleAugmentation,
					Detail: "the pawn lands on " + strings.Join(path, ", ")}
			}
		}
		return m, nil
	}
	rule, detail := p.whyIllegal(from, to)
	return 0, &rules.MoveError{Text: text, Kind: rules.Illegal, Rule: rule, Detail: detail}
}

// whyIllegal names the rule that forbids a move from → to (not legal here).
func (p *Position) whyIllegal(from, to int) (rule, detail string) {
	s := p.toMove
	occ := p.pawns[0] | p.pawns[1]
	switch {
	case p.pawns[s]&bit(from) != 0:
	case p.pawns[s.Other()]&bit(from) != 0:
		return RuleNotYours, cellName(from) + " holds a " + Game.Sides()[s.Other()] + " pawn"
	default:
		return RuleNoPawn, cellName(from) + " is empty"
	}
	if from == to {
		return RuleNoSuchMove, "a move must change cell"
	}
	if occ&bit(to) != 0 {
		return RuleOccupied, "two pawns may never share a cell"
	}
	k := ringNum(from)
	switch {
	case from == centre:
		if isOuter(to) {
			return RulePathBlocked, "the Dejarik inverse crosses " + cellName(inner(ringNum(to)))
		}
		return RuleNoSuchMove, "a pawn on the centre may only go to the outer ring (Dejarik inverse)"
	case isInner(from):
		return RuleReEntryOnly, "a pawn on the inner ring may only go back to " + cellName(outer(k))
	case isOuter(to):
		return RuleLateral, "no move along the outer ring"
	case to == centre:
		return RulePathBlocked, "the Dejarik crosses " + cellName(inner(k))
	}
	dist := 0
	for d := 1; d <= 2; d++ {
		if around(k, d) == ringNum(to) || around(k, -d) == ringNum(to) {
			dist = d
			break
		}
	}
	switch {
	case dist == 0:
		return RuleNoSuchMove, "an exit goes at most two cells aside"
	case p.first[s]:
		return RuleFirstTurn, "no diagonal exit in a player's first turn"
	case occ&bit(inner(k)) != 0:
		return RulePathBlocked, "a diagonal exit needs " + cellName(inner(k)) + " empty"
	}
	d := 1
	if around(k, -dist) == ringNum(to) {
		d = -1
	}
	for _, c := range []int{inner(around(k, d)), outer(around(k, d))} {
		if occ&bit(c) != 0 {
			return RulePathBlocked, "a double diagonal exit needs " + cellName(c) + " empty"
		}
	}
	return RuleNoSuchMove, ""
}
