package record

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
)

func (g *Game) warn(p Pos, rule, msg string) {
	g.Warnings = append(g.Warnings, Warning{Pos: p, Rule: rule, Msg: msg})
}
