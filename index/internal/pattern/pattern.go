// Package pattern is the pattern language of position search, its
// matcher and its scan of the stored games: a Pattern is a set of terms on
// one position (pieces on squares, empty squares, pieces in hand, material
// counts), resolved for a ruleset (Compile), checked against the boards
// of the game's stored games (Layouts, Check), tested on every position of
// a stored game by a Worker, and on the games a condition selects by a
// Scanner.
//
// Decisions:
//
//   - A game is tested from its compact move list (internal/movelist),
//     decoding and playing in one pass, never from its record text; a game
//     whose stored moves do not replay to its stored final key (a rules
//     package whose move encoding changed), or make the rules panic, is
//     Stale and matched from its record (MatchRecord), so answers stay
//     correct.
//   - A match is reported at the first matching position in play order
//     (variations before the move they replace).
//   - A position that implements rules.Cells (every game's does) is tested
//     through its cells: the pattern is compiled once per rules.Layout into
//     square indexes and tables of accepted codes, its cheapest terms
//     first, so that a position costs a copy of its cells and a few
//     look-ups, without allocation; other positions are tested on Board.
//   - Positions whose history grows with every move (rules.Reserver) are
//     copied with room for the stored moves of their line.
//   - A pattern naming a piece or square the ruleset has not is an error
//     (Check): a search for it would find nothing, silently.
//   - A scan reads the games' rows (id, start, final key, moves only) in
//     id order in batches of consecutive games, which one worker per CPU
//     tests whole (internal/pipeline, an ordered fan-out); its caller
//     receives the matches in id order on its own goroutine, where stale
//     games are matched from their records, and stops the scan once it
//     has enough (a page, unless a count is asked). Batches are recycled,
//     their move lists slices of one arena.
//
// Errors about a pattern (syntax, sides, pieces, squares) are *Error.
// The measurements behind these decisions are in docs/storage.md.
package pattern

import (
	"fmt"
	"strconv"
	"strings"
)

// Error is a pattern that cannot be used: Msg says why, naming the term.
type Error struct{ Msg string }

func (e *Error) Error() string { return e.Msg }

func errorf(format string, args ...any) error { return &Error{Msg: fmt.Sprintf(format, args...)} }

// Pattern is a set of conditions on one position; every term must hold.
//
// Syntax: terms separated by spaces.
//
//	[SIDE:][+|-]K@SQ,SQ,…     a piece on one of the squares
//	empty@SQ,SQ,…             every one of the squares is empty
//	[SIDE:][+|-]K@hand[OP N]  pieces in hand (default: at least one)
//	[SIDE:][+|-]K OP N        pieces on the board (material count)
//
// SIDE is a side name of the game (Sente, White, …, any unambiguous
// prefix, case-insensitive) or 0/1; without it either side matches. + asks
// for a promoted piece, - for an unpromoted one. K is a piece letter of the
// game's notation (upper case) or * for any piece. OP is one of = == != < <=
// > >=. Example (Ōgi): "Sente:R@e1,e2,e3 empty@e4 Gote:P@hand>=2 Gote:*<=10".
type Pattern struct {
	Text  string
	Terms []Term
}

// TermKind is what a pattern term tests.
type TermKind int

// Pattern term kinds.
const (
	OnSquares TermKind = iota // a matching piece on one of Squares
	Empty                     // every one of Squares empty
	InHand                    // count of matching pieces in hand
	OnBoard                   // count of matching pieces on the board
)

// Term is one condition of a Pattern.
type Term struct {
	Kind    TermKind
	Side    string // "" for either side; else a side name, prefix, "0" or "1"
	Piece   byte   // 0 for any piece
	Promo   int    // -1 any, 0 unpromoted, 1 promoted
	Squares []string
	Op      string
	N       int
}

// Parse reads a pattern; its errors are *Error.
func Parse(text string) (*Pattern, error) {
	p := &Pattern{Text: text}
	for _, f := range strings.Fields(text) {
		t, err := parseTerm(f)
		if err != nil {
			return nil, errorf("pattern term %q: %v", f, err)
		}
		p.Terms = append(p.Terms, t)
	}
	if len(p.Terms) == 0 {
		return nil, errorf("empty pattern")
	}
	return p, nil
}

var ops = []string{"==", "!=", "<=", ">=", "=", "<", ">"}

func parseTerm(f string) (Term, error) {
	t := Term{Promo: -1}
	// (Compared without case on the bytes: lower-casing the whole term
	// could change its length.)
	if len(f) >= len("empty@") && strings.EqualFold(f[:len("empty@")], "empty@") {
		t.Kind = Empty
		t.Squares = splitSquares(f[len("empty@"):])
		if len(t.Squares) == 0 {
			return t, fmt.Errorf("no squares")
		}
		return t, nil
	}
	if side, rest, ok := strings.Cut(f, ":"); ok {
		t.Side, f = side, rest
	}
	switch {
	case strings.HasPrefix(f, "+"):
		t.Promo, f = 1, f[1:]
	case strings.HasPrefix(f, "-"):
		t.Promo, f = 0, f[1:]
	}
	if f == "" {
		return t, fmt.Errorf("no piece")
	}
	if f[0] != '*' {
		t.Piece = strings.ToUpper(f[:1])[0]
	}
	f = f[1:]
	if rest, ok := strings.CutPrefix(f, "@"); ok {
		if h, ok := strings.CutPrefix(strings.ToLower(rest), "hand"); ok {
			t.Kind, t.Op, t.N = InHand, ">=", 1
			if h != "" {
				op, n, err := parseCount(h)
				if err != nil {
					return t, err
				}
				t.Op, t.N = op, n
			}
			return t, nil
		}
		t.Kind = OnSquares
		t.Squares = splitSquares(rest)
		if len(t.Squares) == 0 {
			return t, fmt.Errorf("no squares")
		}
		return t, nil
	}
	op, n, err := parseCount(f)
	if err != nil {
		return t, err
	}
	t.Kind, t.Op, t.N = OnBoard, op, n
	return t, nil
}

func splitSquares(s string) []string {
	var out []string
	for _, q := range strings.Split(s, ",") {
		if q = strings.TrimSpace(q); q != "" {
			out = append(out, q)
		}
	}
	return out
}

func parseCount(s string) (string, int, error) {
	for _, op := range ops {
		if rest, ok := strings.CutPrefix(s, op); ok {
			n, err := strconv.Atoi(rest)
			if err != nil || n < 0 {
				return "", 0, fmt.Errorf("bad count %q", rest)
			}
			if op == "==" {
				op = "="
			}
			return op, n, nil
		}
	}
	return "", 0, fmt.Errorf("expected @squares, @hand or a count such as >=2 after the piece, not %q", s)
}
