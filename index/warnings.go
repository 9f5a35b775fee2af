package index

import (
	"context"
	"fmt"

	"github.com/plateau/plateau/index/internal/gamerows"
)

// Warnings: faults of a game's metadata that do not make it invalid (a
// Result tag that disagrees with the movetext or with an unfinished final
// position) and how an untagged record's ruleset was chosen (see package
// replay). They are kept in their own table, one row per warning, since
// layout version 3; a trigger removes a game's warnings with the game.
func init() {
	schema = append(schema,
		`CREATE TABLE IF NOT EXISTS warnings(
			game INTEGER NOT NULL, kind TEXT NOT NULL, msg TEXT NOT NULL, line INTEGER)`,
		`CREATE INDEX IF NOT EXISTS warnings_game ON warnings(game)`,
		`CREATE TRIGGER IF NOT EXISTS games_delete_warnings AFTER DELETE ON games
			BEGIN DELETE FROM warnings WHERE game = old.id; END`,
	)
}

// addWarnings stores a game's warnings in the writer's transaction.
func (w *writer) addWarnings(ctx context.Context, id int64, ws []gamerows.Warning) error {
	for _, r := range ws {
		if _, err := w.tx.ExecContext(ctx, `INSERT INTO warnings(game, kind, msg, line) VALUES(?,?,?,?)`, id, r.Kind, r.Msg, r.Line); err != nil {
			return fmt.Errorf("store warning: %w", err)
		}
	}
	return nil
}
