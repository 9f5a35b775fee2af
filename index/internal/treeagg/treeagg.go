// Package treeagg is the opening-tree aggregate of a Plateau database: for
// each move of the main lines' first plies, by position key and move text,
// the number of games, of scored games, the points of each side, the
// games each side won (w0, w1: Wins), the first and last dates, the number of players who played it (np) and the
// three who played it most (top), in one row of the table tree; and, for
// the moves of more than TopLen players, every player's count in chunks
// of the player ids (tree_players). An import adds a transaction's moves
// at once (Flush), or a large one spools them and adds them a group at a
// time (Spool, Settle: spool.go); a delete takes a game's moves out
// (Remove).
//
// Decisions:
//
//   - A tree reads one row per move and never the player counts of a
//     position: the top is kept in the row (up to TopLen (player, count)
//     uvarint pairs, n descending, then player id ascending).
//
//   - A move of at most TopLen players (most moves: a deep one is usually
//     one game's) has them all in top and no tree_players row. A move of
//     more players has every count in tree_players, chunks of 512 player
//     ids (key, move, chunk = player >> chunkBits) → (player gap, count)
//     uvarint pairs in player order.
//
//   - A commit reads the rows it updates (their np and top) and the chunks
//     of the touched players of the moves of more than TopLen players, and
//     writes them back, several rows to a statement. The top stays exact:
//     a touched player's new count is the stored one plus the commit's,
//     and the top is the best of the stored top and those new counts,
//     since counts only grow in an import.
//
//   - A delete lowers one player's count: when that player is in the top,
//     the top is computed again from the move's chunks; when the move
//     falls to TopLen players its chunks are removed, their players being
//     all in top. The first and last dates are not narrowed by a delete
//     (they bound the dates of the games counted).
//
//   - A scored game is won by the side with more points, drawn when both
//     have as many (1/2-1/2, 1-1, and a 0-0 Dejarik series, which the rules
//     call a draw); the draws of a row are scored - w0 - w1, not stored.
//
//   - The rows are kept once more by month of the games' dates
//     (tree_months, without players: Month), so that the tree of a period
//     of whole months or years is a sum over its months; a Flush adds
//     them, a Remove takes a game out of its month.
//
// Layout 5 kept a tree_players row per (key, move, player); Upgrade5
// converts it. Layout 8 had no w0 and w1; Upgrade8 adds them and the
// caller counts them from the stored games (AddWins). The measurements behind these decisions are in
// docs/storage.md.
package treeagg

import (
	"cmp"
	"context"
	"database/sql"
	"strings"

	"github.com/plateau/plateau/index/internal/store"
)

// Key is a move of the tree: the stored key of the position it is played
// from and its text.
type Key struct {
	Pos  int64
	Move string
}

// Entry is a move of a game to count: position key, move, the id of the
// player who made it (0: none) and the game (an index in Flush's games).
type Entry struct {
	Pos    int64
	Move   string
	Player int64
	Game   int32
}

// Game is what a tree row adds up of a game: its date and, when its
// result scores, each side's points.
type Game struct {
	Date   string
	S0, S1 float64
	Scored bool
}

// EntryCmp orders entries by position key, move and player, the order
// Flush takes them in.
func EntryCmp(x, y Entry) int {
	if x.Pos != y.Pos {
		return cmp.Compare(x.Pos, y.Pos)
	}
	if c := strings.Compare(x.Move, y.Move); c != 0 {
		return c
	}
	return cmp.Compare(x.Player, y.Player)
}

// Stmts gives the statements of a write transaction, each prepared once in
// it; the caller closes them with the transaction.
type Stmts interface {
	Stmt(ctx context.Context, query string) (*sql.Stmt, error)
}

// Tx is what Upgrade5 needs of a transaction.
type Tx interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	PrepareContext(ctx context.Context, query string) (*sql.Stmt, error)
}

// Wins is what a scored game with points s0 and s1 adds to each side's
// wins: one to the side with more points, none to either for a draw.
func Wins(s0, s1 float64) [2]int {
	switch {
	case s0 > s1:
		return [2]int{1, 0}
	case s1 > s0:
		return [2]int{0, 1}
	}
	return [2]int{}
}

// agg is what a tree row adds up of its games.
type agg struct {
	n, scored   int
	s0, s1      float64
	w           [2]int
	first, last string
}

// pack adds the aggregate's columns (n, scored, s0, s1, w0, w1, first,
// last: their order in tree and tree_months) to v.
func (a *agg) pack(v *store.Values) {
	v.Int(int64(a.n))
	v.Int(int64(a.scored))
	v.Float(a.s0)
	v.Float(a.s1)
	v.Int(int64(a.w[0]))
	v.Int(int64(a.w[1]))
	v.Text(a.first)
	v.Text(a.last)
}

// add counts a game in the aggregate.
func (a *agg) add(g *Game) {
	if a.n == 0 {
		a.first, a.last = g.Date, g.Date
	}
	a.n++
	if g.Scored {
		a.scored++
		a.s0 += g.S0
		a.s1 += g.S1
		w := Wins(g.S0, g.S1)
		a.w[0] += w[0]
		a.w[1] += w[1]
	}
	if g.Date != "" && (a.first == "" || g.Date < a.first) {
		a.first = g.Date
	}
	if g.Date > a.last {
		a.last = g.Date
	}
}

// rowsPerStmt is the number of rows a statement of Flush reads or writes.
const rowsPerStmt = 128

// rowsStmt is the statement head VALUES row, row… (n rows) tail.
func rowsStmt(ctx context.Context, st Stmts, head, row, tail string, n int) (*sql.Stmt, error) {
	return st.Stmt(ctx, store.RowsQuery(head, row, tail, n))
}

// rowsExec is rowsStmt for a statement that returns no rows, through
// st's ExecStmt if it has one (store.ExecStmt).
func rowsExec(ctx context.Context, st Stmts, head, row, tail string, n int) (store.Prepared, error) {
	return store.ExecStmt(ctx, st, store.RowsQuery(head, row, tail, n))
}
