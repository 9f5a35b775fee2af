package generate

import (
	"fmt"

	"github.com/plateau/plateau/rules"
)

// toy is a small Breakthrough on 5×5, so that the generator can be tested
// without any real ruleset: pawns step forward (straight onto an empty
// square, diagonally onto an empty or enemy square, capturing); reaching the
// far row wins; a side with no move loses.
type toy struct{}

func (toy) ID() string             { return "toy" }
func (toy) Name() string           { return "Toy breakthrough" }
func (toy) Sides() [2]string       { return [2]string{"White", "Black"} }
func (toy) IllegalMoveLoses() bool { return false }
func (toy) NewPosition(s string) (rules.Position, error) {
	if s != "" {
		return nil, rules.PositionError(s, "only the start position")
	}
	p := &toyPos{}
	for c := 0; c < 5; c++ {
		p.b[0][c], p.b[1][c] = 1, 1
		p.b[3][c], p.b[4][c] = 2, 2
	}
	return p, nil
}

type toyPos struct {
	b    [5][5]int8 // [row][col]; 0 empty, 1 White, 2 Black
	side rules.Side
	ply  int
}

func sqName(r, c int) string { return string(rune('a'+c)) + string(rune('1'+r)) }

func (p *toyPos) String() string {
	return fmt.Sprint(p.b, p.side)
}
func (p *toyPos) Key() uint64 {
	var k uint64 = uint64(p.side)
	for r := range p.b {
		for c := range p.b[r] {
			k = k*3 + uint64(p.b[r][c])
		}
	}
	return k
}
func (p *toyPos) ToMove() rules.Side    { return p.side }
func (p *toyPos) Clone() rules.Position { c := *p; return &c }
func (p *toyPos) Legal(dst []rules.Move) []rules.Move {
	if p.Outcome().Over {
		return dst
	}
	me := int8(p.side + 1)
	dir := 1
	if p.side == 1 {
		dir = -1
	}
	for r := 0; r < 5; r++ {
		for c := 0; c < 5; c++ {
			if p.b[r][c] != me {
				continue
			}
			nr := r + dir
			if nr < 0 || nr > 4 {
				continue
			}
			for dc := -1; dc <= 1; dc++ {
				nc := c + dc
				if nc < 0 || nc > 4 {
					continue
				}
				t := p.b[nr][nc]
				if t == me || (dc == 0 && t != 0) {
					continue
				}
				dst = append(dst, rules.Move(r*5+c)<<8|rules.Move(nr*5+nc))
			}
		}
	}
	return dst
}
func (p *toyPos) ParseMove(text string) (rules.Move, error) {
	for _, m := range p.Legal(nil) {
		if p.FormatMove(m) == text {
			return m, nil
		}
	}
	return 0, &rules.MoveError{Text: text, Kind: rules.Illegal, Rule: "not a move"}
}
func (p *toyPos) FormatMove(m rules.Move) string {
	f, t := int(m>>8), int(m&255)
	sep := "-"
	if p.b[t/5][t%5] != 0 {
		sep = "x"
	}
	return sqName(f/5, f%5) + sep + sqName(t/5, t%5)
}
func (p *toyPos) Describe(m rules.Move) rules.MoveInfo {
	f, t := int(m>>8), int(m&255)
	info := rules.MoveInfo{From: sqName(f/5, f%5), To: sqName(t/5, t%5)}
	if p.b[t/5][t%5] != 0 {
		info.Captures = 1
	}
	if t/5 == 0 || t/5 == 4 {
		info.Promotes = true
	}
	return info
}
func (p *toyPos) Play(m rules.Move) {
	f, t := int(m>>8), int(m&255)
	p.b[t/5][t%5] = p.b[f/5][f%5]
	p.b[f/5][f%5] = 0
	p.side = p.side.Other()
	p.ply++
}
func (p *toyPos) Outcome() rules.Outcome {
	for c := 0; c < 5; c++ {
		if p.b[4][c] == 1 {
			return rules.Outcome{Over: true, Result: "1-0", Reason: "breakthrough"}
		}
		if p.b[0][c] == 2 {
			return rules.Outcome{Over: true, Result: "0-1", Reason: "breakthrough"}
		}
	}
	me := int8(p.side + 1)
	dir := 1
	if p.side == 1 {
		dir = -1
	}
	for r := 0; r < 5; r++ {
		for c := 0; c < 5; c++ {
			if p.b[r][c] != me {
				continue
			}
			for dc := -1; dc <= 1; dc++ {
				nr, nc := r+dir, c+dc
				if nc >= 0 && nc < 5 && p.b[nr][nc] != me && (dc != 0 || p.b[nr][nc] == 0) {
					return rules.Outcome{}
				}
			}
		}
	}
	if p.side == 0 {
		return rules.Outcome{Over: true, Result: "0-1", Reason: "blocked"}
	}
	return rules.Outcome{Over: true, Result: "1-0", Reason: "blocked"}
}
func (p *toyPos) CheckResult(result string) error {
	if o := p.Outcome(); o.Over && o.Result != result {
		return fmt.Errorf("%w: the game is over: %s", rules.ErrResult, o.Result)
	}
	if result == "1/2-1/2" {
		return fmt.Errorf("%w: no draws", rules.ErrResult)
	}
	return nil
}
func (p *toyPos) Board() []rules.Placement { return nil }
func (p *toyPos) Diagram() string          { return p.String() }
