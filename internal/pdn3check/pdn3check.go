// Package pdn3check recognises the PDN 3.0 grammar of the PDN standard
// (../shared/corpus/pdn-spec/grammar.rst, section "PDN 3.0 Grammar"), for
// tests of what Plateau writes. It is written from that grammar, not from
// package record's reader, so that the two check each other.
//
// Decisions:
//   - The parser is recursive descent without a separate lexer: at each
//     point it matches, anchored, the token regular expressions of
//     grammar.rst that the production allows there, longest match first.
//     Blanks and '%' line comments separate tokens (grammar.rst: "Besides
//     the usual white space characters ... line comments starting with %").
//   - STRING is read as a lexer reads "\"([^\"]|\\\")*\"": '\"' is an
//     escaped quote, the first other '"' closes it. (As a regular
//     expression it is ambiguous: a value ending in a backslash cannot be
//     closed, and that is what this reading reports.)
//   - A Move is one token, without blanks or a blank before its
//     MOVESTRENGTH (restrictions 1 and 2). The game-dependent productions
//     are grammar.rst's for the draughts family (Square MOVESEPARATOR Square
//     or Square (CAPTURESEPARATOR Square)+), with the capture separator
//     ':' where the GameType table names it (Russian, Spantsiretti:
//     restriction 7) and the squares of the game's board; the games that
//     are not draughts bring their own Move (MoveOf: Plateau's notations
//     of ../shared/DESIGN.md). The Game tag (or GameType) of each game
//     chooses its Move.
//   - Results in the movetext are not PDN 3.0: the game separator is '*'
//     (restriction 4); "2-0" is an error at its '0'.
package pdn3check

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
)

// ErrGrammar is matched (errors.Is) by every *Error.
var ErrGrammar = errors.New("not PDN 3.0")

// Error is where the text leaves the grammar and what was expected there.
type Error struct {
	Line, Col int    // 1-based; Col in bytes
	Want      string // the productions or tokens expected
	Found     string // the text found there (clipped)
}

func (e *Error) Error() string {
	return fmt.Sprintf("%d:%d: %v: want %s, found %q", e.Line, e.Col, ErrGrammar, e.Want, e.Found)
}

// Is reports ErrGrammar.
func (e *Error) Is(target error) bool { return target == ErrGrammar }

// Tokens of grammar.rst ("Tokens"), anchored; longest match.
var (
	reMoveNumber = tok(`[0-9]+\.(\.\.)?`)
	reStrength   = tok(`([!?]+)|(\([!?]+\))`)
	reNAG        = tok(`\$[0-9]+`)
	reSetup      = tok(`/[^/]*/`)
	reComment    = tok(`\{[^}]*\}`)
	reIdentifier = tok(`[A-Z][a-zA-Z0-9_]*`)
)

func tok(expr string) *regexp.Regexp {
	re := regexp.MustCompile(`^(` + expr + `)`)
	re.Longest()
	return re
}

// square is grammar.rst's Square: ALPHASQUARE | NUMSQUARE.
const square = `[a-h][1-8]|[1-9][0-9]?`

// draughtsMove is grammar.rst's Move with the capture separator sep (a
// character class) and squares sq.
func draughtsMove(sq, sep string) *regexp.Regexp {
	return tok(`(` + sq + `)-(` + sq + `)|(` + sq + `)(` + sep + `(` + sq + `))+`)
}

// moves are the Move productions by Game tag; "" is the grammar's own.
var moves = map[string]*regexp.Regexp{
	"": draughtsMove(square, `x`),
	// Restriction 7 and the GameType table: ':' captures.
	"russian": draughtsMove(square, `[x:]`),
	// Spantsiretti (GameType 41, 10×8, A0): columns a–j.
	"spantsiretti": draughtsMove(`[a-j][1-8]`, `[x:]`),
	// Jeu de dames (DESIGN.md): a huff "H27" is a move token of its own.
	"dames": tok(`H[1-9][0-9]?|(` + square + `)-(` + square + `)|(` + square + `)(x(` + square + `))+`),
	// The games that are not draughts: their notations in DESIGN.md.
	"ogi":     tok(`\+?[A-Z]([a-h][1-8])?[-x*][a-h][1-8][+=]?`),
	"jetan":   tok(`[a-j](10|[1-9])[-x][a-j](10|[1-9])`),
	"dejarik": tok(`(c|[io](1[0-2]|[1-9]))-(c|[io](1[0-2]|[1-9]))`),
	"sauts":   tok(`[A-H][1-8](-[A-H][1-8])+`),
}

// MoveOf is the Move production used for a game whose Game tag is id.
func MoveOf(id string) *regexp.Regexp {
	if re, ok := moves[id]; ok {
		return re
	}
	return moves[""]
}

// Check reports whether text is a PdnFile of the PDN 3.0 grammar; the error
// is an *Error at the first place it is not.
func Check(text []byte) error {
	p := &parser{s: string(text), line: 1, col: 1}
	return p.file()
}

type parser struct {
	s         string
	i         int
	line, col int
	move      *regexp.Regexp // the current game's Move
}

func (p *parser) fail(want string) error {
	found := p.s[p.i:]
	if n := strings.IndexByte(found, '\n'); n >= 0 {
		found = found[:n]
	}
	if len(found) > 30 {
		found = found[:30]
	}
	return &Error{Line: p.line, Col: p.col, Want: want, Found: found}
}

func (p *parser) advance(n int) {
	for _, c := range []byte(p.s[p.i : p.i+n]) {
		if c == '\n' {
			p.line, p.col = p.line+1, 1
		} else {
			p.col++
		}
	}
	p.i += n
}

// blank skips white space and '%' line comments.
func (p *parser) blank() {
	for p.i < len(p.s) {
		switch c := p.s[p.i]; {
		case c == ' ' || c == '\t' || c == '\r' || c == '\n':
			p.advance(1)
		case c == '%':
			n := strings.IndexByte(p.s[p.i:], '\n')
			if n < 0 {
				n = len(p.s) - p.i
			}
			p.advance(n)
		default:
			return
		}
	}
}

// match consumes a token of re at the current place (after blanks).
func (p *parser) match(re *regexp.Regexp) (string, bool) {
	p.blank()
	m := re.FindString(p.s[p.i:])
	if m == "" {
		return "", false
	}
	p.advance(len(m))
	return m, true
}

// lit consumes the one-byte token c.
func (p *parser) lit(c byte) bool {
	p.blank()
	if p.i < len(p.s) && p.s[p.i] == c {
		p.advance(1)
		return true
	}
	return false
}

func (p *parser) peek() byte {
	p.blank()
	if p.i < len(p.s) {
		return p.s[p.i]
	}
	return 0
}

// file: PdnFile : Game (GameSeparator Game)* GameSeparator?
func (p *parser) file() error {
	for {
		if err := p.game(); err != nil {
			return err
		}
		if p.peek() == 0 {
			return nil
		}
		if !p.lit('*') {
			return p.fail("GameSeparator '*'")
		}
		if p.peek() == 0 {
			return nil
		}
	}
}

// game: Game : (GameHeader GameBody?) | GameBody
func (p *parser) game() error {
	p.move = moves[""]
	if p.peek() == '[' {
		for p.peek() == '[' {
			if err := p.tag(); err != nil {
				return err
			}
		}
		if !p.bodyStarts() {
			return nil
		}
	}
	return p.body()
}

// tag: PdnTag : LBRACKET IDENTIFIER STRING RBRACKET
func (p *parser) tag() error {
	p.lit('[')
	name, ok := p.match(reIdentifier)
	if !ok {
		return p.fail("IDENTIFIER")
	}
	value, ok := p.str()
	if !ok {
		return p.fail("STRING")
	}
	if !p.lit(']') {
		return p.fail("RBRACKET")
	}
	switch {
	case name == "Game":
		p.move = MoveOf(value)
	case name == "GameType" && strings.HasPrefix(value, "25"):
		p.move = moves["russian"]
	case name == "GameType" && strings.HasPrefix(value, "41"):
		p.move = moves["spantsiretti"]
	}
	return nil
}

// str reads a STRING and returns its text between the quotes (escapes
// kept).
func (p *parser) str() (string, bool) {
	p.blank()
	if p.i >= len(p.s) || p.s[p.i] != '"' {
		return "", false
	}
	for j := p.i + 1; j < len(p.s); j++ {
		switch {
		case p.s[j] == '\\' && j+1 < len(p.s) && p.s[j+1] == '"':
			j++
		case p.s[j] == '"':
			v := p.s[p.i+1 : j]
			p.advance(j + 1 - p.i)
			return v, true
		}
	}
	return "", false
}

// bodyStarts reports whether a GameBody item starts here.
func (p *parser) bodyStarts() bool {
	switch c := p.peek(); c {
	case '(', '{', '/', '$':
		return true
	case 0, '*', '[', ')':
		return false
	}
	rest := p.s[p.i:]
	return reMoveNumber.MatchString(rest) || p.move.MatchString(rest)
}

// body: GameBody : (GameMove | Variation | COMMENT | SETUP | NAG)+
func (p *parser) body() error {
	n := 0
	for p.bodyStarts() {
		var err error
		switch p.peek() {
		case '(':
			err = p.variation()
		case '{':
			if _, ok := p.match(reComment); !ok {
				err = p.fail("COMMENT")
			}
		case '/':
			if _, ok := p.match(reSetup); !ok {
				err = p.fail("SETUP")
			}
		case '$':
			if _, ok := p.match(reNAG); !ok {
				err = p.fail("NAG")
			}
		default:
			err = p.gameMove()
		}
		if err != nil {
			return err
		}
		n++
	}
	if n == 0 {
		return p.fail("GameBody (GameMove, Variation, COMMENT, SETUP or NAG)")
	}
	return nil
}

// gameMove: GameMove : MOVENUMBER? Move MOVESTRENGTH?
func (p *parser) gameMove() error {
	p.match(reMoveNumber)
	if _, ok := p.match(p.move); !ok {
		return p.fail("Move")
	}
	// No blank before a MOVESTRENGTH (restriction 2).
	if m := reStrength.FindString(p.s[p.i:]); m != "" {
		p.advance(len(m))
	}
	return nil
}

// variation: Variation : LPAREN GameBody RPAREN
func (p *parser) variation() error {
	p.lit('(')
	if err := p.body(); err != nil {
		return err
	}
	if !p.lit(')') {
		return p.fail("RPAREN")
	}
	return nil
}
