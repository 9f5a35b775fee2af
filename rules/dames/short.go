package dames

import (
	"errors"
	"slices"
	"strings"

	"github.com/plateau/plateau/rules"
)

// Short notation, as Russian draughts literature writes moves: the file of
// the origin, then the destination square ("ed4": the piece on the e file
// that can go to d4). A capture may be marked ("e:d4", "exd4") and may
// name landing squares before its destination ("e:c5:a3"), which then
// select among the sequences as in the long form. It is read in every
// algebraic ruleset; moves are still written in the long form ("e3-d4").
//
// A short move means every legal move of a piece on that file to that
// square (through those landings): one is the move, several are an
// Ambiguous error listing them in canonical form (replay settles it by the
// moves that follow, Candidates gives them all), none is the error the
// long form of the one piece on that file gives, or "no such move".

// shortForm is a move text in short notation, read into squares.
type shortForm struct {
	file    int
	sq      [maxPath]int8 // the landings named, the destination last
	n       int
	capture bool // written with x or :
}

// isShort reports whether text is a short move: a file letter of the board
// not followed by a rank digit, in an algebraic ruleset.
func (p *Position) isShort(text string) bool {
	t := strings.TrimSpace(text)
	return p.g.f.algebraic && len(t) >= 3 && t[0] >= 'a' && int(t[0]-'a') < p.geo.w && (t[1] < '0' || t[1] > '9')
}

// scanShort reads a short move: a file, then squares each after an optional
// separator (-, x or :, one kind in a move).
func (p *Position) scanShort(text string, out *shortForm) error {
	t := strings.TrimSpace(text)
	out.file = int(t[0] - 'a')
	sepKind := byte(0)
	for i := 1; i < len(t); {
		if sep := t[i]; sep == '-' || sep == 'x' || sep == 'X' || sep == ':' {
			if sep != '-' {
				sep = 'x'
				out.capture = true
			}
			if sepKind != 0 && sep != sepKind {
				return syntaxErr(text, "mixes - and x")
			}
			sepKind = sep
			i++
		}
		if !p.algAt(t, i) {
			return syntaxErr(text, "a short move is a file and a square (ed4, e:d4)")
		}
		sq := p.geo.algSquare(t[i], int(t[i+1]-'0'))
		if sq < 0 {
			return syntaxErr(text, t[i:i+2]+" is not a square of the "+p.geo.size()+" board")
		}
		if out.n == maxPath {
			return syntaxErr(text, "too many squares")
		}
		out.sq[out.n] = int8(sq)
		out.n++
		i += 2
	}
	if out.n > 1 && !out.capture {
		return syntaxErr(text, "a step names one square; captures use : or x")
	}
	return nil
}

// parseShort reads a move in short notation (see shortForm).
func (p *Position) parseShort(text string) (rules.Move, error) {
	var sf shortForm
	if err := p.scanShort(text, &sf); err != nil {
		return 0, err
	}
	var buf [64]rules.Move
	legal := p.Legal(buf[:0])
	ms := p.shortMatches(&sf, legal, nil)
	switch len(ms) {
	case 1:
		return ms[0], nil
	case 0:
		return 0, p.shortError(text, &sf)
	}
	cands := make([]string, len(ms))
	for i, m := range ms {
		cands[i] = p.FormatMove(m)
	}
	slices.Sort(cands)
	return 0, &rules.MoveError{Text: text, Kind: rules.Ambiguous, Candidates: cands}
}

// shortMatches appends the legal moves a short form can mean: from the
// file, to the destination, through the landings it names in order.
func (p *Position) shortMatches(sf *shortForm, legal, dst []rules.Move) []rules.Move {
	to := int(sf.sq[sf.n-1])
	for _, m := range legal {
		from := p.mFrom(m)
		if int(p.geo.col[from]) != sf.file || p.mTo(m) != to {
			continue
		}
		if sf.n > 1 && !p.throughLandings(m, sf.sq[:sf.n-1]) {
			continue
		}
		dst = append(dst, m)
	}
	return dst
}

// throughLandings reports whether one capture path of m lands on the
// squares want, in order (others between them allowed).
func (p *Position) throughLandings(m rules.Move, want []int8) bool {
	for _, cp := range p.capturePaths(p.mFrom(m), false, false) {
		if cp.move == m && subsequence(want, cp.path[1:len(cp.path)-1]) {
			return true
		}
	}
	return false
}

// shortError says why no legal move fits a short form: the long form's
// error when one piece of the side to move stands on the file, else that
// none of them can make it.
func (p *Position) shortError(text string, sf *shortForm) error {
	var own []int
	for s := 0; s < p.geo.n; s++ {
		if c := p.cell[s]; c != empty && sideOf(c) == int(p.turn) && int(p.geo.col[s]) == sf.file {
			own = append(own, s)
		}
	}
	file := string(rune('a' + sf.file))
	dest := p.sqName(int(sf.sq[sf.n-1]))
	if len(own) == 1 {
		sep := "-"
		if sf.capture {
			sep = string(p.g.f.capSep)
		}
		long := p.sqName(own[0])
		for _, s := range sf.sq[:sf.n] {
			long += sep + p.sqName(int(s))
		}
		if _, err := p.ParseMove(long); err != nil {
			var me *rules.MoveError
			if errors.As(err, &me) {
				c := *me
				c.Text = text
				c.Detail = "read as " + long + ": " + c.Detail
				return &c
			}
			return err
		}
	}
	if len(own) == 0 {
		return illegal(text, "empty file", "no piece of the side to move on the "+file+" file")
	}
	return illegal(text, "no such move", "no piece on the "+file+" file can move to "+dest)
}
