package treeagg

import (
	"cmp"
	"context"
	"database/sql"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
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

// TestMonthRowsAsReference: monthRows gives the rows that adding up each
// entry under its (position, month, move) and sorting those keys give,
// whether its work space is new or kept from a call before (positions
// of many entries and of few, months of every form, shared or not
// between the calls), and whether the games' months are numbered first
// (a settle's merge) or not.
func TestMonthRowsAsReference(t *testing.T) {
	r := rand.New(rand.NewPCG(45, 5))
	sc, numbered := &monthScratch{}, &monthScratch{}
	for call := range 6 {
		var es []Entry
		var games []Game
		dates := []string{"", "2026.07.14", "2026.07.01", "1999.??.??", "2026", "2026.é7.01", "1931.02.28", fmt.Sprintf("19%02d.01.01", call)}
		for g := range 200 {
			games = append(games, Game{Date: dates[r.IntN(len(dates))], S0: float64(r.IntN(2)), Scored: r.IntN(3) > 0})
			for range 1 + r.IntN(8) {
				pos := int64(r.IntN(4))
				if r.IntN(3) == 0 {
					pos = r.Int64N(1 << 40)
				}
				es = append(es, Entry{Pos: pos, Move: fmt.Sprintf("m%d", r.IntN(5)), Player: int64(r.IntN(9)), Game: int32(g)})
			}
		}
		slices.SortFunc(es, EntryCmp)
		want := map[monthKey]*agg{}
		var keys []monthKey
		for _, e := range es {
			k := monthKey{e.Pos, Month(games[e.Game].Date), e.Move}
			if want[k] == nil {
				want[k] = &agg{}
				keys = append(keys, k)
			}
			want[k].add(&games[e.Game])
		}
		slices.SortFunc(keys, func(x, y monthKey) int {
			return cmp.Or(cmp.Compare(x.pos, y.pos), strings.Compare(x.month, y.month), strings.Compare(x.move, y.move))
		})
		numbered.gameMonth = numbered.number(games) // as a settle's merge numbers them
		for _, s := range []*monthScratch{nil, sc, numbered} {
			got := monthRows(es, games, s)
			if len(got) != len(keys) {
				t.Fatalf("call %d: %d rows, want %d", call, len(got), len(keys))
			}
			for i, k := range keys {
				if got[i].k != k || got[i].a != *want[k] {
					t.Fatalf("call %d, row %d: %+v, want %+v %+v", call, i, got[i], k, *want[k])
				}
			}
		}
	}
}
