package playerlines

import (
	"context"
	"database/sql"
	"fmt"
	"slices"

	"github.com/plateau/plateau/index/internal/store"
	"github.com/plateau/plateau/record"
)

// FillSeveral writes again the ratings of the lines of the valid games
// whose records hold several values of one side's rating tag, as elo
// gives them from the game's ruleset and rating tags (Elo: every value;
// the lines of an older layout kept the least), and returns how many
// games it wrote. The other lines are left as they are; the games are
// found in the tags table, by its rating tags.
func FillSeveral(ctx context.Context, tx *sql.Tx, elo func(game string, tags []record.Tag) [2]string) (int, error) {
	tags, err := readSeveral(ctx, tx)
	if err != nil {
		return 0, fmt.Errorf("players' lines: several ratings: %w", err)
	}
	ids := make([]int64, 0, len(tags))
	for id := range tags {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	p := &txStmts{tx: tx}
	n := 0
	for _, id := range ids {
		var game string
		var pl [2]sql.NullInt64
		err := tx.QueryRowContext(ctx, `SELECT game, p0, p1 FROM games WHERE id = ? AND valid`, id).Scan(&game, &pl[0], &pl[1])
		if err == sql.ErrNoRows {
			continue // an invalid game has no lines
		}
		if err != nil {
			return n, err
		}
		ratings := elo(game, tags[id])
		for side, player := range pl {
			if !player.Valid {
				continue
			}
			if err := setElo(ctx, p, id, player.Int64, side, ratings); err != nil {
				return n, fmt.Errorf("game #%d players' lines: %w", id, err)
			}
		}
		n++
	}
	return n, nil
}

// readSeveral reads the rating tags (EloTags of every ruleset) of the
// games that hold one of them more than once.
func readSeveral(ctx context.Context, tx *sql.Tx) (elos, error) {
	names := eloTagNames()
	in := placeholders(len(names))
	return queryElos(ctx, tx, `SELECT t.game, n.name, t.value FROM tags t JOIN tag_names n ON n.id = t.tag
		WHERE n.name IN (`+in+`) AND t.game IN (SELECT t2.game FROM tags t2 WHERE t2.tag IN (SELECT id FROM tag_names WHERE name IN (`+in+`))
			GROUP BY t2.tag, t2.game HAVING count(*) > 1)`, append(names, names...)...)
}

// setElo sets the ratings of the line of game in its chunk of player and
// side to elo.
func setElo(ctx context.Context, p store.Preparer, game, player int64, side int, elo [2]string) error {
	first, blob, err := chunkOf(ctx, p, game, player, side)
	if err != nil || blob == nil {
		return err
	}
	var out []byte
	var l Line
	prev := first
	c := NewChunk(first, blob)
	for c.Next() {
		line := c.Line()
		if c.Game() == game {
			if err := Decode(line, &l); err != nil {
				return err
			}
			l.Elo = elo
			line = Append(nil, &l)
		}
		out = appendEntry(out, prev, c.Game(), line)
		prev = c.Game()
	}
	if err := c.Err(); err != nil {
		return err
	}
	st, err := p.Stmt(ctx, `UPDATE player_lines SET lines = ? WHERE player = ? AND side = ? AND game = ?`)
	if err != nil {
		return err
	}
	_, err = st.ExecContext(ctx, out, player, side, first)
	return err
}
