package index

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/plateau/plateau/index/internal/players"
	"github.com/plateau/plateau/index/internal/store"
)

// MatchPlayers returns the ids of the players whose name matches text:
// compared without case, accents or punctuation, every word of text must be
// a prefix of a word of the name, or within edit distance 1 of it (2 for
// words of 8 letters or more) (internal/players).
func (db *DB) MatchPlayers(ctx context.Context, text string) ([]int64, error) {
	m, err := db.matchNames(ctx, text)
	if err != nil {
		return nil, err
	}
	return m.Players, nil
}

// matchNames matches text against the player names, folded as they are
// stored (fold.go).
func (db *DB) matchNames(ctx context.Context, text string) (*players.Match, error) {
	return db.names.Match(ctx, db.sql, fold(text))
}

// pageSQL is the query of a page of games matching w, in id order, or ""
// when the page is to be read player by player (playerPage).
func pageSQL(w *where, limit, offset int) (string, []any) {
	args := append(append([]any{}, w.Args()...), limit, offset)
	switch players.How(len(w.players), w.pageWords, w.scanPlayers, limit, offset) {
	case players.ByID:
		return `SELECT ` + hitCols + ` FROM ` + hitJoin + ` WHERE ` + w.String() +
			` ORDER BY g.id LIMIT ? OFFSET ?`, args
	case players.Scan:
		return `SELECT ` + hitCols + ` FROM games g NOT INDEXED LEFT JOIN players a ON a.id = g.p0 LEFT JOIN players b ON b.id = g.p1 WHERE ` + w.String() +
			` ORDER BY g.id LIMIT ? OFFSET ?`, args
	}
	return "", nil
}

// playerPage returns the ids of a page of games matching w, whose players
// are w.players, in id order, read by name word or by player and side
// (players.ReadPage).
func (db *DB) playerPage(ctx context.Context, w *where, limit, offset int) ([]int64, error) {
	cond, args := w.Without(w.playerCond)
	return players.ReadPage(ctx, db.sql, players.Page{Players: w.players, Words: w.pageWords}, cond, args, limit, offset)
}

// Cross is one player's line of a crosstable.
type Cross = players.Cross

// Crosstable scores the valid games of a query (typically an event)
// player against player, with the points of the Result (Dejarik points
// included) and on one scale (a win 1, a draw ½; Dejarik points kept).
// Players are ranked by the score on one scale (players.Share).
func (db *DB) Crosstable(ctx context.Context, q Query) ([]Cross, error) {
	return db.CrosstableProgress(ctx, q, nil)
}

// CrosstableProgress is Crosstable calling progress from time to time with
// the games read and an upper bound of those to read (the highest game id).
func (db *DB) CrosstableProgress(ctx context.Context, q Query, progress func(done, total int)) ([]Cross, error) {
	lines, _, err := db.CrosstablePage(ctx, q, 0, -1, progress)
	return lines, err
}

// CrosstablePage is the lines of Crosstable's players ranked from offset,
// limit of them (all when limit < 0), each scored against the players of
// the page only, and the number of players of the whole table
// (players.CrosstablePage); progress as for CrosstableProgress, or nil.
func (db *DB) CrosstablePage(ctx context.Context, q Query, offset, limit int, progress func(done, total int)) ([]Cross, int, error) {
	w, empty, err := db.filters(ctx, &q)
	if err != nil || empty {
		return nil, 0, err
	}
	var maxID int
	if progress != nil {
		db.sql.QueryRowContext(ctx, `SELECT COALESCE(MAX(id), 0) FROM games`).Scan(&maxID)
	}
	rows, err := db.sql.QueryContext(ctx, crosstableSQL(&w), w.Args()...)
	if err != nil {
		return nil, 0, err
	}
	defer rows.Close()
	return players.CrosstablePage(rows, func(ids []int64) (map[int64]string, error) { return db.playerNames(ctx, ids) }, maxID, progress, offset, limit)
}

// crosstableSQL is the query of the games of w a crosstable scores: its
// rows are players.Rows.
func crosstableSQL(w *where) string {
	return `SELECT g.p0, g.p1, g.result, g.game FROM games g WHERE ` + w.String() + ` AND g.p0 IS NOT NULL AND g.p1 IS NOT NULL`
}

// playerNames are the names of the players ids, by id.
func (db *DB) playerNames(ctx context.Context, ids []int64) (map[int64]string, error) {
	return store.ScanMap[int64, string](db.sql.QueryContext(ctx, `SELECT id, name FROM players WHERE id IN (SELECT value FROM json_each(?))`, jsonIDs(ids)))
}

// upgrade6 gives a layout-6 database the name index, in one transaction
// (a kill leaves it at 6).
func (db *DB) upgrade6(ctx context.Context) error {
	return db.upgradeTx(ctx, 6, "an index of the games by player name word", func(tx *sql.Tx) error {
		if err := players.BuildNameIndex(ctx, tx); err != nil {
			return fmt.Errorf("upgrade to layout 7: %w", err)
		}
		return nil
	})
}
