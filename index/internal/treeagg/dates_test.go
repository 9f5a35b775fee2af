package treeagg

import (
	"context"
	"database/sql"
	"path/filepath"
	"testing"

	_ "github.com/mattn/go-sqlite3"
)

// TestStoredDate: a date of a month of MonthLen ASCII bytes is stored
// without the month but its last byte, any other whole; ShortDate reads
// each back in SQL, and ShortenDates cuts whole dates (and only those)
// as StoredDate does.
func TestStoredDate(t *testing.T) {
	for _, c := range []struct{ date, stored string }{
		{"2026.07.14", "7.14"},
		{"2026.07", "7"},
		{"2026.??.??", "?.??"},
		{"2026", "2026"},
		{"", ""},
		{"2026.é7.01", "2026.é7.01"}, // not ASCII: its month is the date whole
		{"2026.é", "2026.é"},         // seven bytes, not ASCII
	} {
		month := Month(c.date)
		if got := StoredDate(month, c.date); got != c.stored {
			t.Errorf("%q (month %q): stored %q, want %q", c.date, month, got, c.stored)
		}
	}
	ctx := context.Background()
	db, err := sql.Open("sqlite3", filepath.Join(t.TempDir(), "d.sqlite"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.ExecContext(ctx, MonthsTable); err != nil {
		t.Fatal(err)
	}
	dates := []string{"2026.07.14", "2026.07", "2026.??.??", "2026", "", "2026.é7.01", "2026.é", "1999.12.31"}
	for i, d := range dates {
		// The whole dates of layout 16, then a row a newer program wrote
		// (countMonths in an older layout's upgrade): already stored.
		for j, v := range []string{d, StoredDate(Month(d), d)} {
			if _, err := db.ExecContext(ctx, `INSERT INTO tree_months VALUES(?, ?, 'm', 1, 0, 0, 0, 0, 0, ?, ?)`, 2*i+j, Month(d), v, v); err != nil {
				t.Fatal(err)
			}
		}
	}
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := ShortenDates(ctx, tx); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	rows, err := db.QueryContext(ctx, `SELECT key, month, first, `+ShortDate("month", "first")+`, `+ShortDate("month", "last")+` FROM tree_months ORDER BY key`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	n := 0
	for rows.Next() {
		var key int
		var month, stored, first, last string
		if err := rows.Scan(&key, &month, &stored, &first, &last); err != nil {
			t.Fatal(err)
		}
		d := dates[key/2]
		if want := StoredDate(month, d); stored != want {
			t.Errorf("row %d: %q stored as %q, want %q", key, d, stored, want)
		}
		if first != d || last != d {
			t.Errorf("row %d: %q read back as %q and %q", key, d, first, last)
		}
		n++
	}
	if err := rows.Err(); err != nil || n != 2*len(dates) {
		t.Fatalf("%d rows, %v", n, err)
	}
}
