package jetan

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/plateau/plateau/rules"
)

// How a game ended by a capture (recorded in the position because the board
// alone cannot tell which piece took a Chief).
const (
	endNone         = iota
	endPrincess     // a piece moved onto the enemy Princess: the mover wins
	endChiefByChief // a Chief took the enemy Chief: the mover wins
	endChiefTaken   // another piece took a Chief: draw
)

// Termination words (Outcome.Reason).
const (
	ReasonPrincess     = "princess taken"
	ReasonChiefByChief = "chief takes chief"
	ReasonChiefTaken   = "chief taken"
	ReasonEqualForces  = "equal forces"
)

// Position is a Jetan position. The zero value is not usable; build one
// with Parse or Game.NewPosition.
type Position struct {
	board   [squares]uint8
	toMove  rules.Side
	escape  [2]bool // the side's Princess may still escape
	counter int8    // plies played under the equal-forces draw rule
	end     int8
	pieces  [2]int8 // pieces on the board per side
	value   [2]int16
	key     uint64
}

var _ rules.Position = (*Position)(nil)

// Zobrist keys from a fixed-seed generator, so keys are stable across runs.
var (
	zPiece   [2][numKinds + 1][squares]uint64
	zOrange  uint64
	zEscape  [2]uint64
	zCounter [drawPlies + 1]uint64
	zEnd     [4]uint64
)

func init() {
	s := uint64(0x6a657461_6e5f6a65) // "jetan_je"
	next := func() uint64 {
		s += 0x9e3779b97f4a7c15
		z := s
		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
		z = (z ^ (z >> 27)) * 0x94d049bb133111eb
		return z ^ (z >> 31)
	}
	for side := range zPiece {
		for k := 1; k <= numKinds; k++ {
			for sq := range squares {
				zPiece[side][k][sq] = next()
			}
		}
	}
	zOrange = next()
	zEscape[0], zEscape[1] = next(), next()
	for i := 1; i <= drawPlies; i++ {
		zCounter[i] = next()
	}
	for i := 1; i < len(zEnd); i++ {
		zEnd[i] = next()
	}
}

// Parse reads a position: ten rows from rank 10 to rank 1 separated by "/",
// Black upper case, Orange lower case, digits for runs of empty squares
// ("10" for an empty row); the side to move b or o; the escape flags
// (E Black's Princess may escape, e Orange's, "-" neither); the plies
// played under the equal-forces draw rule (0–10). A fifth field, the
// result, is present exactly when a Chief or a Princess has been taken (the
// game is over): "1-0"/"0-1" for the side that took it, "1/2-1/2" when a
// piece other than the Chief took a Chief. "" is the start position.
func Parse(notation string) (*Position, error) {
	if strings.TrimSpace(notation) == "" {
		notation = StartFEN
	}
	fields := strings.Fields(notation)
	if len(fields) != 4 && len(fields) != 5 {
		return nil, rules.PositionError(notation, "want 4 fields (rows, side, escapes, draw plies) and an optional result, got %d", len(fields))
	}
	p := &Position{}
	count, err := p.parseRows(notation, fields[0])
	if err != nil {
		return nil, err
	}
	switch fields[1] {
	case "b":
		p.toMove = 0
	case "o":
		p.toMove = 1
	default:
		return nil, rules.PositionError(notation, "side to move %q: want b or o", fields[1])
	}
	switch fields[2] {
	case "Ee":
		p.escape = [2]bool{true, true}
	case "E":
		p.escape[0] = true
	case "e":
		p.escape[1] = true
	case "-":
	default:
		return nil, rules.PositionError(notation, "escape flags %q: want Ee, E, e or -", fields[2])
	}
	n, err := strconv.Atoi(fields[3])
	if err != nil || n < 0 || n > drawPlies || strconv.Itoa(n) != fields[3] {
		return nil, rules.PositionError(notation, "draw plies %q: want a number from 0 to %d", fields[3], drawPlies)
	}
	p.counter = int8(n)
	if err := p.tally(notation, &count); err != nil {
		return nil, err
	}
	result := ""
	if len(fields) == 5 {
		result = fields[4]
	}
	if err := p.parseEnd(notation, &count, result); err != nil {
		return nil, err
	}
	if p.end == endNone && p.counter != 0 && !p.equalForces() {
		return nil, rules.PositionError(notation, "draw plies %d but the equal-forces rule does not apply", p.counter)
	}
	p.key = p.computeKey()
	return p, nil
}

// pieceCount is how many pieces of each kind each side has.
type pieceCount [2][numKinds + 1]int

// parseRows reads the rows field of notation (rank 10 first) into p and
// counts the pieces.
func (p *Position) parseRows(notation, field string) (count pieceCount, err error) {
	rows := strings.Split(field, "/")
	if len(rows) != size {
		return count, rules.PositionError(notation, "want %d rows, got %d", size, len(rows))
	}
	for i, row := range rows {
		if err := p.parseRow(notation, size-1-i, row, &count); err != nil {
			return count, err
		}
	}
	return count, nil
}

// parseRow reads row (rank, 0 for rank 1) of notation into p.
func (p *Position) parseRow(notation string, rank int, row string, count *pieceCount) error {
	file := 0
	for j := 0; j < len(row); j++ {
		c := row[j]
		switch {
		case c >= '1' && c <= '9':
			n := int(c - '0')
			if c == '1' && j+1 < len(row) && row[j+1] == '0' {
				n = 10
				j++
			}
			file += n
		default:
			side := rules.Side(0)
			if c >= 'a' && c <= 'z' {
				side = 1
				c -= 'a' - 'A'
			}
			k := kindFromLetter(c)
			if k == 0 {
				return rules.PositionError(notation, "row %d: unknown piece %q", rank+1, row[j])
			}
			if file >= size {
				return rules.PositionError(notation, "row %d is longer than %d squares", rank+1, size)
			}
			p.board[rank*size+file] = cell(side, k)
			count[side][k]++
			file++
		}
		if file > size {
			return rules.PositionError(notation, "row %d is longer than %d squares", rank+1, size)
		}
	}
	if file != size {
		return rules.PositionError(notation, "row %d has %d squares, want %d", rank+1, file, size)
	}
	return nil
}

// tally checks that no side has more pieces of a kind than the start gives
// it, and sets p's piece counts and values.
func (p *Position) tally(notation string, count *pieceCount) error {
	names := Game{}.Sides()
	for side := range 2 {
		for k := 1; k <= numKinds; k++ {
			if count[side][k] > maxCount[k] {
				return rules.PositionError(notation, "%s has %d %ss, at most %d", names[side], count[side][k], kindNames[k], maxCount[k])
			}
			p.pieces[side] += int8(count[side][k])
			p.value[side] += int16(count[side][k] * marks[k])
		}
	}
	return nil
}

// parseEnd checks the royal pieces against the result field (result, ""
// when there is none): all four on the board and no result, or exactly one
// taken, the side that lost it to move, and the result that capture gives;
// it sets p.end.
func (p *Position) parseEnd(notation string, count *pieceCount, result string) error {
	names := Game{}.Sides()
	missing, mSide, mKind := 0, 0, 0
	for side := range 2 {
		for _, k := range []int{chief, princess} {
			if count[side][k] == 0 {
				missing++
				mSide, mKind = side, k
			}
		}
	}
	switch {
	case missing == 0 && result != "":
		return rules.PositionError(notation, "a result field %q is only written once a Chief or a Princess is taken", result)
	case missing > 1:
		return rules.PositionError(notation, "%d Chiefs and Princesses are missing; the game ends when the first is taken", missing)
	case missing == 0:
		return nil
	}
	if rules.Side(mSide) != p.toMove {
		return rules.PositionError(notation, "%s's %s is missing but %s is not to move", names[mSide], kindNames[mKind], names[mSide])
	}
	if p.counter != 0 {
		return rules.PositionError(notation, "draw plies must be 0 after a capture")
	}
	win := "1-0"
	if mSide == 0 {
		win = "0-1"
	}
	switch {
	case mKind == princess && result == win:
		p.end = endPrincess
	case mKind == chief && result == win:
		p.end = endChiefByChief
	case mKind == chief && result == "1/2-1/2":
		p.end = endChiefTaken
	case result == "":
		return rules.PositionError(notation, "%s's %s is missing: the result field is required", names[mSide], kindNames[mKind])
	default:
		return rules.PositionError(notation, "result %q cannot follow the capture of %s's %s", result, names[mSide], kindNames[mKind])
	}
	return nil
}

// equalForces reports whether the draw rule's condition holds: three pieces
// or fewer each, of equal total value.
func (p *Position) equalForces() bool {
	return p.pieces[0] <= 3 && p.pieces[1] <= 3 && p.value[0] == p.value[1]
}

func (p *Position) computeKey() uint64 {
	var k uint64
	for sq, c := range p.board {
		if c != 0 {
			k ^= zPiece[sideOf(c)][kindOf(c)][sq]
		}
	}
	if p.toMove == 1 {
		k ^= zOrange
	}
	for side := range 2 {
		if p.escape[side] {
			k ^= zEscape[side]
		}
	}
	return k ^ zCounter[p.counter] ^ zEnd[p.end]
}

// String implements rules.Position.
func (p *Position) String() string {
	var b strings.Builder
	for rank := size - 1; rank >= 0; rank-- {
		empty := 0
		for file := range size {
			c := p.board[rank*size+file]
			if c == 0 {
				empty++
				continue
			}
			if empty > 0 {
				b.WriteString(strconv.Itoa(empty))
				empty = 0
			}
			l := kindLetters[kindOf(c)]
			if sideOf(c) == 1 {
				l += 'a' - 'A'
			}
			b.WriteByte(l)
		}
		if empty > 0 {
			b.WriteString(strconv.Itoa(empty))
		}
		if rank > 0 {
			b.WriteByte('/')
		}
	}
	b.WriteString([]string{" b ", " o "}[p.toMove])
	switch {
	case p.escape[0] && p.escape[1]:
		b.WriteString("Ee")
	case p.escape[0]:
		b.WriteString("E")
	case p.escape[1]:
		b.WriteString("e")
	default:
		b.WriteString("-")
	}
	b.WriteByte(' ')
	b.WriteString(strconv.Itoa(int(p.counter)))
	if p.end != endNone {
		b.WriteByte(' ')
		b.WriteString(p.Outcome().Result)
	}
	return b.String()
}

// Key implements rules.Position.
func (p *Position) Key() uint64 { return p.key }

// ToMove implements rules.Position.
func (p *Position) ToMove() rules.Side { return p.toMove }

// Clone implements rules.Position.
func (p *Position) Clone() rules.Position {
	c := *p
	return &c
}

// CanEscape reports whether side's Princess still has her escape.
func (p *Position) CanEscape(side rules.Side) bool { return p.escape[side] }

// DrawPlies is the number of plies played under the equal-forces rule.
func (p *Position) DrawPlies() int { return int(p.counter) }

func winFor(s rules.Side) string {
	if s == 0 {
		return "1-0"
	}
	return "0-1"
}

// Outcome implements rules.Position.
func (p *Position) Outcome() rules.Outcome {
	mover := p.toMove.Other() // the side that made the last move
	switch p.end {
	case endPrincess:
		return rules.Outcome{Over: true, Result: winFor(mover), Reason: ReasonPrincess}
	case endChiefByChief:
		return rules.Outcome{Over: true, Result: winFor(mover), Reason: ReasonChiefByChief}
	case endChiefTaken:
		return rules.Outcome{Over: true, Result: "1/2-1/2", Reason: ReasonChiefTaken}
	}
	if p.counter >= drawPlies {
		return rules.Outcome{Over: true, Result: "1/2-1/2", Reason: ReasonEqualForces}
	}
	return rules.Outcome{}
}

// CheckResult implements rules.Position. A finished game needs its exact
// result. An unfinished one may end with "*", with a win for either side (a
// resignation) or with a draw (by agreement).
func (p *Position) CheckResult(result string) error {
	o := p.Outcome()
	if o.Over {
		if result != o.Result {
			return fmt.Errorf("%w: the game ended %s (%s), not %q", rules.ErrResult, o.Result, o.Reason, result)
		}
		return nil
	}
	switch result {
	case "*", "1-0", "0-1", "1/2-1/2":
		return nil
	}
	return fmt.Errorf("%w: %q is not a Jetan result (1-0, 0-1, 1/2-1/2 or *)", rules.ErrResult, result)
}

// Board implements rules.Position.
func (p *Position) Board() []rules.Placement {
	out := make([]rules.Placement, 0, p.pieces[0]+p.pieces[1])
	for sq, c := range p.board {
		if c != 0 {
			out = append(out, rules.Placement{Square: SquareName(sq), Side: sideOf(c), Kind: kindLetters[kindOf(c)], Count: 1})
		}
	}
	return out
}

// Diagram implements rules.Position: Black's pieces in upper case, Orange's
// in lower case, rank 10 at the top.
func (p *Position) Diagram() string {
	var b strings.Builder
	b.WriteString("    a b c d e f g h i j\n")
	for rank := size - 1; rank >= 0; rank-- {
		fmt.Fprintf(&b, "%3d ", rank+1)
		for file := range size {
			c := p.board[rank*size+file]
			switch {
			case c == 0:
				b.WriteString("·")
			case sideOf(c) == 0:
				b.WriteByte(kindLetters[kindOf(c)])
			default:
				b.WriteByte(kindLetters[kindOf(c)] + 'a' - 'A')
			}
			if file < size-1 {
				b.WriteByte(' ')
			}
		}
		fmt.Fprintf(&b, " %d\n", rank+1)
	}
	b.WriteString("    a b c d e f g h i j\n")
	if o := p.Outcome(); o.Over {
		fmt.Fprintf(&b, "game over: %s (%s)\n", o.Result, o.Reason)
	} else {
		fmt.Fprintf(&b, "%s to move\n", Game{}.Sides()[p.toMove])
	}
	esc := func(s rules.Side) string {
		if p.escape[s] {
			return "yes"
		}
		return "used"
	}
	fmt.Fprintf(&b, "escape: Black %s, Orange %s", esc(0), esc(1))
	if p.counter > 0 || (p.end == endNone && p.equalForces()) {
		fmt.Fprintf(&b, "; equal forces, %d of %d plies", p.counter, drawPlies)
	}
	b.WriteByte('\n')
	return b.String()
}
