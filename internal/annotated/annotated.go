// Package annotated builds, for tests, an annotated game of any ruleset as a
// user would enter it in the browser: tags holding quotes, backslashes and
// brackets, a start position tag, an intro comment, comments before and
// after moves, NAGs (move and position signs and others), and a variation
// holding a nested one. Every move is legal: moves are chosen among the
// position's legal moves by their index, so the same game is built each
// time.
package annotated

import (
	"fmt"

	"github.com/plateau/plateau/record"
	"github.com/plateau/plateau/rules"
)

// Plies is the length of the main line (shorter when the game ends first).
const Plies = 8

// Game returns the annotated game of ruleset id. Its Result is a win the
// rules allow in its final position (a resignation), else "*".
func Game(id string) (*record.Game, error) {
	rg, err := rules.Lookup(id)
	if err != nil {
		return nil, err
	}
	start, err := rg.NewPosition("")
	if err != nil {
		return nil, err
	}
	sides := rg.Sides()
	g := &record.Game{
		Tags: []record.Tag{
			{Name: "Game", Value: id},
			{Name: "Event", Value: `Club "open" 2026`},
			{Name: "Site", Value: `C:\games\club`},
			{Name: "Date", Value: "2026.11.29"},
			{Name: "Round", Value: "3"},
			{Name: sides[0], Value: "O'Neil, Ann"},
			{Name: sides[1], Value: "Zoë [B]"},
			{Name: "Result", Value: "*"},
			{Name: "FEN", Value: start.String()},
			{Name: "SetUp", Value: "1"},
			{Name: "Annotator", Value: "Plateau test"},
			{Name: "Remark", Value: `a "b" \ c ] d`},
		},
		Intro: []string{`Opening remarks: "quoted", 50% (a) see [1] C:\x $5 é`},
	}
	g.Moves = line(start.Clone(), 0, Plies, 0, "")
	if len(g.Moves) < 4 {
		return nil, fmt.Errorf("annotated: %s: only %d plies", id, len(g.Moves))
	}
	annotate(g.Moves)
	g.SetTag("Result", result(start.Clone(), g.Moves))
	if err := vary(g.Moves, start.Clone()); err != nil {
		return nil, err
	}
	return g, nil
}

// vary adds a variation to the first move from the third on that has an
// alternative, with a nested variation of its own second move when that
// has one; pos is the start position (changed).
func vary(main record.Line, pos rules.Position) error {
	for k, m := range main {
		if k >= 2 {
			if v := line(pos.Clone(), k, 4, 1, m.Text); len(v) > 0 {
				v[0].Before = []string{"instead:"}
				v[0].NAGs = []int{5}
				nest(v, pos.Clone(), k)
				m.Variations = append(m.Variations, v)
				return nil
			}
		}
		mv, err := pos.ParseMove(m.Text)
		if err != nil {
			return err
		}
		pos.Play(mv)
	}
	return fmt.Errorf("annotated: no move with an alternative")
}

// nest adds a variation to the first move of v after its first that has
// an alternative; pos is the position before v (changed), ply v's first.
func nest(v record.Line, pos rules.Position, ply int) {
	for i, m := range v {
		if i > 0 {
			if nested := line(pos.Clone(), ply+i, 2, 2, m.Text); len(nested) > 0 {
				m.NAGs = []int{6, 4}
				nested[0].After = []string{"deeper (nested)"}
				m.Variations = append(m.Variations, nested)
				return
			}
		}
		mv, err := pos.ParseMove(m.Text)
		if err != nil {
			return
		}
		pos.Play(mv)
	}
}

// result is the first win the rules allow at the end of l (a
// resignation), or "*".
func result(pos rules.Position, l record.Line) string {
	for _, m := range l {
		mv, err := pos.ParseMove(m.Text)
		if err != nil {
			return "*"
		}
		pos.Play(mv)
	}
	for _, r := range []string{"1-0", "2-0", "3-0", "0-1", "0-2"} {
		if pos.CheckResult(r) == nil {
			return r
		}
	}
	return "*"
}

// annotate puts comments and NAGs on the main line.
func annotate(l record.Line) {
	l[0].After = []string{"good start"}
	l[0].NAGs = []int{1, 14}
	l[1].Before = []string{"now the reply"}
	l[1].NAGs = []int{7}
	l[1].After = []string{"first", "second"}
	l[2].NAGs = []int{2}
	l[2].After = []string{`a "quote" and a \ backslash`}
	l[3].NAGs = []int{3, 13, 7}
}

// line plays up to n plies from pos (changed), the ply-th first, choosing
// among the legal moves by ply and pick (a first move other than avoid),
// and returns them as moves.
func line(pos rules.Position, ply, n, pick int, avoid string) record.Line {
	var out record.Line
	var buf []rules.Move
	for i := 0; i < n; i++ {
		if pos.Outcome().Over {
			break
		}
		buf = pos.Legal(buf[:0])
		if len(buf) == 0 || (avoid != "" && i == 0 && len(buf) < 2) {
			break
		}
		k := (ply*7 + 3 + pick) % len(buf)
		mv := buf[k]
		if i == 0 && pos.FormatMove(mv) == avoid {
			// A variation: another move than the line's.
			mv = buf[(k+1)%len(buf)]
		}
		out = append(out, &record.Move{Text: pos.FormatMove(mv), Ply: ply + i})
		pos.Play(mv)
	}
	return out
}
