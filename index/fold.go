package index

import (
	"database/sql"
	"strings"

	sqlite3 "github.com/mattn/go-sqlite3"
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
			return c.RegisterFunc("plateau_fold", fold, true)
		},
	})
}

// foldContains adds the condition that the folded column contains the
// folded text.
func (w *where) foldContains(col, text string) {
	w.add("instr(plateau_fold("+col+"), ?) > 0", strings.TrimSpace(fold(text)))
}
