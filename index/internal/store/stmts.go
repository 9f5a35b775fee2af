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

// RowsPerInsert is the number of rows an INSERT statement of InsertRows
// writes.
const RowsPerInsert = 128

// InsertRows runs the statement head VALUES row, row… for rows, in their
// order, RowsPerInsert of them to a statement; put appends a row's values.
func InsertRows[T any](ctx context.Context, p Preparer, head, row string, rows []T, put func(args []any, r *T) []any) error {
	args := make([]any, 0, strings.Count(row, "?")*RowsPerInsert)
	for i := 0; i < len(rows); i += RowsPerInsert {
		part := rows[i:min(i+RowsPerInsert, len(rows))]
		st, err := p.Stmt(ctx, RowsQuery(head, row, ``, len(part)))
		if err != nil {
			return err
		}
		args = args[:0]
		for j := range part {
			args = put(args, &part[j])
		}
		if _, err := st.ExecContext(ctx, args...); err != nil {
			return err
		}
	}
	return nil
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
