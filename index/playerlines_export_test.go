package index

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/plateau/plateau/index/internal/playerlines"
	"github.com/plateau/plateau/record"
)

// PlayerLinesDiff compares the players' lines a database holds with those
// its upgrade fills from the stored games (playerlines.Fill), in a
// transaction rolled back: the rows that differ, as text, and the number
// of rows held.
func PlayerLinesDiff(ctx context.Context, db *DB) (diff []string, n int, err error) {
	tx, err := db.sql.BeginTx(ctx, nil)
	if err != nil {
		return nil, 0, err
	}
	defer tx.Rollback()
	held, err := playerLineRows(ctx, tx)
	if err != nil {
		return nil, 0, err
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM player_lines`); err != nil {
		return nil, 0, err
	}
	if err := playerlines.Fill(ctx, tx, TreeDepth); err != nil {
		return nil, 0, err
	}
	filled, err := playerLineRows(ctx, tx)
	if err != nil {
		return nil, 0, err
	}
	for k, v := range held {
		if filled[k] != v {
			diff = append(diff, fmt.Sprintf("%s: held %s, filled %s", k, v, filled[k]))
		}
	}
	for k, v := range filled {
		if _, ok := held[k]; !ok {
			diff = append(diff, fmt.Sprintf("%s: not held, filled %s", k, v))
		}
	}
	return diff, len(held), nil
}

// playerLineRows is every row of player_lines, its line decoded (its
// event by name), by key.
func playerLineRows(ctx context.Context, tx *sql.Tx) (map[string]string, error) {
	rows, err := tx.QueryContext(ctx, `SELECT player, side, game, lines FROM player_lines`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]string{}
	for rows.Next() {
		var player, side, first int64
		var blob []byte
		if err := rows.Scan(&player, &side, &first, &blob); err != nil {
			return nil, err
		}
		c := playerlines.NewChunk(first, blob)
		for c.Next() {
			var l playerlines.Line
			if err := playerlines.Decode(c.Line(), &l); err != nil {
				return nil, err
			}
			k := fmt.Sprintf("player %d side %d game %d", player, side, c.Game())
			if _, dup := out[k]; dup {
				return nil, fmt.Errorf("%s: twice", k)
			}
			var event sql.NullString // by name: an upgrade numbers them in its order
			if l.Event != 0 {
				if err := tx.QueryRowContext(ctx, `SELECT name FROM event_names WHERE id = ?`, l.Event).Scan(&event); err != nil {
					return nil, fmt.Errorf("%s: event %d: %w", k, l.Event, err)
				}
			}
			l.Event = 0
			out[k] = fmt.Sprintf("%+v event %q", l, event.String)
		}
		if err := c.Err(); err != nil {
			return nil, err
		}
	}
	return out, rows.Err()
}

// DowngradeToLayout12 turns db into a layout-12 database: no players'
// lines.
func DowngradeToLayout12(ctx context.Context, db *DB) error {
	if err := downgradeTree(ctx, db); err != nil {
		return err
	}
	if _, err := db.sql.ExecContext(ctx, `DROP TABLE player_lines`); err != nil {
		return err
	}
	if err := downgradeBlocks(ctx, db); err != nil {
		return err
	}
	return setMeta(ctx, db.sql, "schema", 12)
}

// DowngradeToLayout16 turns db into a layout-16 database: no event_names
// (its players' lines, of an older form, are to be spoilt).
func DowngradeToLayout16(ctx context.Context, db *DB) error {
	if err := wholeMonthDates(ctx, db.sql); err != nil {
		return err
	}
	if _, err := db.sql.ExecContext(ctx, `DROP TABLE event_names`); err != nil {
		return err
	}
	return setMeta(ctx, db.sql, "schema", 16)
}

// SpoilPlayerLines makes every stored player's line unreadable.
func SpoilPlayerLines(ctx context.Context, db *DB) error {
	_, err := db.sql.ExecContext(ctx, `UPDATE player_lines SET lines = x'ff'`)
	return err
}

// PlayerLineRows is every row of player_lines, its line decoded, by key.
func PlayerLineRows(ctx context.Context, db *DB) (map[string]string, error) {
	tx, err := db.sql.BeginTx(ctx, nil)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	return playerLineRows(ctx, tx)
}

// DowngradeToLayout20 turns db into a layout-20 database: the lines of
// the games with several values of a rating tag keep the least one.
func DowngradeToLayout20(ctx context.Context, db *DB) error {
	tx, err := db.sql.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	least := func(game string, tags []record.Tag) [2]string {
		var out [2]string
		names, _ := playerlines.EloTags(game)
		for _, t := range tags {
			for side, n := range names {
				if t.Name == n && (out[side] == "" || t.Value < out[side]) {
					out[side] = t.Value
				}
			}
		}
		return out
	}
	if n, err := playerlines.FillSeveral(ctx, tx, least); err != nil || n == 0 {
		return fmt.Errorf("%d games with several ratings: %v", n, err)
	}
	if err := setMeta(ctx, tx, "schema", 20); err != nil {
		return err
	}
	return tx.Commit()
}
