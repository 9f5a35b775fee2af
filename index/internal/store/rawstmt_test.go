package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mattn/go-sqlite3"
)

// rawDB is a database with a table t(id, a, b) and the connection the
// raw statements run on.
func rawDB(t *testing.T) (*sql.DB, *sql.Conn) {
	t.Helper()
	db, err := sql.Open("sqlite3", filepath.Join(t.TempDir(), "t.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if _, err := db.Exec(`CREATE TABLE t(id INTEGER PRIMARY KEY, a, b, u TEXT UNIQUE)`); err != nil {
		t.Fatal(err)
	}
	conn, err := db.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	return db, conn
}

type named string

// TestRawStmtValues: every kind of value a RawStmt binds is stored as
// database/sql's statement stores it (type and value, as SQLite quotes
// them), and the result's id and count are the driver's; so is it when
// packed in Values first, and run by ExecValues or given back to
// database/sql (Args).
func TestRawStmtValues(t *testing.T) {
	ctx := context.Background()
	db, conn := rawDB(t)
	const q = `INSERT INTO t(a, b) VALUES(?, ?)`
	raw, err := PrepareRaw(ctx, conn, q)
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var nilBytes []byte
	values := []any{nil, int64(-1 << 62), 7, int32(-3), uint8(200), true, false, 0.5, float32(1.25), -0.0,
		"", "texte accentué", "a\x00b", []byte{}, []byte{0, 1, 255}, nilBytes, named("named"), strings.Repeat("x", 5000)}
	runners := []string{"database/sql", "raw", "values", "args"}
	for _, v := range values {
		for _, runner := range runners {
			var res sql.Result
			var vs Values
			if err := vs.add(v); err != nil {
				t.Fatal(err)
			}
			vs.Text(runner)
			switch runner {
			case "raw":
				res, err = raw.ExecContext(ctx, v, runner)
			case "values":
				res, err = raw.ExecValues(ctx, &vs)
			case "args":
				res, err = tx.ExecContext(ctx, q, vs.Args()...)
			default:
				res, err = tx.ExecContext(ctx, q, v, runner)
			}
			if err != nil {
				t.Fatalf("%s, %T %v: %v", runner, v, v, err)
			}
			id, _ := res.LastInsertId()
			n, _ := res.RowsAffected()
			var last int64
			if err := tx.QueryRowContext(ctx, `SELECT max(id) FROM t`).Scan(&last); err != nil {
				t.Fatal(err)
			}
			if id != last || n != 1 {
				t.Errorf("%s, %T %v: id %d, %d rows; want %d, 1", runner, v, v, id, n, last)
			}
		}
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	rows, err := db.Query(`SELECT typeof(a), quote(a), b FROM t ORDER BY id`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var got []string
	for rows.Next() {
		var typ, quoted, runner string
		if err := rows.Scan(&typ, &quoted, &runner); err != nil {
			t.Fatal(err)
		}
		got = append(got, typ+" "+quoted)
	}
	n := len(runners)
	if len(got) != n*len(values) {
		t.Fatalf("%d rows, want %d", len(got), n*len(values))
	}
	for i, v := range values {
		for j := 1; j < n; j++ {
			if got[n*i] != got[n*i+j] {
				t.Errorf("%T %v: stored as %s by %s, %s by database/sql", v, v, got[n*i+j], runners[j], got[n*i])
			}
		}
	}
}

// rawFixture is a table t with a unique column u, and two RawStmts on
// the connection: ins adds a u unless stored, strict adds one or fails.
type rawFixture struct {
	db          *sql.DB
	conn        *sql.Conn
	ins, strict *RawStmt
}

func newRawFixture(t *testing.T) *rawFixture {
	t.Helper()
	ctx := context.Background()
	f := &rawFixture{}
	f.db, f.conn = rawDB(t)
	var err error
	if f.ins, err = PrepareRaw(ctx, f.conn, `INSERT INTO t(u) VALUES(?) ON CONFLICT(u) DO NOTHING`); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.ins.Close() })
	if f.strict, err = PrepareRaw(ctx, f.conn, `INSERT INTO t(u) VALUES(?)`); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.strict.Close() })
	return f
}

// count is the number of rows of t, read on another connection.
func (f *rawFixture) count(t *testing.T) (n int) {
	t.Helper()
	if err := f.db.QueryRow(`SELECT count(*) FROM t`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// TestRawStmtTx: a RawStmt runs in the transaction open on its
// connection (a rollback undoes it), not without one, and reports a
// conflict that changed nothing (0 rows).
func TestRawStmtTx(t *testing.T) {
	ctx := context.Background()
	f := newRawFixture(t)
	if _, err := f.ins.ExecContext(ctx, "none"); !errors.Is(err, ErrNoTx) {
		t.Errorf("without a transaction: %v, want ErrNoTx", err)
	}
	tx, err := f.conn.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.ins.ExecContext(ctx, "x"); err != nil {
		t.Fatal(err)
	}
	if res, err := f.ins.ExecContext(ctx, "x"); err != nil {
		t.Fatal(err)
	} else if n, _ := res.RowsAffected(); n != 0 {
		t.Errorf("a conflict: %d rows affected, want 0", n)
	}
	if err := tx.Rollback(); err != nil {
		t.Fatal(err)
	}
	if n := f.count(t); n != 0 {
		t.Errorf("after the rollback: %d rows, want 0", n)
	}
}

// TestRawStmtErrors: a RawStmt fails as the driver does, runs again
// after an error, refuses a wrong number or type of values, fails once
// database/sql rolled back a transaction whose context is done (and
// closed the connection), and closes after that.
func TestRawStmtErrors(t *testing.T) {
	ctx := context.Background()
	f := newRawFixture(t)
	cctx, cancel := context.WithCancel(ctx)
	tx, err := f.conn.BeginTx(cctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.strict.ExecContext(ctx, "y"); err != nil {
		t.Fatal(err)
	}
	_, want := tx.ExecContext(ctx, `INSERT INTO t(u) VALUES(?)`, "y")
	_, err = f.strict.ExecContext(ctx, "y")
	var se sqlite3.Error
	if !errors.As(err, &se) || se.Code != sqlite3.ErrConstraint || se.ExtendedCode != sqlite3.ErrConstraintUnique {
		t.Errorf("a unique conflict: %v (%#v), want a constraint error", err, se)
	}
	if want == nil || err == nil || err.Error() != want.Error() {
		t.Errorf("a unique conflict: %v, want the driver's %v", err, want)
	}
	if _, err := f.strict.ExecContext(ctx, "z"); err != nil {
		t.Errorf("after an error: %v", err)
	}
	if _, err := f.strict.ExecContext(ctx); err == nil || !strings.Contains(err.Error(), "expected 1 arguments, got 0") {
		t.Errorf("no argument: %v", err)
	}
	if _, err := f.strict.ExecContext(ctx, struct{}{}); err == nil {
		t.Error("a struct argument: no error")
	}
	cancel() // database/sql rolls tx back and closes the connection
	for tx.Commit() != sql.ErrTxDone {
	}
	// The transaction is marked done before its rollback runs on the
	// connection: a run in between writes in the transaction rolled back.
	for i, deadline := 0, time.Now().Add(10*time.Second); ; i++ {
		if _, err := f.strict.ExecContext(ctx, fmt.Sprint("w", i)); err != nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("ran after the transaction's context was done")
		}
	}
	if n := f.count(t); n != 0 {
		t.Errorf("after the cancelled transaction: %d rows, want 0", n)
	}
	for _, st := range []*RawStmt{f.strict, f.ins} {
		if err := st.Close(); err != nil {
			t.Errorf("Close after the connection: %v", err)
		}
		if _, err := st.ExecContext(ctx, "w"); err == nil {
			t.Error("a closed statement ran")
		}
	}
}

// TestStmtHandle: the driver's statement handle is found (stmtHandle
// reads a field go-sqlite3 does not export), and anything else is
// refused.
func TestStmtHandle(t *testing.T) {
	_, conn := rawDB(t)
	err := conn.Raw(func(dc any) error {
		ds, err := dc.(*sqlite3.SQLiteConn).Prepare(`SELECT 1`)
		if err != nil {
			return err
		}
		defer ds.Close()
		if h, err := stmtHandle(ds); err != nil || h == nil {
			return fmt.Errorf("handle %v, %v", h, err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := stmtHandle(nil); !errors.Is(err, errNoHandle) {
		t.Errorf("nil: %v", err)
	}
	if _, err := stmtHandle(&RawStmt{}); !errors.Is(err, errNoHandle) {
		t.Errorf("another type: %v", err)
	}
}
