package store

import (
	"context"
	"database/sql"
	"errors"
)

// RowQuerier is what reading one meta entry needs: a connection, a
// database or a transaction.
type RowQuerier interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// Execer is what writing one meta entry needs.
type Execer interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
}

// MetaInt reads the integer meta entry k; a missing entry is 0.
func MetaInt(ctx context.Context, q RowQuerier, k string) (int64, error) {
	var v sql.NullInt64
	err := q.QueryRowContext(ctx, `SELECT v FROM meta WHERE k = ?`, k).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil
	}
	return v.Int64, err
}

// SetMeta writes the meta entry k, replacing its value.
func SetMeta(ctx context.Context, e Execer, k string, v any) error {
	_, err := e.ExecContext(ctx, `INSERT INTO meta(k, v) VALUES(?, ?) ON CONFLICT(k) DO UPDATE SET v = excluded.v`, k, v)
	return err
}
