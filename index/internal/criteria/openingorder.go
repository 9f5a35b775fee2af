package criteria

import (
	"strconv"
	"strings"
)

// OpeningColumn is the sort column of the list by opening ("opening"):
// the game's opening, read from the openings op joined to the games by
// OpeningJoin, as its cursor value: "<opening id>:<name>" (OpeningOf).
const OpeningColumn = "(op.id || ':' || op.name)"

// OpeningJoin joins each game g to its opening op (NULL columns for a game
// without one).
const OpeningJoin = ` LEFT JOIN game_openings gop ON gop.game = g.id LEFT JOIN openings op ON op.id = gop.opening`

// JoinsOpenings reports whether col is read from the openings joined by
// OpeningJoin.
func JoinsOpenings(col string) bool { return col == OpeningColumn }

// OpeningOf reads the opening of a cursor of the list by opening: its
// id and name (0 and "" when the value is not one).
func OpeningOf(c Cursor) (id int64, name string) {
	idText, name, _ := strings.Cut(c.Value, ":")
	id, _ = strconv.ParseInt(idText, 10, 64)
	return id, name
}

// Order is a list's order: its column (SortColumn), its direction, and
// whether a page is read backwards from its cursor (the page before one:
// the exact reverse of the order, turned round by the caller).
//
// Decision: by opening, the games with an opening come first in both
// directions, by their names folded (case and accents aside, Folded),
// then as written, then by the opening's id (two positions may have one
// name), then by game id; the games without one come last, by id (in the
// list's direction). A list sorted by opening is read for its openings:
// the unnamed games, often most of them, would otherwise fill its first
// pages when it is reversed. The opening's id in the order lets a list be
// read opening by opening (OpeningSegments). The other columns keep
// SQLite's order, NULL first ascending and last descending.
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
	return orderTerms(o.keys())
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
	vals := []string{"?", "''", "?", "?", "?"}
	args := [][]any{{1}, nil, {""}, {0}, {c.ID}}
	if !c.Null {
		id, name := OpeningOf(c)
		vals[1] = "plateau_fold(?)"
		args[0], args[1], args[2], args[3] = []any{0}, []any{name}, []any{name}, []any{id}
	}
	return after(keys, desc, vals, args)
}

// keys are the terms of the order by opening and whether each is read
// descending: named games first, then the folded name, the name, the
// opening's id and the game's id in the list's direction; reading
// backwards reverses each.
func (o Order) keys() ([]string, []bool) {
	d := o.Desc != o.Back
	return []string{"(op.id IS NULL)", "COALESCE(" + o.Folded + ", '')", "COALESCE(op.name, '')", "COALESCE(op.id, 0)", "g.id"},
		[]bool{o.Back, d, d, d, d}
}

// orderTerms is the ORDER BY of keys, each descending where desc says.
func orderTerms(keys []string, desc []bool) string {
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k
		if desc[i] {
			parts[i] += " DESC"
		}
	}
	return strings.Join(parts, ", ")
}

// after is the condition of the rows after the values vals (SQL, with
// args each) in the order of keys: lexicographic, k0 after v0, or k0 = v0
// and the rest after theirs.
func after(keys []string, desc []bool, vals []string, args [][]any) (string, []any) {
	var cond string
	var out []any
	for i := len(keys) - 1; i >= 0; i-- {
		op := " > "
		if desc[i] {
			op = " < "
		}
		a := append([]any(nil), args[i]...)
		if cond == "" {
			cond, out = keys[i]+op+vals[i], a
			continue
		}
		eq := append(append([]any(nil), args[i]...), out...)
		cond = "(" + keys[i] + op + vals[i] + " OR (" + keys[i] + " = " + vals[i] + " AND " + cond + "))"
		out = append(a, eq...)
	}
	return cond, out
}

// NamedFrom is the FROM of a segment of named games: opening by opening
// (in the order of an index on openings(folded, name)), each opening's
// games by id (game_openings_opening), the game and its players looked up.
// CROSS JOIN keeps SQLite to that order of the loops: it would rather
// scan the games and sort them all.
const NamedFrom = `openings op CROSS JOIN game_openings gop ON gop.opening = op.id CROSS JOIN games g ON g.id = gop.game
	LEFT JOIN players a ON a.id = g.p0 LEFT JOIN players b ON b.id = g.p1`

// UnnamedFrom is the FROM of the segment of games without an opening;
// Unnamed is its condition.
const (
	UnnamedFrom = `games g LEFT JOIN players a ON a.id = g.p0 LEFT JOIN players b ON b.id = g.p1`
	Unnamed     = `NOT EXISTS (SELECT 1 FROM game_openings x WHERE x.game = g.id)`
)

// A Segment is one query of a list by opening read in segments: the
// games of NamedFrom (Named) or UnnamedFrom that Cond selects, in the
// order By.
type Segment struct {
	Named bool
	Cond  string
	Args  []any
	By    string
}

// Segments are the queries whose games, one after the other, are the
// list by opening after cursor c (nil: from its start), read in the
// order's direction (backwards when Back): the rest of the cursor's
// opening, the openings after it, the games without one. Each is read
// along indexes, without sorting the list: a page costs its games.
// The order's Folded must be the stored column (op.folded, indexed).
func (o Order) Segments(c *Cursor) []Segment {
	d := o.Desc != o.Back
	dir, cmp := "", " > "
	if d {
		dir, cmp = " DESC", " < "
	}
	named := Segment{Named: true, Cond: "1", By: "op.folded" + dir + ", op.name" + dir + ", op.id" + dir + ", gop.game" + dir}
	unnamed := Segment{Cond: Unnamed, By: "g.id" + dir}
	switch {
	case c == nil && o.Back:
		return []Segment{unnamed, named}
	case c == nil:
		return []Segment{named, unnamed}
	case c.Null:
		unnamed.Cond, unnamed.Args = Unnamed+" AND g.id"+cmp+"?", []any{c.ID}
		if o.Back {
			return []Segment{unnamed, named}
		}
		return []Segment{unnamed}
	}
	id, name := OpeningOf(*c)
	same := named
	same.Cond, same.Args = "op.id = ? AND gop.game"+cmp+"?", []any{id, c.ID}
	rest := named
	rest.Cond, rest.Args = after([]string{"op.folded", "op.name", "op.id"}, []bool{d, d, d},
		[]string{"plateau_fold(?)", "?", "?"}, [][]any{{name}, {name}, {id}})
	if o.Back {
		return []Segment{same, rest}
	}
	return []Segment{same, rest, unnamed}
}
