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
//  2. A record that fits 8×8 is replayed under every registered 8×8
//     draughts ruleset; when none reads it (every move legal), under
//     DefaultGame. Numeric records try checkers (PDN GameType 21), italian
//     (22), pool (23), russian (25), brazilian (26), czech (29), then the
//     rarer spanish (24), portuguese (28), thai (31) and turkish (30);
//     algebraic ones (the Russian habit) try russian, brazilian, czech,
//     pool, checkers, italian, turkish, spanish, portuguese, thai. Rulesets
//     are found by their PDN GameType number,
//     so a new family is tried as soon as it registers it; one not
//     registered is skipped.
//  3. Checkers and pool write numbers (PDN notation N1), yet online sites
//     write their games in algebraic squares. An algebraic record without
//     a FEN is read under them with its squares numbered (numbered.go): who
//     moves first from the start says how the board is turned. Their first
//     mover is Black, on squares 1–12: when the record's first move starts
//     on ranks 1–4, the first mover sits at the bottom of the algebraic
//     board, and the board is turned half round (a1 is 4, c3 is 11);
//     otherwise a1 is 29, as in the other families.
//  4. When several rulesets read the record, the one that read the most
//     of the file's untagged games wins, the file's majority; on a tie, the
//     first in the order above. The file's games are those its evidence
//     counted (record.Game.Evidence: every game of the file, or its first
//     ones up to a bound, counted by a reader that looked ahead), so that
//     the first games of a file have the evidence of the later ones, and a
//     game's ruleset depends on its file and itself only: every command,
//     and an import's parallel chunks, read it alike. A record without
//     evidence goes by the file's games replayed before it (Options.Votes)
//     and, on a tie, first by Options.Prefer, the ruleset chosen for the
//     previous untagged game of the same file (the commands pass it, file
//     by file in order; an import within each chunk of 64 records of a
//     file). The warning names every ruleset that read it and why the
//     chosen one won.
//  5. The chosen game carries a WarnRuleset warning naming the ruleset and
//     the ones that did not read it; its canonical form has the Game tag
//     (and numbers, when its squares were numbered).
//  6. When none reads it, the record keeps the error of the ruleset that
//     played the most plies (the earlier one on a tie), and the error says
//     which rulesets were tried.
//  7. A record that does not fit 8×8 is read under DefaultGame, as without
//     detection; so is one that writes no square at all (no move, an empty
//     FEN), unless the file's games chose an 8×8 ruleset: then it is read
//     under their majority's (as in 4), or when their moves say nothing (a
//     file of problems without moves) under the one chosen for the game
//     before it (Options.Prefer).

// numericOrder and algebraicOrder are the 8×8 rulesets tried, by PDN
// GameType.
var (
	numericOrder   = []string{"21", "22", "23", "25", "26", "29", "24", "28", "31", "30"}
	algebraicOrder = []string{"25", "26", "29", "23", "21", "22", "30", "24", "28", "31"}
)

// numberedTypes are the PDN GameTypes whose first mover is Black and whose
// squares are numbers (N1), read from algebraic records by numbering their
// squares (rule 3).
var numberedTypes = map[string]bool{"21": true, "23": true}

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

// fits8 scans a record's FEN and moves (see the rule above); any reports
// that it writes a square at all.
func fits8(rec *record.Game) (ok, algebraic, any bool) {
	var s squareScan
	if fen := strings.TrimSpace(rec.Tag("FEN")); fen != "" {
		s.text(fen)
	}
	s.line(rec.Moves)
	return s.any && !s.big, s.algebraic, s.any
}

// candidate is a ruleset tried by detection: numbered, the record is read
// with its algebraic squares numbered (rule 3).
type candidate struct {
	rg       rules.Game
	numbered bool
}

// candidates are the 8×8 rulesets tried for a record that fits 8×8, in
// order, with prefer (the ruleset of the game before it) first.
func candidates(rec *record.Game, algebraic bool, prefer string) []candidate {
	order := numericOrder
	if algebraic {
		order = algebraicOrder
	}
	number := algebraic && strings.TrimSpace(rec.Tag("FEN")) == ""
	var out []candidate
	seen := map[string]bool{}
	for _, gt := range order {
		rg, err := rules.Lookup(gt)
		if err != nil || seen[rg.ID()] {
			continue
		}
		seen[rg.ID()] = true
		c := candidate{rg: rg, numbered: number && numberedTypes[gt]}
		if rg.ID() == prefer {
			out = append([]candidate{c}, out...)
		} else {
			out = append(out, c)
		}
	}
	return out
}

// reading is a record replayed under a candidate; note says how its squares
// were numbered, if they were.
type reading struct {
	g    *Game
	note string
	at   int // the candidate's place in the order tried
}

// replay plays rec under the candidate; g is nil when its squares cannot
// be numbered.
func (c candidate) replay(rec *record.Game) reading {
	var note string
	if c.numbered {
		n, how, ok := numbered(rec)
		if !ok {
			return reading{}
		}
		rec, note = n, how
	}
	return reading{g: replayWith(rec, c.rg, nil, nil), note: note}
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

// Detects reports whether Replay with opts tries the 8×8 rulesets for rec
// (rules 1–2 above): only such a record adds to its file's votes, so a
// reader that counts a file's evidence ahead (Votes.Evidence) replays no
// other.
func Detects(rec *record.Game, opts Options) bool {
	if !opts.Detect || named(rec) {
		return false
	}
	ok, _, _ := fits8(rec)
	return ok
}

// detect replays an untagged record under the rule above.
// Only a game replayed under the default alone is made in rp's memory
// (the candidates' games live side by side).
func detect(rec *record.Game, opts Options, rp *Replayer) *Game {
	votes := opts.Votes
	if votes == nil && rp != nil {
		votes = &rp.votes
	}
	t := votes.tallyFor(rec)
	// With its file's evidence a record's ruleset depends on the evidence
	// and the record alone, not on the games replayed before it: the same
	// in an import's parallel chunks as in validate (rule 4).
	prefer := opts.Prefer
	if t.ahead {
		prefer = ""
	}
	ok, algebraic, any := fits8(rec)
	var cands []candidate
	if ok {
		cands = candidates(rec, algebraic, prefer)
	}
	if len(cands) == 0 {
		o := opts
		o.Detect = false
		lead := t.leader()
		if lead == "" {
			// No evidence says (a file of problems without moves): the
			// ruleset of the game before it.
			lead = opts.Prefer
		}
		if any || lead == "" || opts.DefaultGame == "" {
			return rp.Replay(rec, o)
		}
		// No square to judge by: the file's ruleset (rule 7).
		o.DefaultGame = lead
		g := rp.Replay(rec, o)
		if g.Rules != nil && g.Rules.ID() == lead {
			whose := "the ruleset of the file's games before it"
			if t.ahead {
				whose = "the ruleset of most of the file's games"
			}
			g.Warnings = append([]Warning{{Pos: rec.Pos, Kind: WarnRuleset,
				Text: "no Game or GameType tag: read as " + lead + " (it writes no square to judge by: " + whose + ")"}}, g.Warnings...)
		}
		return g
	}
	var valid []reading
	var best *Game
	var tried []string // the rulesets that do not read it, in order
	var triedAt []int  // their places in the order
	for i, c := range cands {
		r := c.replay(rec)
		r.at = i
		g := r.g
		switch {
		case g == nil:
			tried, triedAt = append(tried, c.rg.ID()), append(triedAt, i)
		case g.Err == nil:
			valid = append(valid, r)
		default:
			tried, triedAt = append(tried, c.rg.ID()), append(triedAt, i)
			if best == nil || g.Plies() > best.Plies() {
				best = g
			}
		}
	}
	if len(valid) > 0 {
		return t.choose(valid, prefer, tried, triedAt, len(rec.Moves) == 0)
	}
	if def, err := rules.Lookup(opts.DefaultGame); err == nil && !contains(cands, def.ID()) {
		if g := replayWith(rec, def, nil, nil); g.Err == nil {
			return t.choose([]reading{{g: g, at: len(cands)}}, "", tried, triedAt, false)
		} else if best == nil || g.Plies() > best.Plies() {
			best = g
		}
		tried = append(tried, def.ID())
	}
	// explainAssumed has said "read as X"; say what else was tried.
	best.Err.Err = fmt.Errorf("%w; no ruleset reads it as a valid game (tried %s)", best.Err.Err, strings.Join(tried, ", "))
	return best
}

func contains(cands []candidate, id string) bool {
	for _, c := range cands {
		if c.rg.ID() == id {
			return true
		}
	}
	return false
}
