package index

import "context"

// StoredPositions counts the valid games of a ruleset and the positions a
// pattern search visits in them (the start of every game and the position
// after every stored move, main lines and variations), from the stored move
// lists.
func StoredPositions(ctx context.Context, db *DB, game string) (games, positions int64, err error) {
	rows, err := db.sql.QueryContext(ctx, `SELECT moves FROM games WHERE valid = 1 AND game = ?`, game)
	if err != nil {
		return 0, 0, err
	}
	defer rows.Close()
	for rows.Next() {
		var b []byte
		if err := rows.Scan(&b); err != nil {
			return 0, 0, err
		}
		ml, err := decodeMoves(b)
		if err != nil {
			return 0, 0, err
		}
		games++
		positions += int64(1 + len(ml.Steps))
	}
	return games, positions, rows.Err()
}

// SetMaxPlayerArms changes maxPlayerArms for a test; the returned function
// restores it.
func SetMaxPlayerArms(n int) (restore func()) {
	old := maxPlayerArms
	maxPlayerArms = n
	return func() { maxPlayerArms = old }
}
