package writer

import (
	"context"
	"fmt"

	"github.com/plateau/plateau/index/internal/gamerows"
)

// addWarnings stores a game's warnings (gamerows.Warning: faults of its
// metadata that do not make it invalid) in the transaction; the façade's
// schema holds their table, whose trigger removes them with the game.
func (w *txn) addWarnings(ctx context.Context, id int64, ws []gamerows.Warning) error {
	for _, r := range ws {
		if _, err := w.tx.ExecContext(ctx, `INSERT INTO warnings(game, kind, msg, line) VALUES(?,?,?,?)`, id, r.Kind, r.Msg, r.Line); err != nil {
			return fmt.Errorf("store warning: %w", err)
		}
	}
	return nil
}
