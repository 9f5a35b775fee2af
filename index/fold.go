package index

import (
	"database/sql"
	"strings"
	"unicode"

	sqlite3 "github.com/mattn/go-sqlite3"
	"golang.org/x/text/runes"
	"golang.org/x/text/transform"
	"golang.org/x/text/unicode/norm"
)

// Event, site and termination criteria match as players do: without regard
// to case or accents ("osaka" finds "Ōsaka"), as substrings of the folded
// text (see fold). SQLite's LIKE folds ASCII letters only, so the database
// is opened through a driver that gives every connection the function
// plateau_fold.
const driverName = "sqlite3_plateau"

func init() {
	sql.Register(driverName, &sqlite3.SQLiteDriver{
		ConnectHook: func(c *sqlite3.SQLiteConn) error {
			if err := c.RegisterFunc("plateau_pack_moves", packMoves, true); err != nil { // moves_upgrade.go
				return err
			}
			return c.RegisterFunc("plateau_fold", fold, true)
		},
	})
}

// fold is the player-name key: lower case, accents removed, spaces and
// punctuation collapsed to single spaces.
func fold(s string) string {
	t := transform.Chain(norm.NFD, runes.Remove(runes.In(unicode.Mn)), norm.NFC)
	r, _, err := transform.String(t, s)
	if err != nil {
		r = s
	}
	r = strings.ToLower(r)
	f := strings.FieldsFunc(r, func(c rune) bool { return !unicode.IsLetter(c) && !unicode.IsDigit(c) })
	return strings.Join(f, " ")
}
