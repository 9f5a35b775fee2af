package sauts

import (
	"fmt"
	"math/bits"
	"strings"

	"github.com/plateau/plateau/rules"
)

// StartFEN is the standard start position (figure 1 of the rules), White to move.
const StartFEN = "8/b1b1b1b1/1b1b1b1b/8/8/w1w1w1w1/1w1w1w1w/8 w"

// Results and terminations.
const (
	WhiteWins = "1-0"
	BlackWins = "0-1"
	Draw      = "1/2-1/2"
	Unknown   = "*"

	ReasonGoal    = "goal reached"
	ReasonBlocked = "blocked"
)

// Rule names of illegal moves (MoveError.Rule).
const (
	RuleGameOver    = "game over"
	RuleNoPawn      = "no own pawn"
	RuleSameSquare  = "ends where it began"
	RuleOwnGoal     = "own goal"
	RuleOccupied    = "occupied square"
	RuleNotHome     = "home move outside own half"
	RuleMiddleLine  = "middle line"
	RuleBlocked     = "path blocked"
	RuleNoPath      = "no such move"
	RuleNotJump     = "not a jump"
	RuleJumpOwn     = "jump over own pawn"
	RuleHomeThenJmp = "home move before jump"
	RuleRevisit     = "square revisited"
	RuleAfterGoal   = "chain after goal"
)

// Game is the Sauts ruleset, registered as "sauts".
type Game struct{}

func init() { rules.Register(Game{}) }

// ID implements rules.Game.
func (Game) ID() string { return "sauts" }

// Name implements rules.Game.
func (Game) Name() string { return "Sauts" }

// Sides implements rules.Game: White (side 0, moves first) and Black.
func (Game) Sides() [2]string { return [2]string{"White", "Black"} }

// IllegalMoveLoses implements rules.Game: an illegal move is a broken record.
func (Game) IllegalMoveLoses() bool { return false }

// NewPosition implements rules.Game.
func (Game) NewPosition(notation string) (rules.Position, error) {
	return NewPosition(notation)
}

// Position is a Sauts position: the pawns of each side and the side to move.
type Position struct {
	pawns [2]uint64
	stm   rules.Side
	key   uint64
}

var _ rules.Position = (*Position)(nil)

// NewPosition reads a position in Sauts notation ("" is the start): rows A
// to H separated by '/', 'w' and 'b' for pawns, digits for runs of empty
// squares, then the side to move 'w' or 'b'. Each side has one to eight
// pawns; no pawn stands on its own goals; at most one side has reached a
// target, and then it is the other side's turn.
func NewPosition(notation string) (*Position, error) {
	if strings.TrimSpace(notation) == "" {
		notation = StartFEN
	}
	fields := strings.Fields(notation)
	if len(fields) != 2 {
		return nil, rules.PositionError(notation, "want a board and a side to move, got %d fields", len(fields))
	}
	var p Position
	rows := strings.Split(fields[0], "/")
	if len(rows) != 8 {
		return nil, rules.PositionError(notation, "want 8 rows, got %d", len(rows))
	}
	for r, row := range rows {
		col := 0
		for i := 0; i < len(row); i++ {
			c := row[i]
			switch {
			case c >= '1' && c <= '8':
				col += int(c - '0')
			case c == 'w' || c == 'b':
				if col >= 8 {
					return nil, rules.PositionError(notation, "row %c is longer than 8 squares", 'A'+r)
				}
				s := white
				if c == 'b' {
					s = black
				}
				p.pawns[s] |= 1 << (r*8 + col)
				col++
			default:
				return nil, rules.PositionError(notation, "row %c: unexpected %q", 'A'+r, c)
			}
			if col > 8 {
				return nil, rules.PositionError(notation, "row %c is longer than 8 squares", 'A'+r)
			}
		}
		if col != 8 {
			return nil, rules.PositionError(notation, "row %c has %d squares, want 8", 'A'+r, col)
		}
	}
	switch fields[1] {
	case "w":
		p.stm = white
	case "b":
		p.stm = black
	default:
		return nil, rules.PositionError(notation, "side to move %q: want w or b", fields[1])
	}
	for s, name := range [2]string{"White", "Black"} {
		n := bits.OnesCount64(p.pawns[s])
		if n < 1 || n > 8 {
			return nil, rules.PositionError(notation, "%s has %d pawns, want 1 to 8", name, n)
		}
		if p.pawns[s]&ownGoalOf[s] != 0 {
			return nil, rules.PositionError(notation, "a %s pawn stands on its own goal", strings.ToLower(name))
		}
	}
	wWon := p.pawns[white]&targetOf[white] != 0
	bWon := p.pawns[black]&targetOf[black] != 0
	switch {
	case wWon && bWon:
		return nil, rules.PositionError(notation, "both sides have reached a goal")
	case wWon && p.stm == white, bWon && p.stm == black:
		return nil, rules.PositionError(notation, "the side that reached a goal cannot be to move")
	}
	p.key = p.computeKey()
	return &p, nil
}

func (p *Position) computeKey() uint64 {
	var k uint64
	for s := range p.pawns {
		for b := p.pawns[s]; b != 0; b &= b - 1 {
			k ^= zobrist[s][bits.TrailingZeros64(b)]
		}
	}
	if p.stm == black {
		k ^= zobristBlack
	}
	return k
}

// String implements rules.Position: the canonical position notation.
func (p *Position) String() string {
	var b strings.Builder
	for r := 0; r < 8; r++ {
		if r > 0 {
			b.WriteByte('/')
		}
		empty := 0
		for c := 0; c < 8; c++ {
			switch ch := p.at(r*8 + c); ch {
			case 0:
				empty++
			default:
				if empty > 0 {
					b.WriteByte(byte('0' + empty))
					empty = 0
				}
				b.WriteByte(ch)
			}
		}
		if empty > 0 {
			b.WriteByte(byte('0' + empty))
		}
	}
	if p.stm == white {
		b.WriteString(" w")
	} else {
		b.WriteString(" b")
	}
	return b.String()
}

// at returns 'w', 'b' or 0 for an empty square.
func (p *Position) at(sq int) byte {
	bit := uint64(1) << sq
	switch {
	case p.pawns[white]&bit != 0:
		return 'w'
	case p.pawns[black]&bit != 0:
		return 'b'
	}
	return 0
}

// Key implements rules.Position.
func (p *Position) Key() uint64 { return p.key }

// ToMove implements rules.Position.
func (p *Position) ToMove() rules.Side { return p.stm }

// Clone implements rules.Position.
func (p *Position) Clone() rules.Position {
	c := *p
	return &c
}

// Outcome implements rules.Position: a pawn on an opposing goal wins at
// once; otherwise a side to move without a legal move loses.
func (p *Position) Outcome() rules.Outcome {
	if s, over := p.winner(); over {
		return rules.Outcome{Over: true, Result: resultFor(s), Reason: ReasonGoal}
	}
	if !p.hasMove() {
		return rules.Outcome{Over: true, Result: resultFor(p.stm.Other()), Reason: ReasonBlocked}
	}
	return rules.Outcome{}
}

func resultFor(winner rules.Side) string {
	if winner == white {
		return WhiteWins
	}
	return BlackWins
}

// CheckResult implements rules.Position. A finished game must carry its
// result; an unfinished one may end "*", decisively (resignation) or drawn
// (agreement).
func (p *Position) CheckResult(result string) error {
	switch result {
	case WhiteWins, BlackWins, Draw, Unknown:
	default:
		return fmt.Errorf("%w: %q is not a Sauts result (1-0, 0-1, 1/2-1/2 or *)", rules.ErrResult, result)
	}
	o := p.Outcome()
	if o.Over && result != o.Result {
		return fmt.Errorf("%w: the game is over (%s), result %s, not %s", rules.ErrResult, o.Reason, o.Result, result)
	}
	return nil
}

// Describe implements rules.Position.
func (p *Position) Describe(m rules.Move) rules.MoveInfo {
	from, to := moveSquares(m)
	return rules.MoveInfo{From: squareName(from), To: squareName(to)}
}

// Board implements rules.Position: every pawn, kind 'P'.
func (p *Position) Board() []rules.Placement {
	out := make([]rules.Placement, 0, 16)
	for sq := 0; sq < 64; sq++ {
		switch p.at(sq) {
		case 'w':
			out = append(out, rules.Placement{Square: squareName(sq), Side: white, Kind: 'P', Count: 1})
		case 'b':
			out = append(out, rules.Placement{Square: squareName(sq), Side: black, Kind: 'P', Count: 1})
		}
	}
	return out
}

// Diagram implements rules.Position: rows A to H top down, ● Black, ○ White,
// goal squares marked ◇ when empty.
func (p *Position) Diagram() string {
	var b strings.Builder
	b.WriteString("   1 2 3 4 5 6 7 8\n")
	for r := 0; r < 8; r++ {
		if r == 4 {
			b.WriteString("  ─────────────────\n")
		}
		fmt.Fprintf(&b, "%c ", 'A'+r)
		for c := 0; c < 8; c++ {
			sq := r*8 + c
			b.WriteByte(' ')
			switch p.at(sq) {
			case 'w':
				b.WriteString("○")
			case 'b':
				b.WriteString("●")
			default:
				if (goalsA|goalsH)&(1<<sq) != 0 {
					b.WriteString("◇")
				} else {
					b.WriteString("·")
				}
			}
		}
		b.WriteByte('\n')
	}
	if p.stm == white {
		b.WriteString("White to move\n")
	} else {
		b.WriteString("Black to move\n")
	}
	return b.String()
}

func squareName(sq int) string {
	if sq >= 0 && sq < 64 {
		return squareNames[sq]
	}
	return string([]byte{byte('A' + sq/8), byte('1' + sq%8)})
}

// squareNames are the square names, built once: Describe names two squares
// per move, and pattern search describes every move it plays.
var squareNames = func() (n [64]string) {
	for sq := range n {
		n[sq] = string([]byte{byte('A' + sq/8), byte('1' + sq%8)})
	}
	return n
}()
