package store

import (
	"context"
	"database/sql"
	"path/filepath"
	"testing"
)

type txPreparer struct {
	s  *Stmts
	tx *sql.Tx
}

func (p txPreparer) Stmt(ctx context.Context, query string) (*sql.Stmt, error) {
	return p.s.Stmt(ctx, p.tx, query)
}

// TestRowsQuery: n rows joined by commas, between head and tail.
func TestRowsQuery(t *testing.T) {
	for _, c := range []struct {
		n    int
		want string
	}{
		{1, `INSERT INTO t(a, b) VALUES (?,?) `},
		{3, `INSERT INTO t(a, b) VALUES (?,?),(?,?),(?,?) `},
	} {
		if got := RowsQuery(`INSERT INTO t(a, b)`, `(?,?)`, ``, c.n); got != c.want {
			t.Errorf("%d rows: %q, want %q", c.n, got, c.want)
		}
	}
	if got := RowsQuery(`SELECT * FROM (`, `(?)`, `)`, 2); got != `SELECT * FROM ( VALUES (?),(?) )` {
		t.Errorf("with a tail: %q", got)
	}
}

// TestInsertRows: every row is stored, in statements of RowsPerInsert
// rows and one of the rest, each prepared once per transaction.
func TestInsertRows(t *testing.T) {
	ctx := context.Background()
	db, err := sql.Open("sqlite3", filepath.Join(t.TempDir(), "t.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(`CREATE TABLE t(a INTEGER PRIMARY KEY, b TEXT)`); err != nil {
		t.Fatal(err)
	}
	type row struct {
		a int64
		b string
	}
	var s Stmts
	for round := range 2 {
		tx, err := db.Begin()
		if err != nil {
			t.Fatal(err)
		}
		var rows []row
		for i := range 2*RowsPerInsert + 5 {
			rows = append(rows, row{int64(round*1000 + i), "x"})
		}
		put := func(args []any, r *row) []any { return append(args, r.a, r.b) }
		if err := InsertRows(ctx, txPreparer{&s, tx}, `INSERT INTO t(a, b)`, `(?,?)`, rows, put); err != nil {
			t.Fatal(err)
		}
		if len(s.stmts) != 2 {
			t.Errorf("round %d: %d statements prepared, want 2 (full and rest)", round, len(s.stmts))
		}
		if err := tx.Commit(); err != nil {
			t.Fatal(err)
		}
	}
	var n int
	if err := db.QueryRow(`SELECT count(*) FROM t`).Scan(&n); err != nil || n != 2*(2*RowsPerInsert+5) {
		t.Fatalf("%d rows stored, %v; want %d", n, err, 2*(2*RowsPerInsert+5))
	}
}
