package criteria

import (
	"database/sql"
	"errors"
	"fmt"
	"reflect"
	"testing"

	_ "github.com/mattn/go-sqlite3"
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
// k-th game are the games from offset k+1, with NULLs and ties.
func TestSeekMatchesOffset(t *testing.T) {
	db, err := sql.Open("sqlite3", ":memory:")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	for _, s := range []string{
		`CREATE TABLE players(id INTEGER PRIMARY KEY, name TEXT)`,
		`CREATE TABLE games(id INTEGER PRIMARY KEY, game TEXT, p0 INT, p1 INT, result TEXT, event TEXT, site TEXT, date TEXT, plies INT)`,
		`INSERT INTO players VALUES (1, 'Mori'), (2, 'Abe'), (3, 'Mori')`,
		`INSERT INTO games VALUES
			(1, 'ogi', 1, 2, '1-0', 'Open', NULL, '2026.07.01', 40),
			(2, 'ogi', 2, NULL, '0-1', NULL, 'Osaka', NULL, 9),
			(3, 'dames', 3, 1, '1-0', 'Open', 'Osaka', '2026.07.01', 100),
			(4, 'ogi', NULL, 3, NULL, 'Cup', NULL, '1999.??.??', 40),
			(5, 'sauts', 1, 1, '*', 'Open', 'Kyoto', NULL, 9),
			(6, 'ogi', 2, 3, '1-0', NULL, 'Osaka', '2026.07.01', 0)`,
	} {
		if _, err := db.Exec(s); err != nil {
			t.Fatal(err)
		}
	}
	from := ` FROM games g LEFT JOIN players a ON a.id = g.p0 LEFT JOIN players b ON b.id = g.p1 WHERE `
	for name := range listColumns {
		col, _ := SortColumn(name)
		for _, desc := range []bool{false, true} {
			order := OrderBy(col, desc)
			var ids []int64
			var cursors []Cursor
			rows, err := db.Query(`SELECT g.id, ` + SortValue(col) + from + `1 ORDER BY ` + order)
			if err != nil {
				t.Fatal(err)
			}
			for rows.Next() {
				var id int64
				var v sql.NullString
				if err := rows.Scan(&id, &v); err != nil {
					t.Fatal(err)
				}
				ids, cursors = append(ids, id), append(cursors, CursorOf(col, id, v))
			}
			rows.Close()
			if len(ids) != 6 {
				t.Fatalf("%s: %d games", name, len(ids))
			}
			for k, c := range cursors {
				// The cursor goes through its text, as a URL carries it.
				c, err := ParseCursor(c.String())
				if err != nil {
					t.Fatal(err)
				}
				cond, args := Seek(col, desc, c)
				got := queryIDs(t, db, `SELECT g.id`+from+cond+` ORDER BY `+order, args...)
				if want := ids[k+1:]; !reflect.DeepEqual(got, append([]int64{}, want...)) {
					t.Errorf("%s desc=%v after %+v: %v, want %v", name, desc, c, got, want)
				}
			}
		}
	}
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
