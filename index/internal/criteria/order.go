package criteria

import (
	"database/sql"
	"fmt"
	"strconv"
	"strings"
)

// Cursor is a place in a list: a game's id and its value of the sort
// column (Null when it has none).
type Cursor struct {
	ID    int64
	Value string
	Null  bool
}

// String writes the cursor as a token for a URL: the id, then the value
// ("7", "7:n" for no value, "7:vMori, Daichi").
func (c Cursor) String() string {
	switch {
	case c.Null:
		return strconv.FormatInt(c.ID, 10) + ":n"
	case c.Value == "":
		return strconv.FormatInt(c.ID, 10)
	}
	return strconv.FormatInt(c.ID, 10) + ":v" + c.Value
}

// ParseCursor reads a cursor written by String; an error wraps ErrQuery.
func ParseCursor(s string) (Cursor, error) {
	idText, rest, _ := strings.Cut(s, ":")
	id, err := strconv.ParseInt(idText, 10, 64)
	if err != nil {
		return Cursor{}, fmt.Errorf("%w: bad list cursor %q", ErrQuery, s)
	}
	c := Cursor{ID: id}
	switch {
	case rest == "n":
		c.Null = true
	case strings.HasPrefix(rest, "v"):
		c.Value = rest[1:]
	case rest != "":
		return Cursor{}, fmt.Errorf("%w: bad list cursor %q", ErrQuery, s)
	}
	return c, nil
}

// listColumns maps a list's sort names to SQL over games g and the players
// a (side 0) and b (side 1).
var listColumns = map[string]string{
	"id": "g.id", "game": "g.game", "white": "a.name", "black": "b.name", "result": "g.result",
	"event": "g.event", "site": "g.site", "date": "g.date", "plies": "g.plies",
	"opening": OpeningColumn,
}

// SortColumn is the column of a sort name: "id" (the default, for ""),
// "game", "white" (side 0's player), "black" (side 1's player), "result",
// "event", "site", "date", "plies", "opening" (see Order). An unknown name
// is an error wrapping ErrQuery.
func SortColumn(sort string) (string, error) {
	if sort == "" {
		return "g.id", nil
	}
	c, ok := listColumns[sort]
	if !ok {
		return "", fmt.Errorf("%w: cannot sort by %q", ErrQuery, sort)
	}
	return c, nil
}

// JoinsPlayers reports whether col is a player's name, read from the
// players a and b joined to the games.
func JoinsPlayers(col string) bool {
	return strings.HasPrefix(col, "a.") || strings.HasPrefix(col, "b.")
}

// SortValue is the expression a list selects beside each game for its
// cursor: col, or NULL when the list is in id order (the id is the
// cursor).
func SortValue(col string) string {
	if col == "g.id" {
		return "NULL"
	}
	return col
}

// CursorOf is the cursor of the game id whose SortValue(col) is v.
func CursorOf(col string, id int64, v sql.NullString) Cursor {
	c := Cursor{ID: id}
	if col != "g.id" {
		c.Value, c.Null = v.String, !v.Valid
	}
	return c
}

// OrderBy is the ORDER BY of col, ascending or descending, ties in the
// same direction of id.
func OrderBy(col string, desc bool) string {
	dir := ""
	if desc {
		dir = " DESC"
	}
	if col == "g.id" {
		return "g.id" + dir
	}
	return col + dir + ", g.id" + dir
}

// Seek is the condition of the games after cursor c in the order of
// col (then id), ascending or descending. SQLite puts NULL first in an
// ascending order, last in a descending one.
func Seek(col string, desc bool, c Cursor) (string, []any) {
	if col == "g.id" {
		if desc {
			return "g.id < ?", []any{c.ID}
		}
		return "g.id > ?", []any{c.ID}
	}
	var v any = c.Value
	if col == "g.plies" {
		n, _ := strconv.Atoi(c.Value)
		v = n
	}
	switch {
	case c.Null && !desc:
		return "((" + col + " IS NULL AND g.id > ?) OR " + col + " IS NOT NULL)", []any{c.ID}
	case c.Null && desc:
		return "(" + col + " IS NULL AND g.id < ?)", []any{c.ID}
	case !desc:
		return "(" + col + " > ? OR (" + col + " = ? AND g.id > ?))", []any{v, v, c.ID}
	}
	return "(" + col + " < ? OR (" + col + " = ? AND g.id < ?) OR " + col + " IS NULL)", []any{v, v, c.ID}
}
