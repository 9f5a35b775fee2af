package ogi

import (
	"strconv"
	"strings"
	"sync"

	"github.com/plateau/plateau/rules"
)

// StartSFEN is the standard start position.
const StartSFEN = "lnsiksnl/1r4b1/pppppppp/8/8/PPPPPPPP/1B4R1/LNSIKSNL b - 1"

// DrawPlies is the number of plies without capture and without unpromoted
// pawn move after which a draw may be declared.
const DrawPlies = 100

type game struct{}

func (game) ID() string             { return "ogi" }
func (game) Name() string           { return "Ōgi" }
func (game) Sides() [2]string       { return [2]string{"Sente", "Gote"} }
func (game) IllegalMoveLoses() bool { return true }
func (game) NewPosition(s string) (rules.Position, error) {
	p, err := Parse(s)
	if err != nil {
		return nil, err
	}
	return p, nil
}

// Game is the Ōgi ruleset.
var Game rules.Game = game{}

func init() { rules.Register(Game) }

// histEntry is one move already played: its identity and the key of the
// position it produced (for the repetition rule).
type histEntry struct {
	key uint64
	id  uint32
}

// Position is an Ōgi position with the history the repetition rule needs.
type Position struct {
	board [64]uint8
	hand  [2][16]uint8 // by side, slot = kind | promBit
	side  int
	ply   int // number of the next ply, from 1 (SFEN move number)
	quiet int // plies since the last capture or unpromoted-pawn move
	key   uint64
	// occ[s] are the squares of side s's pieces; kingSq[s] is the square of
	// its King, -1 when captured (both kept by Play, for Choose).
	occ    [2]uint64
	kingSq [2]int8
	// hist is shared between clones: its capacity is cut at Clone so that
	// an append in either copy reallocates (copy on append).
	hist []histEntry
	// since is the first history entry whose position can recur: an
	// unpromoted pawn move is irreversible (pawns only go forward, a captured
	// pawn goes to hand unpromoted and can never be dropped), so positions
	// before the last one never come back.
	since int
	// seen has the bit seenBit of the identity of every history entry
	// from since on, so that repeats skips the history for a move never
	// played since (most moves).
	seen [2]uint64
	// own is the position that may write over hist's array (one made by
	// CopyInto); a copy of the struct (Clone) does not own it.
	own *Position
}

var _ rules.Position = (*Position)(nil)

// Parse reads a position in Ōgi's SFEN-like notation; "" is the start.
//
//	board side hands movenumber [quiet]
//
// The optional fifth field counts the plies since the last capture or
// unpromoted-pawn move (the 100-ply draw rule); it is omitted when zero.
func Parse(s string) (*Position, error) {
	if strings.TrimSpace(s) == "" {
		// A copy of the start, read once (most records start there).
		p, err := startPosition()
		if err != nil {
			return nil, err
		}
		c := *p
		return &c, nil
	}
	return parse(s)
}

// startPosition is StartSFEN read, once; its history is empty, so a copy
// shares nothing with it.
var startPosition = sync.OnceValues(func() (*Position, error) { return parse(StartSFEN) })

func parse(s string) (*Position, error) {
	f := strings.Fields(s)
	if len(f) < 2 || len(f) > 5 {
		return nil, rules.PositionError(s, "want 2 to 5 fields (board side hands number [quiet]), got %d", len(f))
	}
	p := &Position{ply: 1}
	var count [8]int // pieces of each kind, on the board and in hand
	kings, err := p.parseBoard(s, f[0], &count)
	if err != nil {
		return nil, err
	}
	switch f[1] {
	case "b":
		p.side = 0
	case "w":
		p.side = 1
	default:
		return nil, rules.PositionError(s, "side to move must be b or w, not %q", f[1])
	}
	if len(f) > 2 && f[2] != "-" {
		if err := p.parseHands(s, f[2], &count); err != nil {
			return nil, err
		}
	}
	for k := range count {
		if count[k] > maxPieces[k] {
			return nil, rules.PositionError(s, "more than %d pieces of kind %c", maxPieces[k], pieceLetters[k])
		}
	}
	for side := 0; side < 2; side++ {
		if kings[side]+int(p.hand[1-side][king]) != 1 {
			return nil, rules.PositionError(s, "%s must have one King, on the board or captured", Game.Sides()[side])
		}
	}
	if err := p.parseCounters(s, f[min(3, len(f)):]); err != nil {
		return nil, err
	}
	p.key = p.computeKey()
	p.occ, p.kingSq = p.computeOcc()
	return p, nil
}

// parseBoard reads the board field of s (ranks 8 to 1) into p, adding each
// piece to count; kings are the Kings of each side on the board.
func (p *Position) parseBoard(s, board string, count *[8]int) (kings [2]int, err error) {
	ranks := strings.Split(board, "/")
	if len(ranks) != 8 {
		return kings, rules.PositionError(s, "want 8 ranks, got %d", len(ranks))
	}
	for i, rk := range ranks {
		if err := p.parseRank(s, 7-i, rk, count, &kings); err != nil {
			return kings, err
		}
	}
	return kings, nil
}

// parseRank reads rank r (0 for rank 1) of the board field of s.
func (p *Position) parseRank(s string, r int, rk string, count *[8]int, kings *[2]int) error {
	file := 0
	prom := false
	for j := 0; j < len(rk); j++ {
		b := rk[j]
		switch {
		case b >= '1' && b <= '8' && !prom:
			file += int(b - '0')
			continue
		case b == '+' && !prom:
			prom = true
			continue
		}
		side, k := sideKind(b)
		if k < 0 {
			return rules.PositionError(s, "rank %d: unexpected %q", r+1, b)
		}
		if k == king && prom {
			return rules.PositionError(s, "rank %d: the King has no promoted side", r+1)
		}
		if file >= 8 {
			return rules.PositionError(s, "rank %d has more than 8 squares", r+1)
		}
		sq := r*8 + file
		if !prom && deadEnd(side, k, sq) {
			return rules.PositionError(s, "%s on %s could never move", string(b), sqName(sq))
		}
		p.board[sq] = makeCode(side, k, prom)
		count[k]++
		if k == king {
			kings[side]++
		}
		file++
		prom = false
	}
	if prom {
		return rules.PositionError(s, "rank %d: '+' without a piece", r+1)
	}
	if file != 8 {
		return rules.PositionError(s, "rank %d has %d squares, want 8", r+1, file)
	}
	return nil
}

// sideKind reads a piece letter: Sente's upper case, Gote's lower case;
// the kind is -1 for any other byte.
func sideKind(b byte) (side, kind int) {
	if b >= 'a' && b <= 'z' {
		side, b = 1, b-'a'+'A'
	}
	return side, letterKind(b)
}

// parseHands reads the hands field h of s ("S2Pb+r") into p, adding each
// piece to count.
func (p *Position) parseHands(s, h string, count *[8]int) error {
	var seen [2][16]bool
	for i := 0; i < len(h); {
		n, j, err := handCount(s, h, i)
		if err != nil {
			return err
		}
		prom := false
		if j < len(h) && h[j] == '+' {
			prom = true
			j++
		}
		if j >= len(h) {
			return rules.PositionError(s, "hand ends without a piece letter")
		}
		side, k := sideKind(h[j])
		if k < 0 {
			return rules.PositionError(s, "hand: unexpected %q", h[j])
		}
		if k == king && (prom || n != 1) {
			return rules.PositionError(s, "hand: a captured King is written K or k once")
		}
		slot := k
		if prom {
			slot |= promBit
		}
		if seen[side][slot] {
			return rules.PositionError(s, "hand: %q written twice", h[i:j+1])
		}
		seen[side][slot] = true
		count[k] += n
		if count[k] > maxPieces[k] {
			return rules.PositionError(s, "more than %d pieces of kind %c", maxPieces[k], pieceLetters[k])
		}
		p.hand[side][slot] = uint8(n)
		i = j + 1
	}
	return nil
}

// handCount reads the count that may open the hand entry at h[i:]: up to
// three digits, at least 2; 1 when there are none. j is where the rest of
// the entry begins.
func handCount(s, h string, i int) (n, j int, err error) {
	j = i
	for j < len(h) && h[j] >= '0' && h[j] <= '9' && j-i < 3 {
		n = n*10 + int(h[j]-'0')
		j++
	}
	if j == i {
		return 1, j, nil
	}
	if n < 2 {
		return 0, j, rules.PositionError(s, "hand count %d: write counts of 2 or more only", n)
	}
	return n, j, nil
}

// parseCounters reads the optional move number and quiet-ply count that
// follow the hands in s.
func (p *Position) parseCounters(s string, f []string) error {
	if len(f) > 0 {
		n, err := strconv.Atoi(f[0])
		if err != nil || n < 1 || n > 1000000 {
			return rules.PositionError(s, "bad move number %q", f[0])
		}
		p.ply = n
	}
	if len(f) > 1 {
		n, err := strconv.Atoi(f[1])
		if err != nil || n < 0 || n > 1000000 {
			return rules.PositionError(s, "bad quiet-ply count %q", f[1])
		}
		p.quiet = n
	}
	return nil
}

// computeOcc computes occ and kingSq from the board.
func (p *Position) computeOcc() (occ [2]uint64, kingSq [2]int8) {
	kingSq = [2]int8{-1, -1}
	for sq, c := range p.board {
		if c != 0 {
			occ[sideOf(c)] |= 1 << sq
			if kindOf(c) == king {
				kingSq[sideOf(c)] = int8(sq)
			}
		}
	}
	return occ, kingSq
}

// computeKey hashes the position from scratch.
func (p *Position) computeKey() uint64 {
	var k uint64
	for sq, c := range p.board {
		if c != 0 {
			k ^= zPiece[c&31][sq]
		}
	}
	for s := 0; s < 2; s++ {
		for slot, n := range p.hand[s] {
			k ^= zHand[s][slot][n]
		}
	}
	if p.side == 1 {
		k ^= zSide
	}
	return k
}

func pieceText(c uint8) string {
	b := pieceLetters[kindOf(c)]
	if sideOf(c) == 1 {
		b += 'a' - 'A'
	}
	if promoted(c) {
		return "+" + string(b)
	}
	return string(b)
}

// handOrder lists hand slots in canonical order: K I R B S N L P, each
// unpromoted before promoted.
var handOrder = func() []int {
	var o []int
	for k := 0; k < 8; k++ {
		o = append(o, k)
		if k != king {
			o = append(o, k|promBit)
		}
	}
	return o
}()

// String writes the position in canonical notation.
func (p *Position) String() string {
	var b strings.Builder
	for r := 7; r >= 0; r-- {
		empty := 0
		for f := 0; f < 8; f++ {
			c := p.board[r*8+f]
			if c == 0 {
				empty++
				continue
			}
			if empty > 0 {
				b.WriteByte(byte('0' + empty))
				empty = 0
			}
			b.WriteString(pieceText(c))
		}
		if empty > 0 {
			b.WriteByte(byte('0' + empty))
		}
		if r > 0 {
			b.WriteByte('/')
		}
	}
	if p.side == 0 {
		b.WriteString(" b ")
	} else {
		b.WriteString(" w ")
	}
	b.WriteString(p.handString())
	b.WriteByte(' ')
	b.WriteString(strconv.Itoa(p.ply))
	if p.quiet > 0 {
		b.WriteByte(' ')
		b.WriteString(strconv.Itoa(p.quiet))
	}
	return b.String()
}

func (p *Position) handString() string {
	var b strings.Builder
	for s := 0; s < 2; s++ {
		for _, slot := range handOrder {
			n := p.hand[s][slot]
			if n == 0 {
				continue
			}
			if n > 1 {
				b.WriteString(strconv.Itoa(int(n)))
			}
			b.WriteString(pieceText(makeCode(s, slot&7, slot&promBit != 0)))
		}
	}
	if b.Len() == 0 {
		return "-"
	}
	return b.String()
}

// Key is the Zobrist key: board, states, hands and side to move. The move
// number and the quiet-ply count are not part of it.
func (p *Position) Key() uint64 { return p.key }

// ToMove is the side to play.
func (p *Position) ToMove() rules.Side { return rules.Side(p.side) }

// Quiet is the number of plies since the last capture or unpromoted-pawn move.
func (p *Position) Quiet() int { return p.quiet }

// Clone returns an independent copy; the move history is shared until
// either copy appends to it.
func (p *Position) Clone() rules.Position {
	c := *p
	c.hist = p.hist[:len(p.hist):len(p.hist)]
	return &c
}

// Outcome: the game is over when a King has been captured, or when the side
// to move has no legal move at all (it loses: whatever it played would be
// illegal). The 100-ply draw is a right to claim, not an end (see CheckResult).
func (p *Position) Outcome() rules.Outcome {
	switch {
	case p.hand[0][king] > 0:
		return rules.Outcome{Over: true, Result: "1-0", Reason: "king captured"}
	case p.hand[1][king] > 0:
		return rules.Outcome{Over: true, Result: "0-1", Reason: "king captured"}
	}
	if !p.hasLegal() {
		if p.side == 0 {
			return rules.Outcome{Over: true, Result: "0-1", Reason: "no legal move"}
		}
		return rules.Outcome{Over: true, Result: "1-0", Reason: "no legal move"}
	}
	return rules.Outcome{}
}

var _ rules.OverWhenStuck = (*Position)(nil)

// OverWhenStuck implements rules.OverWhenStuck: the game is over when a King
// has been captured (ParseMove refuses every move) or when no move is legal.
func (p *Position) OverWhenStuck() {}

func (p *Position) kingCaptured() bool { return p.hand[0][king]|p.hand[1][king] != 0 }

// CheckResult says whether a record may end here with that Result:
//   - "*" always;
//   - in a finished position, exactly its result;
//   - otherwise a decisive result (a resignation), or "1/2-1/2" once
//     DrawPlies plies have passed without capture or unpromoted-pawn move.
func (p *Position) CheckResult(result string) error {
	if result == "*" {
		return nil
	}
	if o := p.Outcome(); o.Over {
		if result == o.Result {
			return nil
		}
		return resultError("the game ended %s (%s), not %s", o.Result, o.Reason, result)
	}
	switch result {
	case "1-0", "0-1":
		return nil
	case "1/2-1/2":
		if p.quiet >= DrawPlies {
			return nil
		}
		return resultError("a draw needs %d plies without capture or unpromoted-pawn move, only %d", DrawPlies, p.quiet)
	}
	return resultError("%q is not an Ōgi result (1-0, 0-1, 1/2-1/2, *)", result)
}

// Board lists the pieces on the board (rank 8 to 1, file a to h), then the
// hands (Sente then Gote).
func (p *Position) Board() []rules.Placement {
	var out []rules.Placement
	for r := 7; r >= 0; r-- {
		for f := 0; f < 8; f++ {
			sq := r*8 + f
			if c := p.board[sq]; c != 0 {
				out = append(out, rules.Placement{Square: sqName(sq), Side: rules.Side(sideOf(c)),
					Kind: pieceLetters[kindOf(c)], Promoted: promoted(c), Count: 1})
			}
		}
	}
	for s := 0; s < 2; s++ {
		for _, slot := range handOrder {
			if n := p.hand[s][slot]; n > 0 {
				out = append(out, rules.Placement{Side: rules.Side(s), Kind: pieceLetters[slot&7],
					Promoted: slot&promBit != 0, Count: int(n)})
			}
		}
	}
	return out
}

// Diagram draws the board from Sente's side: Sente's pieces in upper case,
// Gote's in lower case, a promoted piece prefixed with '+'; Gote's hand above,
// Sente's below.
func (p *Position) Diagram() string {
	var b strings.Builder
	hand := func(s int) string {
		var parts []string
		for _, slot := range handOrder {
			if n := p.hand[s][slot]; n > 0 {
				t := pieceText(makeCode(s, slot&7, slot&promBit != 0))
				if n > 1 {
					t += "×" + strconv.Itoa(int(n))
				}
				parts = append(parts, t)
			}
		}
		if len(parts) == 0 {
			return "-"
		}
		return strings.Join(parts, " ")
	}
	files := "     a  b  c  d  e  f  g  h\n"
	b.WriteString("  Gote (lower case) in hand: " + hand(1) + "\n")
	b.WriteString(files)
	b.WriteString("   ┌────────────────────────┐\n")
	for r := 7; r >= 0; r-- {
		b.WriteString(" " + strconv.Itoa(r+1) + " │")
		for f := 0; f < 8; f++ {
			c := p.board[r*8+f]
			switch {
			case c == 0:
				b.WriteString(" · ")
			case promoted(c):
				b.WriteString(pieceText(c) + " ")
			default:
				b.WriteString(" " + pieceText(c) + " ")
			}
		}
		b.WriteString("│ " + strconv.Itoa(r+1) + "\n")
	}
	b.WriteString("   └────────────────────────┘\n")
	b.WriteString(files)
	b.WriteString("  Sente (upper case) in hand: " + hand(0) + "\n")
	if o := p.Outcome(); o.Over {
		b.WriteString("  Game over: " + o.Result + " (" + o.Reason + ")\n")
	} else {
		b.WriteString("  " + Game.Sides()[p.side] + " to move, ply " + strconv.Itoa(p.ply) + "\n")
	}
	return b.String()
}
