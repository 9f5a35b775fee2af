package index

import (
	"context"
	"fmt"
	"sort"

	"github.com/plateau/plateau/rules"
)

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

// CheckTreeTops compares the top players stored in every tree row with
// the best three of its tree_players rows (n descending, player id
// ascending), computed by brute force; it returns how many rows hold a
// top.
func CheckTreeTops(ctx context.Context, db *DB) (withTop int, err error) {
	want := map[treeKey][]topEntry{}
	rows, err := db.sql.QueryContext(ctx, `SELECT key, move, player, n FROM tree_players`)
	if err != nil {
		return 0, err
	}
	for rows.Next() {
		var k treeKey
		var e topEntry
		if err := rows.Scan(&k.key, &k.move, &e.player, &e.n); err != nil {
			rows.Close()
			return 0, err
		}
		want[k] = append(want[k], e)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return 0, err
	}
	rows, err = db.sql.QueryContext(ctx, `SELECT key, move, top FROM tree`)
	if err != nil {
		return 0, err
	}
	defer rows.Close()
	var bad []string
	for rows.Next() {
		var k treeKey
		var blob []byte
		if err := rows.Scan(&k.key, &k.move, &blob); err != nil {
			return 0, err
		}
		got, err := decodeTop(nil, blob)
		if err != nil {
			return 0, err
		}
		w := want[k]
		sort.Slice(w, func(i, j int) bool { return topBefore(w[i], w[j]) })
		w = w[:min(len(w), topLen)]
		if fmt.Sprint(got) != fmt.Sprint(w) {
			bad = append(bad, fmt.Sprintf("%d %s: stored top %v, tree_players %v", k.key, k.move, got, w))
		}
		if len(got) > 0 {
			withTop++
		}
	}
	if len(bad) > 0 {
		return withTop, fmt.Errorf("%d tree rows with a wrong top, e.g. %s", len(bad), bad[0])
	}
	return withTop, rows.Err()
}

// TreeTopsScan is the top players of each move of a position's tree as
// Tree found them before layout 5: ranking every tree_players row of the
// position (the three best by count, then player id), ordered by count,
// then name.
func TreeTopsScan(ctx context.Context, db *DB, game string, pos rules.Position) (map[string][]PlayerCount, error) {
	rows, err := db.sql.QueryContext(ctx, `SELECT t.move, p.name, t.n FROM
		(SELECT move, player, n, ROW_NUMBER() OVER (PARTITION BY move ORDER BY n DESC, player) AS r FROM tree_players WHERE key = ?) t
		JOIN players p ON p.id = t.player WHERE t.r <= 3`, saltKey(game, pos.Key()))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string][]PlayerCount{}
	for rows.Next() {
		var mv string
		var c PlayerCount
		if err := rows.Scan(&mv, &c.Name, &c.Games); err != nil {
			return nil, err
		}
		out[mv] = append(out[mv], c)
	}
	for _, t := range out {
		sort.Slice(t, func(i, j int) bool {
			if t[i].Games != t[j].Games {
				return t[i].Games > t[j].Games
			}
			return t[i].Name < t[j].Name
		})
	}
	return out, rows.Err()
}
