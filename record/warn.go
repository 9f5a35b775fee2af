package record

import "fmt"

// Warning is a departure from the PDN grammar that the Reader read past
// instead of refusing the record: Msg says what was found and how it was
// read, Rule names the grammar rule it breaks (the productions of PDN 3.0's
// reading grammar, grammar.rst). A record with warnings reads as a game;
// replay reports them with the game's other warnings.
type Warning struct {
	Pos  Pos
	Rule string
	Msg  string
}

// String writes file:line:col, the message and the rule.
func (w Warning) String() string {
	return w.Pos.String() + ": " + w.Msg + " (PDN grammar: " + w.Rule + ")"
}

// The rules that warnings name.
const (
	ruleSeparator = "GameSeparator, a result or '*', ends every game but the last"
	ruleMoveNum   = "GameMove is MOVENUMBER? Move: a move number stands before a move"
	ruleDots      = "no token is '.' alone (MOVENUMBER is digits and '.' or '...', ELLIPSES '...')"
	ruleUnknown   = "Move is NormalMove, CaptureMove or ELLIPSES: '-' alone is no move"
	ruleResult    = "Result is 1-0, 0-1, 1/2-1/2, 2-0, 1-1, 0-2, 0-0 or '*'"
	ruleVariation = "Variation is '(' GameBody ')' and a GameBody holds moves; a COMMENT is '{…}'"
	ruleUTF8      = "the text is UTF-8; a line without any UTF-8 character is read as Windows-1252"
	ruleQuote     = "TagPair is '[' NAME STRING ']', and a '\"' inside a STRING is written \\\""
)

func (g *Game) warn(p Pos, rule, msg string) {
	g.Warnings = append(g.Warnings, Warning{Pos: p, Rule: rule, Msg: msg})
}

// InvalidUTF8 is the warning of a record's text that was UTF-8 but for
// bytes bytes replaced by U+FFFD (Decode), in n places (what: "lines",
// "values") from p on.
func InvalidUTF8(p Pos, bytes, n int, what string) Warning {
	msg := fmt.Sprintf("invalid UTF-8: %d bytes replaced by U+FFFD", bytes)
	if bytes == 1 {
		msg = "invalid UTF-8: 1 byte replaced by U+FFFD"
	}
	if n > 1 {
		msg += fmt.Sprintf(" in %d %s, the first here", n, what)
	}
	return Warning{Pos: p, Rule: ruleUTF8, Msg: msg + " (the rest of the text is UTF-8)"}
}
