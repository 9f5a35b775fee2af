package store

import (
	"context"
	"database/sql"
	"fmt"
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
// rows and of the rest's powers of two, each prepared once per
// transaction.
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
		put := func(v *Values, r *row) { v.Int(r.a); v.Text(r.b) }
		if err := InsertRows(ctx, txPreparer{&s, tx}, `INSERT INTO t(a, b)`, `(?,?)`, rows, put); err != nil {
			t.Fatal(err)
		}
		if len(s.stmts) != 3 {
			t.Errorf("round %d: %d statements prepared, want 3 (full, then 4 rows and 1 of the rest)", round, len(s.stmts))
		}
		if err := tx.Commit(); err != nil {
			t.Fatal(err)
		}
	}
	var n int
	if err := db.QueryRow(`SELECT count(*) FROM t WHERE b = 'x' AND typeof(b) = 'text'`).Scan(&n); err != nil || n != 2*(2*RowsPerInsert+5) {
		t.Fatalf("%d rows stored, %v; want %d", n, err, 2*(2*RowsPerInsert+5))
	}
}

// TestPartLen: a statement takes most rows, or the largest power of two
// within what is left.
func TestPartLen(t *testing.T) {
	for _, c := range []struct{ left, want int }{
		{1, 1}, {2, 2}, {3, 2}, {5, 4}, {127, 64}, {128, 128}, {1000, 128},
	} {
		if got := PartLen(c.left, 128); got != c.want {
			t.Errorf("PartLen(%d, 128) = %d, want %d", c.left, got, c.want)
		}
	}
}

// rawPreparer gives InsertRows RawStmts for its writes.
type rawPreparer struct {
	txPreparer
	raw *RawStmts
}

func (p rawPreparer) ExecStmt(ctx context.Context, query string) (Prepared, error) {
	return p.raw.Stmt(ctx, query)
}

// TestInsertRowsRaw: a Preparer that is an ExecPreparer runs the
// inserts, in the transaction open on its connection; its statements
// outlive the transaction, one a length.
func TestInsertRowsRaw(t *testing.T) {
	ctx := context.Background()
	db, conn := rawDB(t)
	raw := NewRawStmts(conn)
	defer raw.Close()
	type row struct{ u string }
	var s Stmts
	for round := range 3 {
		tx, err := conn.BeginTx(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		var rows []row
		for i := range RowsPerInsert + 3 {
			rows = append(rows, row{fmt.Sprint(round, "-", i)})
		}
		put := func(v *Values, r *row) { v.Text(r.u) }
		if err := InsertRows(ctx, rawPreparer{txPreparer{&s, tx}, raw}, `INSERT INTO t(u)`, `(?)`, rows, put); err != nil {
			t.Fatal(err)
		}
		if len(s.stmts) != 0 || len(raw.stmts) != 3 {
			t.Errorf("round %d: %d statements prepared in the transaction, %d raw; want 0 and 3", round, len(s.stmts), len(raw.stmts))
		}
		if round == 1 {
			err = tx.Rollback()
		} else {
			err = tx.Commit()
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	var n, rolled int
	if err := db.QueryRow(`SELECT count(*), count(*) FILTER (WHERE u LIKE '1-%') FROM t`).Scan(&n, &rolled); err != nil || n != 2*(RowsPerInsert+3) || rolled != 0 {
		t.Fatalf("%d rows stored (%d of the rolled back round), %v; want %d (0)", n, rolled, err, 2*(RowsPerInsert+3))
	}
	if err := raw.Close(); err != nil || len(raw.stmts) != 0 {
		t.Errorf("Close: %v, %d statements left", err, len(raw.stmts))
	}
}
