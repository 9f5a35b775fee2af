package dames

import (
	"strconv"
	"strings"

	"github.com/plateau/plateau/rules"
)

// Endings decided by the material on the board (Position.Outcome).
//
// Frisian and frysk (family.endDraw): "When one player has two kings and
// the other player has one king, the game is drawn after both players made
// 7 moves. When both players have one king left, the game is drawn after
// both players made 2 moves." (lidraughts' Frisian rules, which its
// exports follow). The Frisian rule texts say the same of two kings against
// one ("the stronger party must win in seven moves", Mats Winther's Frisian
// page; "must win within 7 moves", alemanni's) and draw one king against
// one at once unless a side wins by force (as lidraughts' rule page quotes
// the official rules), which lidraughts plays as two moves each: a game
// that Frisian rules end earlier ends by agreement, which any Result
// records. So the position counts the plies played since such an ending
// arose, by a capture or a crowning (the material changes no other way):
// when the count reaches 14 (two kings against one) or 4 (one king each),
// the game is drawn unless the ply that reached it won. A capture that
// turns two kings against one into one against one starts the count again.
// The count is part of the position, its key and its FEN (Plateau's section
// ":E5", written when it is not 0). A FEN without it starts the count at 0:
// a record starting from such an ending cannot say how many plies were
// played in it before.
//
// Turkish (family.loneKing): "A player wins if the opponent has no legal
// move, either because all his pieces are captured or he is completely
// blocked. A king versus single man also wins the game." (Wikipedia,
// "Turkish draughts"): when one side has a single king and the other a
// single man, the king's side has won, whoever is to move. Turkish
// sources that draw a game of one piece each leave the draw to the player
// who claims it (a Result, not a rule of the move list); they differ from
// this rule only in that one ending, which docs/draughts.md records.

// endLimits are the plies after which a Frisian kings-only ending is
// drawn: two kings against one, one king each.
const (
	endTwoOne = 14
	endOneOne = 4
)

// Keys of the Frisian ending counts, after every other key.
var zEnd [endTwoOne + 1]uint64

func init() {
	x := uint64(0x1F83D9ABFB41BD6B)
	for n := 1; n < len(zEnd); n++ {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		zEnd[n] = x
	}
}

// endLimit is the count at which the position's ending is drawn: 14 when
// the board holds two kings against one, 4 for one king each, 0 for any
// other material or a ruleset without the rule.
func (p *Position) endLimit() int8 {
	n := p.count[0] + p.count[1]
	if !p.g.f.endDraw || n > 3 || p.count[0] == 0 || p.count[1] == 0 || p.hasMen(white) || p.hasMen(black) {
		return 0
	}
	if n == 3 {
		return endTwoOne
	}
	return endOneOne
}

// setEnd changes the ending count, keeping the key.
func (p *Position) setEnd(n int8) {
	p.key ^= zEnd[p.end] ^ zEnd[n]
	p.end = n
}

// updateEnd follows a move (Play calls it after the board has changed):
// changed reports that it took a piece or crowned one.
func (p *Position) updateEnd(changed bool) {
	n := int8(0)
	if limit := p.endLimit(); limit > 0 && !changed {
		n = min(p.end+1, limit)
	}
	p.setEnd(n)
}

// endOutcome is the draw or the win that the material decides, if any, for
// a position where the side to move has a piece and a move.
func (p *Position) endOutcome() (rules.Outcome, bool) {
	if limit := p.endLimit(); limit > 0 && p.end >= limit {
		reason := "one king each: two moves each"
		if limit == endTwoOne {
			reason = "two kings against one: seven moves each"
		}
		return rules.Outcome{Over: true, Result: p.g.drawResult(), Reason: reason}, true
	}
	return rules.Outcome{}, false
}

// loneKing is the colour that has won by a king against a single man
// (Turkish), or -1.
func (p *Position) loneKing() int {
	if !p.g.f.loneKing || p.count[0] != 1 || p.count[1] != 1 {
		return -1
	}
	ws, bs := p.occ[white], p.occ[black]
	w, b := p.cell[ws.pop()], p.cell[bs.pop()]
	switch {
	case isKing(w) && !isKing(b):
		return white
	case isKing(b) && !isKing(w):
		return black
	}
	return -1
}

// drawResult is the Result of a draw in the ruleset.
func (g *Game) drawResult() string {
	if g.f.points {
		return "1-1"
	}
	return "1/2-1/2"
}

// parseEnd reads the section "E5" (without its E): the plies played in the
// position's kings-only ending.
func (p *Position) parseEnd(text, s string) error {
	if !p.g.f.endDraw {
		return rules.PositionError(text, "%s has no count of a kings-only ending (section E)", p.g.id)
	}
	n, err := strconv.Atoi(s)
	limit := p.endLimit()
	if err != nil || n < 0 || s == "" || s[0] == '+' {
		return rules.PositionError(text, "%q is not a count of plies (E5: five plies played in the ending)", "E"+s)
	}
	if n > 0 && limit == 0 {
		return rules.PositionError(text, "E%d: the board holds no two kings against one or one king each", n)
	}
	if n > int(limit) {
		return rules.PositionError(text, "E%d: the ending is drawn after %d plies", n, limit)
	}
	p.end = int8(n)
	return nil
}

// writeEnd appends the section ":E5" when the ending count is not 0.
func (p *Position) writeEnd(b *strings.Builder) {
	if p.end > 0 {
		b.WriteString(":E" + strconv.Itoa(int(p.end)))
	}
}
