package ogi

import (
	"fmt"

	"github.com/plateau/plateau/rules"
)

// Rule names of illegal moves (MoveError.Rule). An illegal move ends an Ōgi
// game, and replay reports these names as the reason.
const (
	RuleGameOver        = "game over"
	RuleNoPiece         = "no piece on square"
	RuleOpponentPiece   = "moving the opponent's piece"
	RuleWrongPiece      = "wrong piece"
	RuleNoSuchPiece     = "no such piece on the board"
	RuleNotDestination  = "not a destination of the piece"
	RulePathBlocked     = "path blocked"
	RuleOwnPiece        = "own piece on square"
	RuleDropOccupied    = "drop on occupied square"
	RulePawnDrop        = "pawn drop"
	RuleLanceDropRank   = "lance drop on last rank"
	RuleKnightDropRank  = "knight drop on last two ranks"
	RuleNotInHand       = "no such piece in hand"
	RulePromotionDenied = "promotion not allowed"
	RuleCompulsory      = "compulsory promotion"
	RuleRepetition      = "repetition"
)

// rulePriority orders the reasons a short-form move fails, most specific
// first, when several pieces could have been meant.
var rulePriority = []string{RuleRepetition, RuleCompulsory, RulePromotionDenied, RuleOwnPiece, RulePathBlocked, RuleNotDestination}

func resultError(format string, args ...any) error {
	return fmt.Errorf("%w: %s", rules.ErrResult, fmt.Sprintf(format, args...))
}

// parsed is a move text taken apart.
type parsed struct {
	piece  uint8 // code for the side to move
	from   int   // -1 if omitted
	to     int
	drop   bool
	suffix byte // '+', '=' or 0
}

func square(s string, i int) (int, bool) {
	if i+1 < len(s) && s[i] >= 'a' && s[i] <= 'h' && s[i+1] >= '1' && s[i+1] <= '8' {
		return int(s[i]-'a') + 8*int(s[i+1]-'1'), true
	}
	return 0, false
}

// lex reads [+]X[from][-|x]to[+|=] or [+]X*to[+|=] into pm; it returns
// what is wrong on a syntax error, else "". (pm is the caller's: a struct
// returned with the message cost a copy a move.)
func lex(s string, side int, pm *parsed) string {
	*pm = parsed{from: -1}
	i := 0
	prom := false
	if i < len(s) && s[i] == '+' {
		prom = true
		i++
	}
	if i >= len(s) {
		return "no piece letter"
	}
	k := letterKind(s[i])
	if k < 0 {
		return "a move starts with a piece letter (K I R B S N L P)"
	}
	if k == king && prom {
		return "the King has no promoted side"
	}
	i++
	pm.piece = makeCode(side, k, prom)
	if i < len(s) && s[i] == '*' {
		pm.drop = true
		i++
		to, ok := square(s, i)
		if !ok {
			return "a square (a1-h8) must follow '*'"
		}
		pm.to = to
		i += 2
	} else {
		sq1, ok := square(s, i)
		sep := false
		if ok {
			i += 2
		}
		if i < len(s) && (s[i] == '-' || s[i] == 'x') {
			sep = true
			i++
		}
		sq2, ok2 := square(s, i)
		switch {
		case ok2:
			i += 2
			pm.to = sq2
			if ok {
				pm.from = sq1
			}
		case ok && !sep:
			pm.to = sq1
		case i < len(s):
			return fmt.Sprintf("%q is not a square (a1-h8)", s[i:])
		default:
			return "a destination square (a1-h8) is missing"
		}
	}
	if i < len(s) && (s[i] == '+' || s[i] == '=') {
		pm.suffix = s[i]
		i++
	}
	if i != len(s) {
		return fmt.Sprintf("unexpected %q", s[i:])
	}
	return ""
}

// ParseMove reads a move in short or long form and returns it if legal. The
// long form is checked directly; only a short board move searches for its
// origin. '-' and 'x' are both accepted whether or not the move captures.
func (p *Position) ParseMove(text string) (rules.Move, error) {
	var pm parsed
	if why := lex(text, p.side, &pm); why != "" {
		return 0, &rules.MoveError{Text: text, Kind: rules.Syntax, Detail: why}
	}
	if p.kingCaptured() {
		return 0, illegal(text, RuleGameOver, "a King has been captured")
	}
	if pm.drop {
		m, rule := p.checkDrop(pm)
		if rule != "" {
			return 0, illegal(text, rule, "")
		}
		return m, nil
	}
	if pm.from >= 0 {
		m, rule := p.checkMove(pm.from, pm.to, pm.piece, pm.suffix)
		if rule != "" {
			return 0, illegal(text, rule, "")
		}
		return m, nil
	}
	// Short form: try every piece of that kind and state.
	var found [8]rules.Move
	legal := found[:0]
	best := ""
	pieces := 0
	for sq := 0; sq < 64; sq++ {
		if p.board[sq] != pm.piece {
			continue
		}
		pieces++
		m, rule := p.checkMove(sq, pm.to, pm.piece, pm.suffix)
		if rule == "" {
			legal = append(legal, m)
		} else if rank(rule) < rank(best) {
			best = rule
		}
	}
	switch {
	case len(legal) == 1:
		return legal[0], nil
	case len(legal) > 1:
		e := &rules.MoveError{Text: text, Kind: rules.Ambiguous}
		for _, m := range legal {
			e.Candidates = append(e.Candidates, p.FormatMove(m))
		}
		return 0, e
	case pieces == 0:
		return 0, illegal(text, RuleNoSuchPiece, "")
	}
	return 0, illegal(text, best, "")
}

func rank(rule string) int {
	for i, r := range rulePriority {
		if r == rule {
			return i
		}
	}
	return len(rulePriority)
}

func illegal(text, rule, detail string) error {
	return &rules.MoveError{Text: text, Kind: rules.Illegal, Rule: rule, Detail: detail}
}

// checkMove checks the board move piece from→to with the written promotion
// suffix, and returns it or the rule it breaks.
func (p *Position) checkMove(from, to int, piece uint8, suffix byte) (rules.Move, string) {
	c := p.board[from]
	switch {
	case c == 0:
		return 0, RuleNoPiece
	case sideOf(c) != p.side:
		return 0, RuleOpponentPiece
	case c != piece:
		return 0, RuleWrongPiece
	}
	if !p.reaches(from, to, c) {
		if p.reachesThrough(from, to, c) {
			return 0, RulePathBlocked
		}
		return 0, RuleNotDestination
	}
	tc := p.board[to]
	if tc != 0 && sideOf(tc) == p.side {
		return 0, RuleOwnPiece
	}
	m := encode(from, to, c, tc, 0)
	k := kindOf(c)
	switch {
	case k == king:
		if tc != 0 && promoted(tc) {
			m |= mChoice
			if suffix == '+' {
				m |= mKeep
			}
		} else if suffix == '+' {
			return 0, RulePromotionDenied
		}
	case promoted(c) || !(inZone(p.side, from) || inZone(p.side, to)):
		if suffix == '+' {
			return 0, RulePromotionDenied
		}
	case deadEnd(p.side, k, to):
		if suffix != '+' {
			return 0, RuleCompulsory
		}
		m |= mPromote
	default:
		m |= mChoice
		if suffix == '+' {
			m |= mPromote
		}
	}
	if p.repeats(m) {
		return 0, RuleRepetition
	}
	return m, ""
}

// reaches reports whether piece c on from can move to to (path free).
func (p *Position) reaches(from, to int, c uint8) bool {
	if stepMask[c&31][from]&(1<<to) != 0 {
		return true
	}
	if !p.reachesThrough(from, to, c) {
		return false
	}
	// The squares between are the ray's from from less those from to on.
	d := dirTo[from][to]
	between := rayMask[d][from] &^ rayMask[d][to] &^ (1 << to)
	return between&(p.occ[0]|p.occ[1]) == 0
}

// reachesThrough reports whether to lies on one of c's sliding lines from
// from, ignoring the pieces in between.
func (p *Position) reachesThrough(from, to int, c uint8) bool {
	d := dirTo[from][to]
	return d != noDir && slideMask[c&31]&(1<<d) != 0
}

func (p *Position) checkDrop(pm parsed) (rules.Move, string) {
	c := pm.piece
	k := kindOf(c)
	prom := promoted(c)
	switch {
	case k == pawn && !prom:
		return 0, RulePawnDrop
	case k == king || p.hand[p.side][c&15] == 0:
		return 0, RuleNotInHand
	case p.board[pm.to] != 0:
		return 0, RuleDropOccupied
	case !prom && k == lance && deadEnd(p.side, k, pm.to):
		return 0, RuleLanceDropRank
	case !prom && k == knight && deadEnd(p.side, k, pm.to):
		return 0, RuleKnightDropRank
	case pm.suffix == '+':
		return 0, RulePromotionDenied
	}
	m := encode(0, pm.to, c, 0, mDrop)
	if p.repeats(m) {
		return 0, RuleRepetition
	}
	return m, ""
}

// FormatMove writes the canonical long form: origin always, 'x' for a
// capture and '-' otherwise, '+' for a promotion (or the King keeping a
// promoted piece) and '=' for a promotion declined where it was possible.
func (p *Position) FormatMove(m rules.Move) string {
	var b [12]byte
	return string(p.AppendMove(b[:0], m))
}

// AppendMove appends FormatMove's text of m to dst (rules.MoveAppender).
func (p *Position) AppendMove(dst []byte, m rules.Move) []byte {
	out := dst
	pc := mPiece(m)
	if promoted(pc) {
		out = append(out, '+')
	}
	out = append(out, pieceLetters[kindOf(pc)])
	to := mTo(m)
	if m&mDrop != 0 {
		out = append(out, '*', byte('a'+to&7), byte('1'+to>>3))
		return out
	}
	from := mFrom(m)
	out = append(out, byte('a'+from&7), byte('1'+from>>3))
	if mCapture(m) != 0 {
		out = append(out, 'x')
	} else {
		out = append(out, '-')
	}
	out = append(out, byte('a'+to&7), byte('1'+to>>3))
	switch {
	case m&(mPromote|mKeep) != 0:
		out = append(out, '+')
	case m&mChoice != 0 && kindOf(pc) != king:
		out = append(out, '=')
	}
	return out
}

// Describe tells what m does.
func (p *Position) Describe(m rules.Move) rules.MoveInfo {
	info := rules.MoveInfo{To: sqName(mTo(m)), Promotes: m&mPromote != 0, Drop: m&mDrop != 0}
	if !info.Drop {
		info.From = sqName(mFrom(m))
	}
	if mCapture(m) != 0 {
		info.Captures = 1
	}
	return info
}
