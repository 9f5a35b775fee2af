package index

import (
	"context"
	"database/sql"
	"sort"
)

// Cross is one player's line of a crosstable.
type Cross struct {
	Player string
	Games  int
	Score  float64
	// Against[j] is the score against player j of the table, and Met[j]
	// the number of games.
	Against []float64
	Met     []int
}

// Crosstable scores the valid games of a query (typically an event)
// player against player, with the points of the Result (Dejarik points
// included). Players are sorted by score.
func (db *DB) Crosstable(ctx context.Context, q Query) ([]Cross, error) {
	return db.CrosstableProgress(ctx, q, nil)
}

// CrosstableProgress is Crosstable calling progress from time to time with
// the games read and an upper bound of those to read (the highest game id).
func (db *DB) CrosstableProgress(ctx context.Context, q Query, progress func(done, total int)) ([]Cross, error) {
	w, empty, err := db.filters(ctx, &q)
	if err != nil || empty {
		return nil, err
	}
	var maxID int
	if progress != nil {
		db.sql.QueryRowContext(ctx, `SELECT COALESCE(MAX(id), 0) FROM games`).Scan(&maxID)
	}
	read := 0
	rows, err := db.sql.QueryContext(ctx, `SELECT a.name, b.name, g.result FROM `+hitJoin+` WHERE `+w.String()+` AND g.p0 IS NOT NULL AND g.p1 IS NOT NULL`, w.Args()...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	type pair struct{ a, b string }
	score := map[pair]float64{}
	met := map[pair]int{}
	players := map[string]*Cross{}
	for rows.Next() {
		var a, b, res sql.NullString
		if err := rows.Scan(&a, &b, &res); err != nil {
			return nil, err
		}
		if read++; progress != nil && read%4096 == 0 {
			progress(read, max(read, maxID))
		}
		s0, s1, ok := scores(res.String)
		if !ok {
			continue
		}
		for _, n := range []string{a.String, b.String} {
			if players[n] == nil {
				players[n] = &Cross{Player: n}
			}
		}
		players[a.String].Games++
		players[b.String].Games++
		players[a.String].Score += s0
		players[b.String].Score += s1
		score[pair{a.String, b.String}] += s0
		score[pair{b.String, a.String}] += s1
		met[pair{a.String, b.String}]++
		met[pair{b.String, a.String}]++
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	out := make([]Cross, 0, len(players))
	for _, c := range players {
		out = append(out, *c)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Score != out[j].Score {
			return out[i].Score > out[j].Score
		}
		return out[i].Player < out[j].Player
	})
	for i := range out {
		out[i].Against = make([]float64, len(out))
		out[i].Met = make([]int, len(out))
		for j := range out {
			p := pair{out[i].Player, out[j].Player}
			out[i].Against[j], out[i].Met[j] = score[p], met[p]
		}
	}
	return out, nil
}
