package writer

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/plateau/plateau/index/internal/criteria"
	"github.com/plateau/plateau/index/internal/gamerows"
	"github.com/plateau/plateau/index/internal/gametext"
	"github.com/plateau/plateau/index/internal/openings"
	"github.com/plateau/plateau/index/internal/posrun"
	"github.com/plateau/plateau/index/internal/revisions"
	"github.com/plateau/plateau/index/internal/store"
	"github.com/plateau/plateau/index/internal/treeagg"
	"github.com/plateau/plateau/record"
	"github.com/plateau/plateau/replay"
)

// Keeping a database: Delete, SetTags, and the replacement of superseded
// records on import (supersede.go). Every change runs in one SQLite
// transaction that undoes (or redoes) all that an import wrote for the
// game: its row, tags, positions, opening-tree counts (and the top players
// stored with them, internal/treeagg) and players with no other game. A
// game's rows are found by replaying its stored record, which gives the
// same keys and tree moves as when it was imported. The text index is
// changed after the commit (DB.SyncText); the ids it must catch up with
// are listed in the table text_todo in the same transaction, so that a
// process that dies between the two leaves a list that the next writable
// open (or the next change) works off.
//
// Decisions: a deleted game's id is never reused (SQLite keeps ids growing
// while the highest stays; a tag edit keeps the game's id); the opening
// tree's first and last dates are not narrowed by a delete (they bound the
// dates of the games counted); the text blocks of deleted records stay in
// the texts table until the database is rebuilt.

// oldGame is what removeGame needs of a stored game.
type oldGame struct {
	id     int64
	game   string
	valid  bool
	plies  int
	hash   []byte
	p0, p1 sql.NullInt64
	file   string
	offset sql.NullInt64
	line   sql.NullInt64
	size   sql.NullInt64
	text   []byte
	// where text is: its block, offset and length
	block, off, n int64
}

// readGame reads a stored game's row and record text.
func (w *txn) readGame(ctx context.Context, id int64) (*oldGame, error) {
	return readGame(ctx, w.tx, &w.textCache, id, w.d.ErrNotFound)
}

// rowQuerier is what readGame reads through: the writer's transaction,
// or the database for a check.
type rowQuerier interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// readGame reads a stored game's row and record text through q, its text
// block through c (kept decoded for the next game of the same block);
// notFound is the error it wraps when there is no such game.
func readGame(ctx context.Context, q rowQuerier, c *gametext.Cache, id int64, notFound error) (*oldGame, error) {
	g := &oldGame{id: id}
	var file sql.NullString
	err := q.QueryRowContext(ctx, `SELECT g.game, g.valid, g.plies, g.hash, g.p0, g.p1, s.path, g.offset, g.line, g.size, g.tblock, g.toff, g.tlen
		FROM games g LEFT JOIN sources s ON s.id = g.source WHERE g.id = ?`, id).
		Scan(&g.game, &g.valid, &g.plies, &g.hash, &g.p0, &g.p1, &file, &g.offset, &g.line, &g.size, &g.block, &g.off, &g.n)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("game #%d: %w", id, notFound)
	}
	if err != nil {
		return nil, err
	}
	g.file = file.String
	if g.n <= 0 {
		return g, nil
	}
	data, err := c.Block(ctx, q, g.block)
	if err != nil {
		return nil, fmt.Errorf("game #%d text: %w", id, err)
	}
	if g.off < 0 || g.off+g.n > int64(len(data)) {
		return nil, fmt.Errorf("game #%d text: bad block reference", id)
	}
	g.text = data[g.off : g.off+g.n]
	return g, nil
}

// prepareStored replays a stored record as import did.
func (d *DB) prepareStored(game string, rec *record.Game, file string) *prepared {
	p := newPreparer(replay.Options{DefaultGame: game})
	return p.prepare(Record{Game: rec, File: file})
}

// stmt is a statement of removeGame or flushRows, prepared once in the
// writer's transaction.
func (w *txn) stmt(ctx context.Context, query string) (*sql.Stmt, error) {
	return w.edit.Stmt(ctx, w.tx, query)
}

// txStmts gives the statements of the writer's transaction, each
// prepared once in it (txn.stmt), to the internal packages.
type txStmts struct{ w *txn }

func (s txStmts) Stmt(ctx context.Context, query string) (*sql.Stmt, error) {
	return s.w.stmt(ctx, query)
}

// ExecStmt is a statement that returns no rows: on an import's
// connection a RawStmt (store.RawStmts), prepared once for the import;
// otherwise prepared once in the transaction.
func (s txStmts) ExecStmt(ctx context.Context, query string) (store.Prepared, error) {
	if s.w.raw != nil {
		return s.w.raw.Stmt(ctx, query)
	}
	return s.w.stmt(ctx, query)
}

func (s txStmts) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	return s.w.exec(ctx, query, args...)
}

// exec runs a statement of removeGame in the writer's transaction.
func (w *txn) exec(ctx context.Context, query string, args ...any) (sql.Result, error) {
	st, err := w.stmt(ctx, query)
	if err != nil {
		return nil, err
	}
	return st.ExecContext(ctx, args...)
}

// removeGame deletes a game and every row its import wrote, inside the
// writer's transaction (Delete, a superseded record): what unstore takes
// out, and its revisions; its position occurrences stay in their runs
// until a merge drops them (readers join the games table, internal/posrun),
// and counts that would not are told (posrun.NoteDeleted).
func (w *txn) removeGame(ctx context.Context, g *oldGame) error {
	rows, err := w.storedRows(g)
	if err != nil {
		return err
	}
	if rows != nil {
		if err := posrun.NoteDeleted(ctx, txStmts{w}); err != nil {
			return fmt.Errorf("game #%d: %w", g.id, err)
		}
	}
	if err := w.unstore(ctx, g, rows); err != nil {
		return err
	}
	if err := revisions.Delete(ctx, txStmts{w}, g.id); err != nil {
		return fmt.Errorf("game #%d: %w", g.id, err)
	}
	return nil
}

// storedRows replays a valid game's stored record, which gives the rows
// its import wrote; nil for an invalid game.
func (w *txn) storedRows(g *oldGame) (*prepared, error) {
	if !g.valid || len(g.text) == 0 {
		return nil, nil
	}
	rec, err := record.NewReader(bytes.NewReader(g.text), "db").Next()
	if err != nil {
		return nil, fmt.Errorf("game #%d: stored record: %w", g.id, err)
	}
	p := w.d.prepareStored(g.game, rec, g.file)
	if !p.Valid {
		return nil, nil
	}
	return p, nil
}

// unstore deletes a game's row and the rows its record gave (rows, from
// storedRows: nil for an invalid game) but its position occurrences, and
// lists its id for the text index: its tags and opening-tree counts
// (removeRecordRows), its name-index entries, its row and its players left
// without games.
func (w *txn) unstore(ctx context.Context, g *oldGame, rows *prepared) error {
	// Tags are stored at the commit: a game of this transaction has its
	// tags stored before they are looked for.
	if err := w.flushTags(ctx); err != nil {
		return err
	}
	if err := w.names.Flush(ctx, txStmts{w}); err != nil {
		return err
	}
	if _, err := w.exec(ctx, `INSERT INTO meta(k, v) VALUES(?, 1) ON CONFLICT(k) DO UPDATE SET v = v + 1`, EditsKey); err != nil {
		return fmt.Errorf("game #%d: %w", g.id, err)
	}
	if rows != nil {
		if err := w.removeRecordRows(ctx, g, rows); err != nil {
			return err
		}
	}
	if g.valid {
		for _, pl := range []sql.NullInt64{g.p0, g.p1} {
			if pl.Valid {
				if err := w.names.Remove(ctx, w.tx, txStmts{w}, g.id, pl.Int64); err != nil {
					return fmt.Errorf("game #%d name index: %w", g.id, err)
				}
			}
		}
	}
	if _, err := w.exec(ctx, `DELETE FROM games WHERE id = ?`, g.id); err != nil {
		return fmt.Errorf("game #%d: %w", g.id, err)
	}
	if err := openings.Forget(ctx, w.tx, g.id); err != nil {
		return fmt.Errorf("game #%d opening: %w", g.id, err)
	}
	if g.valid {
		if err := w.forgetPlayerLines(ctx, g); err != nil {
			return err
		}
	}
	if err := w.removeLonePlayers(ctx, g); err != nil {
		return err
	}
	if g.valid {
		if _, err := w.exec(ctx, `INSERT OR IGNORE INTO text_todo(id) VALUES(?)`, g.id); err != nil {
			return fmt.Errorf("game #%d: %w", g.id, err)
		}
	}
	return nil
}

// removeRecordRows takes out the rows that a valid game's stored record
// gives (p, replayed by storedRows): its tags and opening-tree counts.
func (w *txn) removeRecordRows(ctx context.Context, g *oldGame, p *prepared) error {
	for _, t := range p.Tags {
		if _, err := w.exec(ctx, `DELETE FROM tags WHERE tag = (SELECT id FROM tag_names WHERE name = ?) AND value = ? AND game = ?`,
			t.Name, t.Value, g.id); err != nil {
			return fmt.Errorf("game #%d tags: %w", g.id, err)
		}
	}
	if len(p.Tree) > 0 {
		if err := w.settleTree(ctx); err != nil { // treespool.go
			return err
		}
	}
	s0, s1, scored := gamerows.Scores(p.Result)
	tg := treeagg.Game{Date: p.Date, S0: s0, S1: s1, Scored: scored}
	for _, t := range p.Tree {
		k := treeagg.Key{Pos: gamerows.SaltKey(p.Game, t.Key), Move: t.Move}
		pl := [2]sql.NullInt64{g.p0, g.p1}[t.Mover]
		if err := treeagg.Remove(ctx, txStmts{w}, k, pl.Int64, tg); err != nil {
			return fmt.Errorf("game #%d opening tree: %w", g.id, err)
		}
	}
	return nil
}

// removeLonePlayers deletes the players of a removed game left without
// games.
func (w *txn) removeLonePlayers(ctx context.Context, g *oldGame) error {
	for _, pl := range []sql.NullInt64{g.p0, g.p1} {
		if !pl.Valid {
			continue
		}
		res, err := w.exec(ctx, `DELETE FROM players WHERE id = ?1
			AND NOT EXISTS (SELECT 1 FROM games WHERE p0 = ?1) AND NOT EXISTS (SELECT 1 FROM games WHERE p1 = ?1)`, pl.Int64)
		if err != nil {
			return fmt.Errorf("game #%d players: %w", g.id, err)
		}
		if n, _ := res.RowsAffected(); n > 0 {
			w.ids.ForgetPlayers() // the writer's cache may name the removed player
			w.names.ForgetPlayers()
		}
	}
	return nil
}

// deleteTx is the number of games deleted per transaction.
const deleteTx = 2000

// Delete removes the games of ids (those that exist) with everything that
// refers to them, in transactions of a few thousand games, and returns how
// many it removed. An error or a cancelled ctx stops it: the games of the
// transactions committed before are removed, the others are not.
func (d *DB) Delete(ctx context.Context, ids []int64, progress func(done, total int)) (int, error) {
	n := 0
	for start := 0; start < len(ids); start += deleteTx {
		part := ids[start:min(start+deleteTx, len(ids))]
		k, err := d.deleteTx(ctx, part)
		if err != nil {
			return n, err
		}
		n += k
		run(d.Tuning.AfterEditCommit)
		if err := d.SyncText(ctx); err != nil {
			return n, err
		}
		if progress != nil {
			progress(start+len(part), len(ids))
		}
	}
	checkpoint(d.SQL)
	return n, nil
}

// deleteTx removes the games of ids that exist in one transaction, and
// returns how many.
func (d *DB) deleteTx(ctx context.Context, ids []int64) (int, error) {
	w := d.newTxn()
	if err := w.begin(ctx); err != nil {
		return 0, err
	}
	k := 0
	for _, id := range ids {
		g, err := w.readGame(ctx, id)
		if errors.Is(err, d.ErrNotFound) {
			continue
		}
		if err == nil {
			err = w.removeGame(ctx, g)
		}
		if err == nil {
			err = ctx.Err()
		}
		if err != nil {
			w.rollback()
			return 0, err
		}
		k++
	}
	if _, err := w.commit(ctx); err != nil {
		return 0, err
	}
	return k, nil
}

// SetTags changes tags of a stored game (a tag given with an empty value is
// removed; names are matched without regard to case) and stores it again
// under the same id, replayed, as a new revision (SaveRecord): its
// columns, players, tags, positions, opening-tree counts and text document
// follow the new record, and it may become valid or invalid. It returns
// whether the game is valid now.
func (d *DB) SetTags(ctx context.Context, id int64, tags []record.Tag) (valid bool, err error) {
	res, err := d.save(ctx, id, anyRevision, func(old *oldGame) (draft, error) {
		rec, err := d.retag(old, tags)
		return draft{rec: rec}, err
	})
	return res.Valid, err
}

// retag reads a stored game's record and sets tags in it (SetTags).
func (d *DB) retag(old *oldGame, tags []record.Tag) (*record.Game, error) {
	id := old.id
	if len(old.text) == 0 {
		return nil, fmt.Errorf("game #%d: its record could not be read when imported; fix the file and import it again", id)
	}
	rec, err := record.NewReader(bytes.NewReader(old.text), fmt.Sprintf("#%d", id)).Next()
	if errors.Is(err, io.EOF) || rec == nil {
		return nil, fmt.Errorf("game #%d: stored record does not read: %v", id, err)
	}
	for _, t := range tags {
		if strings.EqualFold(t.Name, "Game") && t.Value == "" {
			return nil, fmt.Errorf("%w: the Game tag cannot be removed", criteria.ErrQuery)
		}
		setTagFold(rec, criteria.TagName(old.game, t.Name), t.Value)
		if strings.EqualFold(t.Name, "Result") && rec.Result != "" {
			rec.Result = t.Value // the movetext's marker says the same
		}
	}
	return rec, nil
}

// setTagFold sets (value "" removes) the tag of rec whose name equals name
// without regard to case.
func setTagFold(rec *record.Game, name, value string) {
	out := rec.Tags[:0]
	set := false
	for _, t := range rec.Tags {
		if strings.EqualFold(t.Name, name) {
			if set || value == "" {
				continue
			}
			t.Value, set = value, true
		}
		out = append(out, t)
	}
	rec.Tags = out
	if !set && value != "" {
		rec.Tags = append(rec.Tags, record.Tag{Name: name, Value: value})
	}
}
