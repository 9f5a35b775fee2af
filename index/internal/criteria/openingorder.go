package criteria

import "strings"

// OpeningColumn is the sort column of the list by opening ("opening"):
// the name of the game's opening, read from the openings op joined to
// the games by OpeningJoin.
const OpeningColumn = "op.name"

// OpeningJoin joins each game g to its opening op (NULL columns for a game
// without one).
const OpeningJoin = ` LEFT JOIN game_openings gop ON gop.game = g.id LEFT JOIN openings op ON op.id = gop.opening`

// JoinsOpenings reports whether col is read from the openings joined by
// OpeningJoin.
func JoinsOpenings(col string) bool { return col == OpeningColumn }

// Order is a list's order: its column (SortColumn), its direction, and
// whether a page is read backwards from its cursor (the page before one:
// the exact reverse of the order, turned round by the caller).
//
// Decision: by opening, the games with an opening come first in both
// directions, by their names folded (case and accents aside, Folded),
// then as written, then by id; the games without one come last, by id
// (in the list's direction). A list sorted by opening is read for its
// openings: the unnamed games, often most of them, would otherwise fill
// its first pages when it is reversed. The other columns keep SQLite's
// order, NULL first ascending and last descending.
type Order struct {
	Col        string
	Desc, Back bool
	// Folded is the SQL of the folded name of a game's opening op:
	// op.folded, or plateau_fold(op.name) on a layout without that
	// column.
	Folded string
}

// Join is what the list joins to the games for the order's column
// (after the players): OpeningJoin by opening, "" otherwise.
func (o Order) Join() string {
	if JoinsOpenings(o.Col) {
		return OpeningJoin
	}
	return ""
}

// By is the order's ORDER BY.
func (o Order) By() string {
	if !JoinsOpenings(o.Col) {
		return OrderBy(o.Col, o.Desc != o.Back)
	}
	keys, desc := o.keys()
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k
		if desc[i] {
			parts[i] += " DESC"
		}
	}
	return strings.Join(parts, ", ")
}

// Seek is the condition of the games after cursor c in the order (before
// it when the order reads backwards).
func (o Order) Seek(c Cursor) (string, []any) {
	if !JoinsOpenings(o.Col) {
		return Seek(o.Col, o.Desc != o.Back, c)
	}
	keys, desc := o.keys()
	// The cursor's values of the keys; the folded name is folded by the
	// SQL function that folded the stored ones.
	vals := []string{"?", "''", "?", "?"}
	args := [][]any{{1}, nil, {""}, {c.ID}}
	if !c.Null {
		vals[1] = "plateau_fold(?)"
		args[0], args[1], args[2] = []any{0}, []any{c.Value}, []any{c.Value}
	}
	// Lexicographic: k0 after v0, or k0 = v0 and the rest after theirs.
	var cond string
	var out []any
	for i := len(keys) - 1; i >= 0; i-- {
		op := " > "
		if desc[i] {
			op = " < "
		}
		after := keys[i] + op + vals[i]
		a := append([]any(nil), args[i]...)
		if cond == "" {
			cond, out = after, a
			continue
		}
		eq := append(append([]any(nil), args[i]...), out...)
		cond = "(" + after + " OR (" + keys[i] + " = " + vals[i] + " AND " + cond + "))"
		out = append(a, eq...)
	}
	return cond, out
}

// keys are the terms of the order by opening and whether each is read
// descending: named games first, then the folded name, the name and the
// id in the list's direction; reading backwards reverses each.
func (o Order) keys() ([]string, []bool) {
	keys := []string{"(op.id IS NULL)", "COALESCE(" + o.Folded + ", '')", "COALESCE(op.name, '')", "g.id"}
	desc := []bool{o.Back, o.Desc != o.Back, o.Desc != o.Back, o.Desc != o.Back}
	return keys, desc
}
