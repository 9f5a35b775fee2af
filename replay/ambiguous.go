package replay

import (
	"errors"
	"fmt"
	"strings"

	"github.com/plateau/plateau/record"
	"github.com/plateau/plateau/rules"
)

// Ambiguous moves. A move text that fits several legal moves (a draughts
// capture written "3x26" that may go by 17 or by 19, a Russian short move
// "cd4" that two pieces can make; rules.Matches lists them) is read as the
// record goes on:
//
//   - when exactly one candidate lets the rest of its line play legally to
//     its end, that one, silently (the record says which, by its moves);
//   - when several do, or the move is the last of its line, the record
//     stays valid: the candidate whose line ends in a position that gives
//     the record's Result (main line only), else the first the rules list,
//     with a WarnAmbiguous warning naming the candidates and the one read;
//   - when none does, the record breaks whichever is read: the candidate
//     whose line plays furthest (the first of equals) is read, with the
//     warning, and the replay fails where that line breaks.
//
// Moves after an ambiguous one may be ambiguous too: each of their
// candidates is tried in turn, up to maxTries lines for one move, after
// which only their first candidates are.

// WarnAmbiguous: a move fits several legal moves that the moves after it
// do not tell apart (or none of which lets them play); the text names the
// candidates and the one read.
const WarnAmbiguous = "ambiguous"

// maxTries bounds the candidate lines tried to settle one ambiguous move.
const maxTries = 256

// resolve settles the move m, which ParseMove found ambiguous (err), by the
// moves rest that follow it in its line; any other error is returned as it
// is. The position is not changed.
func (r *replayer) resolve(pos rules.Position, m *record.Move, ply, depth int, err error, rest record.Line) (rules.Move, error) {
	var me *rules.MoveError
	if !errors.As(err, &me) || me.Kind != rules.Ambiguous {
		return 0, err
	}
	cands, cerr := rules.Matches(pos, m.Text, nil)
	if cerr != nil || len(cands) == 0 {
		return 0, err
	}
	if len(cands) == 1 {
		return cands[0], nil
	}
	budget := maxTries
	ends := make([]rules.Position, len(cands))
	var full []int // candidates whose line plays to its end
	best, bestN := 0, -1
	for i, c := range cands {
		try := pos.Clone()
		try.Play(c)
		n := r.playable(try, rest, depth, &budget)
		if n == len(rest) {
			full = append(full, i)
			ends[i] = try
		}
		if n > bestN {
			best, bestN = i, n
		}
	}
	if len(full) == 1 {
		return cands[full[0]], nil
	}
	texts := make([]string, len(cands))
	for i, c := range cands {
		texts[i] = pos.FormatMove(c)
	}
	why := ""
	switch {
	case len(full) == 0:
		why = fmt.Sprintf("none lets the line go on; the line breaks %d moves after it", bestN+1)
		others := append(append([]string(nil), texts[:best]...), texts[best+1:]...)
		r.breaks = &breakAt{move: rest[bestN], why: fmt.Sprintf("after ply %d %q read as %s, the reading that goes furthest: it could be %s, and no reading lets the line go on",
			ply+1, record.Clip(m.Text, 40), texts[best], strings.Join(others, " or "))}
	case len(rest) == 0:
		why = "the last move of its line"
		best = r.byResult(full, ends, depth)
	default:
		why = "the moves after it fit each"
		best = r.byResult(full, ends, depth)
	}
	r.g.warn(m.Pos, WarnAmbiguous, fmt.Sprintf("ply %d %q could be %s; read as %s (%s)",
		ply+1, record.Clip(m.Text, 40), strings.Join(texts, " or "), texts[best], why))
	return cands[best], nil
}

// breakAt is the move where the best reading of an ambiguous move breaks,
// and what to add to its error.
type breakAt struct {
	move *record.Move
	why  string
}

// byResult is the candidate among full (indexes of those whose line plays
// to its end, ending in ends) whose final position gives the record's
// Result, in the main line; else the first.
func (r *replayer) byResult(full []int, ends []rules.Position, depth int) int {
	res := r.g.Result
	if depth == 0 && res != "" && res != "*" {
		for _, i := range full {
			if ends[i].Outcome().Over && ends[i].CheckResult(res) == nil {
				return i
			}
		}
		for _, i := range full {
			if ends[i].CheckResult(res) == nil {
				return i
			}
		}
	}
	return full[0]
}

// playable plays the moves of rest from pos (changed) while they are legal
// and reports how many were; an ambiguous move among them is tried with
// each of its candidates while budget lasts (the best line counts), then
// with its first. A closing illegal move counts where it ends the game
// (IllegalMoveLoses, main line).
func (r *replayer) playable(pos rules.Position, rest record.Line, depth int, budget *int) int {
	for i, m := range rest {
		if pos.Outcome().Over {
			return i
		}
		cands, err := rules.Matches(pos, m.Text, nil)
		if err != nil {
			var me *rules.MoveError
			if r.loses && depth == 0 && i == len(rest)-1 && errors.As(err, &me) && me.Kind == rules.Illegal {
				return i + 1
			}
			return i
		}
		if len(cands) > 1 && *budget > 0 {
			best := -1
			for _, c := range cands {
				*budget--
				try := pos.Clone()
				try.Play(c)
				best = max(best, r.playable(try, rest[i+1:], depth, budget))
			}
			return i + 1 + best
		}
		pos.Play(cands[0])
	}
	return len(rest)
}
