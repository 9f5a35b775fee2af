package criteria

import (
	"database/sql"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	sqlite3 "github.com/mattn/go-sqlite3"
)

// TestCursorText: a cursor reads back from its text; a bad one is a query
// error.
func TestCursorText(t *testing.T) {
	for _, c := range []Cursor{{ID: 7}, {ID: 7, Null: true}, {ID: 12, Value: "Mori, Daichi"}, {ID: 3, Value: "a:b:n"}} {
		got, err := ParseCursor(c.String())
		if err != nil || got != c {
			t.Errorf("%+v: %q read as %+v, %v", c, c.String(), got, err)
		}
	}
	for _, s := range []string{"", "x", "7:x", "7:N", "x:n"} {
		if _, err := ParseCursor(s); !errors.Is(err, ErrQuery) {
			t.Errorf("%q: %v, want ErrQuery", s, err)
		}
	}
}

func TestSortColumn(t *testing.T) {
	if c, err := SortColumn(""); c != "g.id" || err != nil {
		t.Errorf("default: %q %v", c, err)
	}
	if c, err := SortColumn("white"); c != "a.name" || err != nil || !JoinsPlayers(c) {
		t.Errorf("white: %q %v", c, err)
	}
	if c, err := SortColumn("plies"); c != "g.plies" || err != nil || JoinsPlayers(c) {
		t.Errorf("plies: %q %v", c, err)
	}
	if _, err := SortColumn("elo"); !errors.Is(err, ErrQuery) {
		t.Errorf("elo: %v", err)
	}
}

// TestSeekMatchesOffset: in every order, the games after the cursor of the
// k-th game are the games from offset k+1, and read backwards from it the
// games before it (in reverse), with NULLs and ties.
func TestSeekMatchesOffset(t *testing.T) {
	db := orderDB(t)
	from := ` FROM games g LEFT JOIN players a ON a.id = g.p0 LEFT JOIN players b ON b.id = g.p1` + OpeningJoin + ` WHERE `
	for name := range listColumns {
		col, _ := SortColumn(name)
		for _, desc := range []bool{false, true} {
			o := Order{Col: col, Desc: desc, Folded: "op.folded"}
			back := o
			back.Back = true
			ids, cursors := orderedIDs(t, db, `SELECT g.id, `+SortValue(col)+from+`1 ORDER BY `+o.By(), col)
			if len(ids) != 6 {
				t.Fatalf("%s: %d games", name, len(ids))
			}
			for k, c := range cursors {
				// The cursor goes through its text, as a URL carries it.
				c, err := ParseCursor(c.String())
				if err != nil {
					t.Fatal(err)
				}
				cond, args := o.Seek(c)
				got := queryIDs(t, db, `SELECT g.id`+from+cond+` ORDER BY `+o.By(), args...)
				if want := ids[k+1:]; !reflect.DeepEqual(got, append([]int64{}, want...)) {
					t.Errorf("%s desc=%v after %+v: %v, want %v", name, desc, c, got, want)
				}
				cond, args = back.Seek(c)
				got = queryIDs(t, db, `SELECT g.id`+from+cond+` ORDER BY `+back.By(), args...)
				want := append([]int64{}, ids[:k]...)
				slices.Reverse(want)
				if !reflect.DeepEqual(got, want) {
					t.Errorf("%s desc=%v before %+v: %v, want %v", name, desc, c, got, want)
				}
			}
		}
	}
}

// TestOpeningOrder: by opening, the named games come first in both
// directions, by folded name (case and accents aside), then name, then
// id; the unnamed games last, by id in the list's direction.
func TestOpeningOrder(t *testing.T) {
	db := orderDB(t)
	from := ` FROM games g` + OpeningJoin
	for _, c := range []struct {
		desc bool
		want []int64
	}{
		{false, []int64{5, 1, 3, 6, 2, 4}},
		{true, []int64{6, 3, 1, 5, 4, 2}},
	} {
		o := Order{Col: OpeningColumn, Desc: c.desc, Folded: "op.folded"}
		if got := queryIDs(t, db, `SELECT g.id`+from+` ORDER BY `+o.By()); !reflect.DeepEqual(got, c.want) {
			t.Errorf("desc=%v: %v, want %v", c.desc, got, c.want)
		}
	}
}

// orderDB is a database of six games, three of them named: games 1 and 3
// "Écossaise" and "ecossaise" (one folded name), game 6 "Kelso", game 5
// "Bristol".
func orderDB(t *testing.T) *sql.DB {
	t.Helper()
	db, err := sql.Open(testDriver, ":memory:")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	db.SetMaxOpenConns(1)
	for _, s := range []string{
		`CREATE TABLE players(id INTEGER PRIMARY KEY, name TEXT)`,
		`CREATE TABLE games(id INTEGER PRIMARY KEY, game TEXT, p0 INT, p1 INT, result TEXT, event TEXT, site TEXT, date TEXT, plies INT)`,
		`CREATE TABLE openings(id INTEGER PRIMARY KEY, name TEXT, folded TEXT)`,
		`CREATE TABLE game_openings(game INTEGER PRIMARY KEY, opening INTEGER)`,
		`INSERT INTO players VALUES (1, 'Mori'), (2, 'Abe'), (3, 'Mori')`,
		`INSERT INTO games VALUES
			(1, 'ogi', 1, 2, '1-0', 'Open', NULL, '2026.07.01', 40),
			(2, 'ogi', 2, NULL, '0-1', NULL, 'Osaka', NULL, 9),
			(3, 'dames', 3, 1, '1-0', 'Open', 'Osaka', '2026.07.01', 100),
			(4, 'ogi', NULL, 3, NULL, 'Cup', NULL, '1999.??.??', 40),
			(5, 'sauts', 1, 1, '*', 'Open', 'Kyoto', NULL, 9),
			(6, 'ogi', 2, 3, '1-0', NULL, 'Osaka', '2026.07.01', 0)`,
		`INSERT INTO openings VALUES (1, 'Écossaise', 'ecossaise'), (2, 'Kelso', 'kelso'), (3, 'ecossaise', 'ecossaise'), (4, 'Bristol', 'bristol')`,
		`INSERT INTO game_openings VALUES (3, 1), (1, 3), (6, 2), (5, 4)`,
	} {
		if _, err := db.Exec(s); err != nil {
			t.Fatal(err)
		}
	}
	return db
}

// testDriver is SQLite with a plateau_fold that folds the test's names
// (the database's own is index's fold).
const testDriver = "sqlite3_criteria_test"

func init() {
	sql.Register(testDriver, &sqlite3.SQLiteDriver{
		ConnectHook: func(c *sqlite3.SQLiteConn) error {
			return c.RegisterFunc("plateau_fold", func(s string) string {
				return strings.ToLower(strings.ReplaceAll(s, "É", "e"))
			}, true)
		},
	})
}

// orderedIDs reads the ids and cursors of a list query selecting the id
// and SortValue(col).
func orderedIDs(t *testing.T, db *sql.DB, query, col string) ([]int64, []Cursor) {
	t.Helper()
	rows, err := db.Query(query)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var ids []int64
	var cursors []Cursor
	for rows.Next() {
		var id int64
		var v sql.NullString
		if err := rows.Scan(&id, &v); err != nil {
			t.Fatal(err)
		}
		ids, cursors = append(ids, id), append(cursors, CursorOf(col, id, v))
	}
	return ids, cursors
}

func queryIDs(t *testing.T, db *sql.DB, query string, args ...any) []int64 {
	t.Helper()
	rows, err := db.Query(query, args...)
	if err != nil {
		t.Fatal(fmt.Errorf("%s: %w", query, err))
	}
	defer rows.Close()
	ids := []int64{}
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
	}
	return ids
}
