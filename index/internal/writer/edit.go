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
	"github.com/plateau/plateau/index/internal/posrun"
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
	p0, p1 sql.NullInt64
	file   string
	offset sql.NullInt64
	line   sql.NullInt64
	size   sql.NullInt64
	text   []byte
}

// readGame reads a stored game's row and record text.
func (w *txn) readGame(ctx context.Context, id int64) (*oldGame, error) {
	g := &oldGame{id: id}
	var file sql.NullString
	err := w.tx.QueryRowContext(ctx, `SELECT g.game, g.valid, g.p0, g.p1, s.path, g.offset, g.line, g.size
		FROM games g LEFT JOIN sources s ON s.id = g.source WHERE g.id = ?`, id).
		Scan(&g.game, &g.valid, &g.p0, &g.p1, &file, &g.offset, &g.line, &g.size)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("game #%d: %w", id, w.d.ErrNotFound)
	}
	if err != nil {
		return nil, err
	}
	g.file = file.String
	g.text, err = w.readText(ctx, id)
	return g, err
}

// readText reads a stored game's record text from its block, kept
// decoded for the next game of the same block (gametext.Cache).
func (w *txn) readText(ctx context.Context, id int64) ([]byte, error) {
	var block, off, n int64
	if err := w.tx.QueryRowContext(ctx, `SELECT tblock, toff, tlen FROM games WHERE id = ?`, id).Scan(&block, &off, &n); err != nil {
		return nil, err
	}
	if n <= 0 {
		return nil, nil
	}
	data, err := w.textCache.Block(ctx, w.tx, block)
	if err != nil {
		return nil, fmt.Errorf("game #%d text: %w", id, err)
	}
	if off < 0 || off+n > int64(len(data)) {
		return nil, fmt.Errorf("game #%d text: bad block reference", id)
	}
	return data[off : off+n], nil
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
// writer's transaction, and lists its id for the text index: the rows its
// stored record gives again (removeRecordRows), its name-index entries, its
// row and its players left without games.
func (w *txn) removeGame(ctx context.Context, g *oldGame) error {
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
	if g.valid && len(g.text) > 0 {
		if err := w.removeRecordRows(ctx, g); err != nil {
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

// removeRecordRows replays a valid game's stored record and takes out the
// rows it gives: its tags and opening-tree counts; its position
// occurrences stay in their runs until a merge drops them (readers join
// the games table, internal/posrun), and counts that would not are told
// (posrun.NoteDeleted).
func (w *txn) removeRecordRows(ctx context.Context, g *oldGame) error {
	rec, err := record.NewReader(bytes.NewReader(g.text), "db").Next()
	if err != nil {
		return fmt.Errorf("game #%d: stored record: %w", g.id, err)
	}
	p := w.d.prepareStored(g.game, rec, g.file)
	if !p.Valid {
		return nil
	}
	if err := posrun.NoteDeleted(ctx, txStmts{w}); err != nil {
		return fmt.Errorf("game #%d: %w", g.id, err)
	}
	for _, t := range p.Tags {
		if _, err := w.exec(ctx, `DELETE FROM tags WHERE tag = (SELECT id FROM tag_names WHERE name = ?) AND value = ? AND game = ?`,
			t.Name, t.Value, g.id); err != nil {
			return fmt.Errorf("game #%d tags: %w", g.id, err)
		}
	}
	s0, s1, scored := gamerows.Scores(p.Result)
	tg := treeagg.Game{S0: s0, S1: s1, Scored: scored}
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
// under the same id, replayed: its columns, players, tags, positions,
// opening-tree counts and text document follow the new record, and it may
// become valid or invalid. It returns whether the game is valid now.
func (d *DB) SetTags(ctx context.Context, id int64, tags []record.Tag) (valid bool, err error) {
	w := d.newTxn()
	if err := w.begin(ctx); err != nil {
		return false, err
	}
	defer w.rollback()
	old, err := w.readGame(ctx, id)
	if err != nil {
		return false, err
	}
	rec, err := d.retag(old, tags)
	if err != nil {
		return false, err
	}
	if err := w.removeGame(ctx, old); err != nil {
		return false, err
	}
	p := d.prepareStored(old.game, rec, old.file)
	p.ID = id
	p.Offset, p.Line, p.Size = old.offset.Int64, int(old.line.Int64), old.size.Int64
	_, dup, err := w.add(ctx, p)
	if err != nil {
		return false, err
	}
	if dup {
		var other int64
		w.tx.QueryRowContext(ctx, `SELECT id FROM games WHERE hash = ?`, p.Hash[:]).Scan(&other)
		return false, fmt.Errorf("%w: with these tags game #%d would be game #%d", ErrDuplicate, id, other)
	}
	if _, err := w.tx.ExecContext(ctx, `INSERT OR IGNORE INTO text_todo(id) VALUES(?)`, id); err != nil {
		return false, err
	}
	if _, err := w.commit(ctx); err != nil {
		return false, err
	}
	run(d.Tuning.AfterEditCommit)
	return p.Valid, d.SyncText(ctx)
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
