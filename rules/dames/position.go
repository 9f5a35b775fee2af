package dames

import (
	"fmt"
	"math/bits"
	"strconv"
	"strings"

	"github.com/plateau/plateau/rules"
)

// Cell contents.
const (
	empty int8 = iota
	wMan
	wKing
	bMan
	bKing
)

func sideOf(c int8) int     { return int(c-1) >> 1 }
func isKing(c int8) bool    { return c == wKing || c == bKing }
func bit(s int) uint64      { return 1 << uint(s) }
func popcount(m uint64) int { return bits.OnesCount64(m) }

// Position is a position of one of the rulesets.
type Position struct {
	g     *Game
	geo   *geom
	cell  [maxSq]int8
	count [2]int16
	occ   [2]sqset // squares held by each side
	turn  rules.Side
	huff  uint64     // squares a huff may empty (right after a fault; 10×10 only)
	run   [2]kingRun // the Frisian count of king moves (run.go)
	end   int8       // plies played in a Frisian kings-only ending (endgame.go)
	key   uint64
}

// Zobrist keys, from a fixed seed so that keys are stable between runs (and
// between versions: the keys of the squares a 10×10 board has come first,
// in the order they always had, so that stored keys stay valid).
var (
	zPiece [maxSq][5]uint64
	zHuff  [50]uint64
	zTurn  uint64
	zSize  uint64
)

func init() {
	x := uint64(0x9E3779B97F4A7C15)
	next := func() uint64 { // splitmix64
		x += 0x9E3779B97F4A7C15
		z := x
		z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
		z = (z ^ (z >> 27)) * 0x94D049BB133111EB
		return z ^ (z >> 31)
	}
	for s := range zHuff {
		for c := 1; c < 5; c++ {
			zPiece[s][c] = next()
		}
		zHuff[s] = next()
	}
	zTurn = next()
	zSize = next()
	for s := len(zHuff); s < maxSq; s++ {
		for c := 1; c < 5; c++ {
			zPiece[s][c] = next()
		}
	}
}

func (p *Position) computeKey() uint64 {
	var k uint64
	for s := 0; s < p.geo.n; s++ {
		if c := p.cell[s]; c != empty {
			k ^= zPiece[s][c]
		}
		if p.huff&bit(s) != 0 {
			k ^= zHuff[s]
		}
	}
	if p.turn == black {
		k ^= zTurn
	}
	k ^= p.run[0].key(0) ^ p.run[1].key(1) ^ zEnd[p.end]
	if p.geo.w == 8 && p.geo.h == 8 {
		k ^= zSize
	}
	return k
}

// Key is the Zobrist key: pieces, side to move, huffable squares, board size.
func (p *Position) Key() uint64 { return p.key }

// ToMove is the side to move.
func (p *Position) ToMove() rules.Side { return p.g.side(int(p.turn)) }

// Clone returns an independent copy.
func (p *Position) Clone() rules.Position {
	c := *p
	return &c
}

func (p *Position) setCell(s int, c int8) {
	if old := p.cell[s]; old != empty {
		p.key ^= zPiece[s][old]
		p.count[sideOf(old)]--
		p.occ[sideOf(old)] = p.occ[sideOf(old)].without(s)
	}
	if c != empty {
		p.key ^= zPiece[s][c]
		p.count[sideOf(c)]++
		p.occ[sideOf(c)] = p.occ[sideOf(c)].with(s)
	}
	p.cell[s] = c
}

func (p *Position) setHuff(mask uint64) {
	for d := p.huff ^ mask; d != 0; d &= d - 1 {
		p.key ^= zHuff[bits.TrailingZeros64(d)]
	}
	p.huff = mask
}

// Play makes a move returned by Legal or ParseMove.
func (p *Position) Play(m rules.Move) {
	from := p.mFrom(m)
	if mHuff(m) {
		p.setCell(from, empty)
		p.setHuff(0)
		return
	}
	var huff uint64
	to := p.mTo(m)
	if mFault(m) {
		huff = p.huffSquares(from, to)
	}
	c := p.cell[from]
	caps := p.mCaps(m)
	crowned := p.crowns(m, c)
	p.setCell(from, empty)
	for x := caps; !x.empty(); {
		p.setCell(x.pop(), empty)
	}
	if crowned {
		p.setCell(to, c+1)
	} else {
		p.setCell(to, c)
	}
	if p.g.f.kingRun > 0 {
		p.updateRuns(c, from, to, !caps.empty())
	}
	if p.g.f.endDraw {
		p.updateEnd(crowned || !caps.empty())
	}
	p.setHuff(huff)
	p.turn = p.turn.Other()
	p.key ^= zTurn
}

// crowns reports whether move m of the piece c makes it a king.
func (p *Position) crowns(m rules.Move, c int8) bool {
	return !isKing(c) && p.g.v != vLoup && (uint64(m)&crownBit != 0 || p.geo.farRow(p.mTo(m), sideOf(c)))
}

// huffSquares lists, for a fault moving from→to, the squares (after the
// move) of the pieces that could have captured before it.
func (p *Position) huffSquares(from, to int) uint64 {
	var mask uint64
	side := int(p.turn)
	for s := 0; s < p.geo.n; s++ {
		if c := p.cell[s]; c != empty && sideOf(c) == side && p.canCapture(s) {
			if s == from {
				mask |= bit(to)
			} else {
				mask |= bit(s)
			}
		}
	}
	return mask
}

// Outcome: the side to move with no piece or no legal move loses (wins in
// dames-brigand and antidraughts), and so does a side left without a piece
// by a huff, although the huffer still has the turn; in breakthrough the
// side that has a king has won (the side that just moved first, should a
// position hold kings of both); in loup-moutons the wolf also wins once it
// stands on a row behind every sheep; in turkish a king against a single
// man wins, and in frisian and frysk a kings-only ending is drawn when its
// count runs out (endgame.go).
func (p *Position) Outcome() rules.Outcome {
	if p.g.v == vLoup {
		return p.loupOutcome()
	}
	if p.g.f.outcome == outCrown {
		for _, s := range [2]rules.Side{p.turn.Other(), p.turn} {
			for own := p.occ[s]; !own.empty(); {
				if isKing(p.cell[own.pop()]) {
					return rules.Outcome{Over: true, Result: p.g.winResult(s), Reason: "crowned a king"}
				}
			}
		}
	}
	reason := ""
	loser := p.turn
	if p.count[p.turn] == 0 {
		reason = "no pieces left"
	} else if p.count[p.turn.Other()] == 0 {
		// A huff (which keeps the turn) took the opponent's last piece:
		// « Le joueur qui a pris tous les pions de l'adversaire … a gagné
		// la partie » ends the game at once, before the huffer's move.
		reason, loser = "no pieces left", p.turn.Other()
	} else if k := p.loneKing(); k >= 0 {
		reason, loser = "a king against a single man", rules.Side(k^1)
	} else if !p.hasMove() && !p.huffUnblocks() {
		reason = "blocked"
	} else {
		o, _ := p.endOutcome()
		return o
	}
	winner := loser.Other()
	if p.g.f.outcome == outLoser {
		winner = loser
	}
	return rules.Outcome{Over: true, Result: p.g.winResult(p.g.side(int(winner))), Reason: reason}
}

// winResult is the Result of a win by s, a side in result order.
func (g *Game) winResult(s rules.Side) string {
	if g.f.points {
		if s == 0 {
			return "2-0"
		}
		return "0-2"
	}
	if s == 0 {
		return "1-0"
	}
	return "0-1"
}

// huffUnblocks reports whether a side without a legal move gets one by
// huffing first.
func (p *Position) huffUnblocks() bool {
	for h := p.huff; h != 0; h &= h - 1 {
		c := *p
		c.Play(rules.Move(uint64(bits.TrailingZeros64(h)) | huffBit))
		if c.hasMove() {
			return true
		}
	}
	return false
}

func (p *Position) loupOutcome() rules.Outcome {
	wolf, maxRow := -1, -1
	for s := 0; s < p.geo.n; s++ {
		switch c := p.cell[s]; {
		case c == empty:
		case sideOf(c) == black:
			wolf = s
		case int(p.geo.row[s]) > maxRow:
			maxRow = int(p.geo.row[s])
		}
	}
	if wolf >= 0 && int(p.geo.row[wolf]) > maxRow {
		return rules.Outcome{Over: true, Result: "0-1", Reason: "wolf behind the sheep"}
	}
	if !p.hasMove() {
		if p.turn == black {
			return rules.Outcome{Over: true, Result: "1-0", Reason: "wolf trapped"}
		}
		return rules.Outcome{Over: true, Result: "0-1", Reason: "sheep blocked"}
	}
	return rules.Outcome{}
}

// resultWinner classifies a Result value: 0 or 1 a win for that side, 2 a
// draw, 3 unfinished, -1 not a result of this ruleset.
func (g *Game) resultWinner(r string) int {
	switch r {
	case "*":
		return 3
	case "1-0":
		return 0
	case "0-1":
		return 1
	case "1/2-1/2":
		return 2
	}
	if g.f.readPts {
		switch r {
		case "2-0":
			return 0
		case "0-2":
			return 1
		case "1-1":
			return 2
		}
	}
	return -1
}

// CheckResult: "*" always; an over position needs its winner (in draughts
// both "2-0" and "1-0" styles are accepted); a position that is not over
// allows any decisive result (resignation) or a draw (agreement).
func (p *Position) CheckResult(result string) error {
	r := strings.TrimSpace(result)
	w := p.g.resultWinner(r)
	if w < 0 {
		allowed := "1-0, 0-1, 1/2-1/2 or *"
		if p.g.f.readPts {
			allowed = "2-0, 1-1, 0-2, 1-0, 0-1, 1/2-1/2 or *"
		}
		return fmt.Errorf("%w: %q is not a %s result (%s)", rules.ErrResult, result, p.g.id, allowed)
	}
	if w == 3 {
		return nil
	}
	o := p.Outcome()
	if !o.Over {
		return nil
	}
	if want := p.g.resultWinner(o.Result); w != want {
		return fmt.Errorf("%w: the game is over (%s), the result is %s, not %s", rules.ErrResult, o.Reason, o.Result, r)
	}
	return nil
}

// Board lists the pieces: square numbers, Kind 'M' for a man (sheep and wolf
// included) and 'K' with Promoted for a king.
func (p *Position) Board() []rules.Placement {
	out := make([]rules.Placement, 0, p.count[0]+p.count[1])
	for s := 0; s < p.geo.n; s++ {
		c := p.cell[s]
		if c == empty {
			continue
		}
		pl := rules.Placement{Square: p.sqName(s), Side: p.g.side(sideOf(c)), Kind: 'M', Count: 1}
		if isKing(c) {
			pl.Kind, pl.Promoted = 'K', true
		}
		out = append(out, pl)
	}
	return out
}

// Diagram draws the board with White at the bottom: w/b men, W/B kings (in
// loup-moutons s sheep, L the wolf), empty dark squares show their number.
func (p *Position) Diagram() string {
	var b strings.Builder
	g := p.geo
	border := "  +" + strings.Repeat("---", g.w) + "+\n"
	b.WriteString(border)
	for r := 0; r < g.h; r++ {
		b.WriteString("  |")
		for c := 0; c < g.w; c++ {
			s := int(g.at[r][c])
			switch {
			case s < 0:
				b.WriteString(" · ")
			case p.cell[s] == empty:
				fmt.Fprintf(&b, "%3s", p.sqName(s))
			default:
				b.WriteString(" " + p.glyph(p.cell[s]) + " ")
			}
		}
		b.WriteString("|\n")
	}
	b.WriteString(border)
	names := [2]string{"White", "Black"}
	if p.g.v == vLoup {
		names = [2]string{"White (sheep)", "Black (wolf)"}
	}
	fmt.Fprintf(&b, "  %s to move", names[p.turn])
	if p.huff != 0 {
		b.WriteString("; may huff")
		for h := p.huff; h != 0; h &= h - 1 {
			fmt.Fprintf(&b, " H%d", bits.TrailingZeros64(h)+1)
		}
	}
	b.WriteString("\n")
	return b.String()
}

func (p *Position) glyph(c int8) string {
	if p.g.v == vLoup {
		if sideOf(c) == white {
			return "s"
		}
		return "L"
	}
	return [5]string{"", "w", "W", "b", "B"}[c]
}

// sqName is the name of square s in the ruleset's notation: its PDN number,
// or "c3" in the algebraic families.
func (p *Position) sqName(s int) string {
	if p.g.f.algebraic {
		return p.geo.alg(s)
	}
	return strconv.Itoa(s + 1)
}
