package store

import (
	"context"
	"database/sql"
	"strings"
)

// Stmts are the statements of one transaction, each prepared once in it
// (database/sql closes them with it): the writer runs the same few
// statements for every game it stores or removes.
type Stmts struct {
	tx    *sql.Tx
	stmts map[string]*sql.Stmt
}

// Stmt is query prepared in tx, once: the statements of an earlier
// transaction are forgotten.
func (s *Stmts) Stmt(ctx context.Context, tx *sql.Tx, query string) (*sql.Stmt, error) {
	if s.tx != tx {
		*s = Stmts{tx: tx, stmts: map[string]*sql.Stmt{}}
	}
	st := s.stmts[query]
	if st == nil {
		var err error
		if st, err = tx.PrepareContext(ctx, query); err != nil {
			return nil, err
		}
		s.stmts[query] = st
	}
	return st, nil
}

// Preparer gives a statement prepared once in the current transaction.
type Preparer interface {
	Stmt(ctx context.Context, query string) (*sql.Stmt, error)
}

// Prepared is a prepared statement that returns no rows: a *sql.Stmt or
// a *RawStmt.
type Prepared interface {
	ExecContext(ctx context.Context, args ...any) (sql.Result, error)
}

// ExecPreparer gives statements that return no rows, each prepared once.
// A Preparer that is also an ExecPreparer runs InsertRows' statements
// (and the tree's writes, internal/treeagg) through it: the writer's
// gives RawStmts on an import's connection.
type ExecPreparer interface {
	ExecStmt(ctx context.Context, query string) (Prepared, error)
}

// ExecStmt is query prepared by p, through ExecStmt if p has it.
func ExecStmt(ctx context.Context, p Preparer, query string) (Prepared, error) {
	if ep, ok := p.(ExecPreparer); ok {
		return ep.ExecStmt(ctx, query)
	}
	return p.Stmt(ctx, query)
}

// RawStmts are the RawStmts of a connection, each prepared once on it
// (they outlive its transactions) and closed by Close.
type RawStmts struct {
	conn  *sql.Conn
	stmts map[string]*RawStmt
}

// NewRawStmts prepares statements on conn.
func NewRawStmts(conn *sql.Conn) *RawStmts {
	return &RawStmts{conn: conn, stmts: map[string]*RawStmt{}}
}

// Stmt is query prepared on the connection, once.
func (r *RawStmts) Stmt(ctx context.Context, query string) (*RawStmt, error) {
	st := r.stmts[query]
	if st == nil {
		var err error
		if st, err = PrepareRaw(ctx, r.conn, query); err != nil {
			return nil, err
		}
		r.stmts[query] = st
	}
	return st, nil
}

// Close closes the statements, before the connection is closed.
func (r *RawStmts) Close() error {
	var first error
	for q, st := range r.stmts {
		if err := st.Close(); err != nil && first == nil {
			first = err
		}
		delete(r.stmts, q)
	}
	return first
}

// RowsPerInsert is the number of rows an INSERT statement of InsertRows
// writes.
const RowsPerInsert = 128

// InsertRows runs the statement head VALUES row, row… for rows, in their
// order, RowsPerInsert of them to a statement (PartLen); put adds a row's
// values to v. Packed as Values, the values cost no interface each; a
// statement that is no RawStmt takes them as database/sql arguments.
func InsertRows[T any](ctx context.Context, p Preparer, head, row string, rows []T, put func(v *Values, r *T)) error {
	var v Values
	for i := 0; i < len(rows); {
		part := rows[i : i+PartLen(len(rows)-i, RowsPerInsert)]
		i += len(part)
		st, err := ExecStmt(ctx, p, RowsQuery(head, row, ``, len(part)))
		if err != nil {
			return err
		}
		v.Reset()
		for j := range part {
			put(&v, &part[j])
		}
		if raw, ok := st.(*RawStmt); ok {
			_, err = raw.ExecValues(ctx, &v)
		} else {
			_, err = st.ExecContext(ctx, v.Args()...)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// PartLen is the number of rows of the next statement of a multi-row
// write that has left rows to write: most (the rows a statement takes at
// most) if left is as many, otherwise the largest power of two within
// left. The statements of a writer's
// connection (RawStmts) outlive its transactions, so that a write of any
// number of rows takes one of a few statements (log₂ most + 1) rather
// than one more for every length of its last part.
func PartLen(left, most int) int {
	if left >= most {
		return most
	}
	n := 1
	for n*2 <= left {
		n *= 2
	}
	return n
}

// RowsQuery is the statement head VALUES row, row… (n rows) tail.
func RowsQuery(head, row, tail string, n int) string {
	var b strings.Builder
	b.Grow(len(head) + (len(row)+1)*n + len(tail) + 16)
	b.WriteString(head)
	b.WriteString(" VALUES ")
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(row)
	}
	b.WriteByte(' ')
	b.WriteString(tail)
	return b.String()
}
