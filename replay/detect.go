package replay

import (
	"fmt"
	"strings"

	"github.com/plateau/plateau/record"
	"github.com/plateau/plateau/rules"
)

// Detection of the ruleset of a record that names none (Options.Detect).
//
// PDN's default GameType is 20 (international draughts, 10×10), yet real
// 8×8 collections (English checkers, Italian, Russian files) carry no
// GameType tag. Read as 10×10 they fail at once or, worse, problems given by
// a FEN are accepted on the wrong board. The rule:
//
//  1. A record fits 8×8 when it has a FEN or at least one move, and every
//     square it writes (FEN and every move of every line) is a PDN number
//     from 1 to 32 or an algebraic square from a1 to h8.
//  2. A record that fits 8×8 is replayed under each registered 8×8 draughts
//     ruleset in the order of preference below, then under DefaultGame; the
//     first under which it is valid (every move legal) is chosen. Numeric
//     records try checkers (PDN GameType 21), italian (22), pool (23),
//     russian (25), brazilian (26), czech (29); algebraic ones (the Russian
//     habit) try russian, brazilian, czech, pool, checkers, italian. A
//     ruleset not registered is skipped; rulesets are found by their PDN
//     GameType number, so a new family is tried as soon as it registers it.
//  3. The chosen game carries a WarnRuleset warning naming the ruleset and
//     the ones tried before it; its canonical form has the Game tag.
//  4. When none reads it, the record keeps the error of the ruleset that
//     played the most plies (the earlier one on a tie), and the error says
//     which rulesets were tried.
//  5. A record that does not fit 8×8 is read under DefaultGame, as without
//     detection.
//  6. Options.Prefer, the ruleset detected for the previous untagged game of
//     the same file (the commands pass it, file by file in order; an import
//     within each chunk of 64 records of a file), is tried first when it is
//     one of the 8×8 rulesets: a Czech file whose first game Russian rules
//     also read stays Czech once one of its games has shown it. The
//     warning then says "as the game before it".

// numericOrder and algebraicOrder are the 8×8 rulesets tried, by PDN
// GameType.
var (
	numericOrder   = []string{"21", "22", "23", "25", "26", "29"}
	algebraicOrder = []string{"25", "26", "29", "23", "21", "22"}
)

// squareScan records whether a text writes any square, any square that does
// not exist on 8×8 (a number above 32, an algebraic square beyond h8), and
// any algebraic square.
type squareScan struct {
	any, big, algebraic bool
}

func (s *squareScan) text(t string) {
	for i := 0; i < len(t); {
		c := t[i]
		switch {
		case c >= 'a' && c <= 'z' && i+1 < len(t) && isDigit(t[i+1]) && squareStart(t, i):
			j := i + 1
			n := 0
			for j < len(t) && t[j] >= '0' && t[j] <= '9' {
				n = n*10 + int(t[j]-'0')
				j++
			}
			s.any, s.algebraic = true, true
			if c > 'h' || n < 1 || n > 8 {
				s.big = true
			}
			i = j
		case c >= '0' && c <= '9':
			j := i
			n := 0
			for j < len(t) && t[j] >= '0' && t[j] <= '9' {
				if n < 1000 {
					n = n*10 + int(t[j]-'0')
				}
				j++
			}
			s.any = true
			if n < 1 || n > 32 {
				s.big = true
			}
			i = j
		default:
			i++
		}
	}
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// squareStart reports whether the letter at t[i] may begin an algebraic
// square: not inside a word or a number ("24x15" has no square x1), but
// after a capture mark ("c3xe5") or a piece letter ("Wa1").
func squareStart(t string, i int) bool {
	if i == 0 {
		return true
	}
	p := t[i-1]
	if p == 'x' && i >= 2 && isDigit(t[i-2]) {
		return true
	}
	return !(p >= 'a' && p <= 'z') && !isDigit(p)
}

func (s *squareScan) line(l record.Line) {
	for _, m := range l {
		s.text(m.Text)
		for _, v := range m.Variations {
			s.line(v)
		}
	}
}

// fits8 scans a record's FEN and moves (see the rule above).
func fits8(rec *record.Game) (ok, algebraic bool) {
	var s squareScan
	if fen := strings.TrimSpace(rec.Tag("FEN")); fen != "" {
		s.text(fen)
	}
	s.line(rec.Moves)
	return s.any && !s.big, s.algebraic
}

// candidates are the rulesets tried for a record that fits 8×8, in order,
// DefaultGame last.
func candidates(algebraic bool, def string) []rules.Game {
	order := numericOrder
	if algebraic {
		order = algebraicOrder
	}
	var out []rules.Game
	seen := map[string]bool{}
	add := func(id string) {
		if rg, err := rules.Lookup(id); err == nil && !seen[rg.ID()] {
			seen[rg.ID()] = true
			out = append(out, rg)
		}
	}
	for _, gt := range order {
		add(gt)
	}
	if def != "" {
		add(def)
	}
	return out
}

// Detected is the ruleset chosen by detection (Options.Detect) for a
// record that named none, or "".
func (g *Game) Detected() string {
	for _, w := range g.Warnings {
		if w.Kind == WarnRuleset && g.Rules != nil {
			return g.Rules.ID()
		}
	}
	return ""
}

// detect replays an untagged record under the rule above.
// Only a game replayed under a single candidate is made in rp's memory
// (the candidates' games live side by side).
func detect(rec *record.Game, opts Options, rp *Replayer) *Game {
	ok, algebraic := fits8(rec)
	var cands []rules.Game
	if ok {
		cands = candidates(algebraic, opts.DefaultGame)
	}
	if len(cands) < 2 {
		// Nothing to choose from: the default, as without detection.
		o := opts
		o.Detect = false
		return rp.Replay(rec, o)
	}
	preferred := false
	if opts.Prefer != "" && opts.Prefer != cands[0].ID() {
		for i, rg := range cands[:len(cands)-1] { // never the default
			if rg.ID() == opts.Prefer {
				cands = append([]rules.Game{rg}, append(append([]rules.Game{}, cands[:i]...), cands[i+1:]...)...)
				preferred = true
				break
			}
		}
	}
	var best *Game
	var tried []string
	for i, rg := range cands {
		g := replayWith(rec, rg, nil)
		if g.Err == nil {
			why := "every square exists on 8×8 and every move is legal under " + rg.ID()
			if i == 0 && preferred {
				why = "as the game before it in the file; " + why
			}
			if len(tried) > 0 {
				why += "; not under " + strings.Join(tried, ", ")
			}
			g.Warnings = append([]Warning{{Pos: rec.Pos, Kind: WarnRuleset,
				Text: fmt.Sprintf("no Game or GameType tag: read as %s (%s)", rg.ID(), why)}}, g.Warnings...)
			return g
		}
		tried = append(tried, rg.ID())
		if best == nil || g.Plies() > best.Plies() {
			best = g
		}
	}
	// explainAssumed has said "read as X"; say what else was tried.
	best.Err.Err = fmt.Errorf("%w; no ruleset reads it as a valid game (tried %s)", best.Err.Err, strings.Join(tried, ", "))
	return best
}
