package replay

import (
	"strconv"
	"strings"

	"github.com/plateau/plateau/record"
)

// numbered is rec with the algebraic squares of its moves written as the
// numbers of the 8×8 board of the families that write numbers (detection's
// rule 3): square 1 the second square of the top row, 29 a1 in PDN's
// position; turned half round (a1 is 4) when the record's first move starts
// on ranks 1–4, since then its first mover sits at the bottom of the
// algebraic board and the first mover of checkers and pool holds 1–12.
// Capture marks ':' become 'x'; two squares written without a mark get '-'
// when they are neighbours, else 'x'. how says how the squares were
// numbered; ok is false when the record has no move to judge by or writes
// a light square. The record's tags, comments and positions are kept.
func numbered(rec *record.Game) (_ *record.Game, how string, ok bool) {
	if len(rec.Moves) == 0 {
		return nil, "", false
	}
	t := rec.Moves[0].Text
	i := 0
	for i+1 < len(t) && !(algFile(t[i]) && algRank(t[i+1])) {
		i++
	}
	if i+1 >= len(t) {
		return nil, "", false
	}
	turned := t[i+1] <= '4'
	moves, ok := numberLine(rec.Moves, turned)
	if !ok {
		return nil, "", false
	}
	c := *rec
	c.Moves = moves
	how = "its algebraic squares numbered with a1 = 29 (the first mover at the top)"
	if turned {
		how = "its algebraic squares numbered with the board turned (the first mover at the bottom: a1 = 4, c3 = 11)"
	}
	return &c, how, true
}

func algFile(c byte) bool { return c >= 'a' && c <= 'h' }
func algRank(c byte) bool { return c >= '1' && c <= '8' }

// numberLine is a copy of l with every move's squares numbered.
func numberLine(l record.Line, turned bool) (record.Line, bool) {
	out := make(record.Line, len(l))
	store := make([]record.Move, len(l))
	for i, m := range l {
		c := &store[i]
		*c = *m
		t, ok := numberText(m.Text, turned)
		if !ok {
			return nil, false
		}
		c.Text = t
		if len(m.Variations) > 0 {
			c.Variations = make([]record.Line, len(m.Variations))
			for j, v := range m.Variations {
				if c.Variations[j], ok = numberLine(v, turned); !ok {
					return nil, false
				}
			}
		}
		out[i] = c
	}
	return out, true
}

// numberText writes the algebraic squares of a move as numbers ("c3xe5"
// is "22x15", or "11x18" turned); other text is kept.
func numberText(t string, turned bool) (string, bool) {
	var b strings.Builder
	last := -1 // the last square written, when it ends the text so far
	for i := 0; i < len(t); {
		if i+1 < len(t) && algFile(t[i]) && algRank(t[i+1]) {
			f, r := int(t[i]-'a'), int(t[i+1]-'0')
			if (f+r)%2 == 0 {
				return "", false // a light square
			}
			n := 4*(8-r) + f/2 + 1
			if turned {
				n = 33 - n
			}
			if last >= 0 {
				b.WriteByte(joint(last, f, r))
			}
			b.WriteString(strconv.Itoa(n))
			last = f*10 + r
			i += 2
			continue
		}
		c := t[i]
		if c == ':' {
			c = 'x'
		}
		b.WriteByte(c)
		last = -1
		i++
	}
	return b.String(), true
}

// joint is the mark between two squares written without one: '-' for
// diagonal neighbours (a step), 'x' otherwise. prev is file*10+rank.
func joint(prev, f, r int) byte {
	df, dr := prev/10-f, prev%10-r
	if (df == 1 || df == -1) && (dr == 1 || dr == -1) {
		return '-'
	}
	return 'x'
}
