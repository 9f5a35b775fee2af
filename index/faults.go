package index

import (
	"context"

	"github.com/plateau/plateau/index/internal/faults"
	"github.com/plateau/plateau/replay"
)

// ErrorGroup is one kind of error among the invalid games: a ruleset and a
// reason, how many games have it and the first of them.
type ErrorGroup = faults.Group

// ErrorEntry is an invalid game and why.
type ErrorEntry = faults.Entry

// WarningEntry is one warning of a stored game.
type WarningEntry = faults.Warning

// ErrorSummary groups the invalid games by ruleset and reason, the most
// frequent first.
func (db *DB) ErrorSummary(ctx context.Context) ([]ErrorGroup, error) {
	return faults.Summary(ctx, db.sql)
}

// Errors lists the invalid games, in import order.
func (db *DB) Errors(ctx context.Context, limit, offset int) ([]ErrorEntry, int, error) {
	return faults.List(ctx, db.sql, limit, offset)
}

// GameErrors are the first errors of the invalid games among ids, as
// stored at their import: the message and the line it names (0 when none).
func (db *DB) GameErrors(ctx context.Context, ids []int64) (map[int64]ErrorEntry, error) {
	return faults.GameErrors(ctx, db.sql, ids)
}

// Warnings lists the warnings of the stored games, in import order, and
// how many there are; kind filters them ("" for all: replay.WarnResult,
// replay.WarnRuleset).
func (db *DB) Warnings(ctx context.Context, kind string, limit, offset int) ([]WarningEntry, int, error) {
	return faults.Warnings(ctx, db.sql, kind, limit, offset)
}

// GameWarnings returns the warnings ("kind: text") of the given games.
func (db *DB) GameWarnings(ctx context.Context, ids []int64) (map[int64][]string, error) {
	return faults.GameWarnings(ctx, db.sql, ids)
}

// StoredWarnings are the warnings stored for game id at its import, in the
// JSON export's form.
func (db *DB) StoredWarnings(ctx context.Context, id int64) ([]replay.JSONWarning, error) {
	return faults.Stored(ctx, db.sql, id)
}
