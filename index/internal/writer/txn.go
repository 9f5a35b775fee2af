package writer

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"runtime/pprof"
	"slices"
	"strings"

	"github.com/plateau/plateau/index/internal/gamerows"
	"github.com/plateau/plateau/index/internal/gametext"
	"github.com/plateau/plateau/index/internal/openings"
	"github.com/plateau/plateau/index/internal/playerlines"
	"github.com/plateau/plateau/index/internal/posrun"
	"github.com/plateau/plateau/index/internal/store"
	"github.com/plateau/plateau/index/internal/textindex"
	"github.com/plateau/plateau/index/internal/treeagg"
)

// txn is the writer's one open transaction, of an import or an edit, and
// what it holds for its commit.
type txn struct {
	d     *DB
	tx    *sql.Tx
	ids   *store.IDs   // players, tag names and sources
	names *store.Names // the name index (read by internal/players)
	sigs  sigStore     // the games' pattern signatures (patsig.go)
	// per transaction
	positions []posrun.Pos
	runMem    posrun.Scratch // posrun.Encode's memory, used again by every commit
	// The opening-tree rows of the transaction's games, one a move of a
	// game's first gamerows.TreeDepth plies, aggregated by treeagg.Flush:
	// appending to a slice and sorting it once costs less than keeping two
	// maps keyed by move text up to date game after game.
	treeEntries []treeagg.Entry
	treeGames   []treeagg.Game
	// A bulk import spools them instead (spool, treespool.go): spooled
	// counts the entries spooled since the tree was last settled;
	// treeSettled marks a transaction that settled the spool (before a
	// removal).
	spool       bool
	spooled     int
	treeSettled bool
	spoolBuf    []byte
	docs        []textindex.Doc
	games       int
	// held is what the transaction holds in memory (positions and text
	// documents, in bytes, roughly); docBytes the documents' share, which
	// stays held after the commit until the text index has them.
	held, docBytes int
	hw             int64                 // text index high-water mark to store with the next commit
	replace        bool                  // ImportOptions.Replace
	added          bool                  // games added, not read from a file: nothing to supersede (AddRecords)
	old            map[string]*oldSource // games stored from a file before this import (supersede.go)
	replaced       int                   // games removed as superseded
	edit           store.Stmts           // the statements of removeGame and flushRows (edit.go)
	textCache      gametext.Cache        // the last text block readGame read
	texts          *store.Texts          // canonical texts, zstd-compressed in blocks of several games

	insGame  store.Prepared
	gameVals store.Values // the values of insGame's run (gameValues)

	tags []tagRow // tags of the transaction's games, stored by flushTags
	// playerLines are the rows of the transaction's games in the table of
	// players' lines, stored by flushPlayerLines.
	playerLines []playerlines.Row
	// events are the events of the transaction's valid games not yet
	// stored in event_names (flushPlayerLines stores them).
	events map[string]bool

	// conn is the import's own connection (store.WriterConn); nil: the
	// pool's. raw are its RawStmts, through which the writer runs its
	// games' row and the multi-row inserts of flushRows (txStmts.ExecStmt);
	// nil with conn.
	conn *sql.Conn
	raw  *store.RawStmts
	// Position runs are merged beside the writer (bgMerge, an import:
	// posrun.Beside), whose failure the commit reports after it; final
	// marks the import's last commit, which waits for the merge in flight
	// and merges what is left in the writer.
	bgMerge bool
	merges  *posrun.Beside
	final   bool
	stored  int64 // position occurrences stored by this writer (the tail merge's budget)
}

// tagRow is a row of the tags table.
type tagRow struct {
	tag   int64
	value string
	game  int64
}

func (d *DB) newTxn() *txn {
	return &txn{d: d, ids: store.NewIDs(d.Fold),
		names: store.NewNames(d.Fold), merges: d.Pos.Beside(), texts: store.NewTexts(zenc)}
}

func (w *txn) begin(ctx context.Context) error {
	var tx *sql.Tx
	var err error
	if w.conn != nil {
		tx, err = w.conn.BeginTx(ctx, nil)
	} else {
		tx, err = w.d.SQL.BeginTx(ctx, nil)
	}
	if err != nil {
		return err
	}
	w.tx = tx
	w.insGame, err = txStmts{w}.ExecStmt(ctx, `INSERT INTO games(id, hash, game, valid, p0, p1, event, site, date, result, termination, plies,
		source, offset, line, size, err, err_line, err_col, err_ply, err_move, err_rule, fen, final, moves, tblock, toff, tlen)
		VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?) ON CONFLICT(hash) DO NOTHING`)
	if err == nil {
		err = w.texts.Begin(ctx, tx)
	}
	if err == nil && w.bgMerge && !w.final {
		// Before any game of the transaction: the merge reads the live
		// games as committed.
		err = w.merges.Start(context.WithoutCancel(ctx), w.tx)
	}
	if err != nil {
		tx.Rollback()
		w.tx = nil
	}
	return err
}

// add writes one prepared game; dup reports an already stored game. It
// stores the game's row (insertGame) and text, then keeps its other rows
// for the transaction's flush (holdRows).
func (w *txn) add(ctx context.Context, p *prepared) (id int64, dup bool, err error) {
	return w.addAhead(ctx, p, nil)
}

// addAhead is add with what a replay worker made of a valid game ahead
// of the writer (aheadOf); nil: the writer makes it.
func (w *txn) addAhead(ctx context.Context, p *prepared, a *ahead) (id int64, dup bool, err error) {
	p0, err := w.ids.Player(ctx, txStmts{w}, p.Players[0])
	if err != nil {
		return 0, false, err
	}
	p1, err := w.ids.Player(ctx, txStmts{w}, p.Players[1])
	if err != nil {
		return 0, false, err
	}
	if skip, err := w.supersede(ctx, p); err != nil || skip {
		return 0, skip, err
	}
	id, dup, err = w.insertGame(ctx, p, p0, p1)
	if err != nil || dup {
		return 0, dup, err
	}
	if err := w.texts.Append(p.Text); err != nil {
		return 0, false, err
	}
	w.games++
	if err := w.addWarnings(ctx, id, p.Warns); err != nil {
		return 0, false, err
	}
	if !p.Valid {
		return id, false, nil
	}
	if a == nil {
		a = aheadOf(w.d.Pos, p)
	}
	if err := w.holdRows(ctx, id, p, a, [2]any{p0, p1}); err != nil {
		return 0, false, err
	}
	w.sigs.hold(w.tx, id, p.Sig) // written by flushRows
	return id, false, nil
}

// insertGame inserts the game's row (players p0 and p1: ids or nil); dup
// reports an already stored game. A valid game replaces the same record
// stored invalid (its game was unknown then, or the rules were wrong).
func (w *txn) insertGame(ctx context.Context, p *prepared, p0, p1 any) (id int64, dup bool, err error) {
	src, err := w.ids.Source(ctx, txStmts{w}, p.File)
	if err != nil {
		return 0, false, err
	}
	tblock, toff := w.texts.Pos()
	v := &w.gameVals
	gameValues(v, p, p0, p1, src, tblock, toff)
	res, err := w.execGame(ctx, v)
	if err != nil {
		return 0, false, fmt.Errorf("store game: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		if !p.Valid {
			return 0, true, nil
		}
		var old int64
		var oldValid bool
		if err := w.tx.QueryRowContext(ctx, `SELECT id, valid FROM games WHERE hash = ?`, p.Hash[:]).Scan(&old, &oldValid); err != nil {
			return 0, false, err
		}
		if oldValid {
			return 0, true, nil
		}
		if _, err := w.tx.ExecContext(ctx, `DELETE FROM games WHERE id = ?`, old); err != nil {
			return 0, false, err
		}
		if err := openings.Forget(ctx, w.tx, old); err != nil {
			return 0, false, err
		}
		// A game gone: counts cached or stored (internal/stats) are stale.
		if _, err := w.tx.ExecContext(ctx, `INSERT INTO meta(k, v) VALUES(?, 1) ON CONFLICT(k) DO UPDATE SET v = v + 1`, EditsKey); err != nil {
			return 0, false, err
		}
		if res, err = w.execGame(ctx, v); err != nil {
			return 0, false, fmt.Errorf("store game: %w", err)
		}
	}
	id, err = res.LastInsertId()
	return id, false, err
}

// gameValues packs into v the values of the games row of p (players p0
// and p1: ids or nil; source src; text at toff in block tblock), in
// insGame's order: packed, they cost no conversion to an interface each.
func gameValues(v *store.Values, p *prepared, p0, p1 any, src, tblock int64, toff int) {
	v.Reset()
	v.Grow(28, len(p.Hash)+len(p.Moves)+len(p.Game)+len(p.Event)+len(p.Site)+len(p.Date)+len(p.Result)+len(p.Term)+len(p.FEN)+16)
	intOrNull(v, p.ID) // a new id, unless an edit stores a game again
	v.Blob(p.Hash[:])
	v.Text(p.Game)
	v.Int(boolInt(p.Valid))
	anyInt(v, p0)
	anyInt(v, p1)
	for _, t := range [...]string{p.Event, p.Site, p.Date, p.Result, p.Term} {
		textOrNull(v, t)
	}
	v.Int(int64(p.Plies))
	v.Int(src)
	v.Int(p.Offset)
	v.Int(int64(p.Line))
	v.Int(p.Size)
	var e gamerows.ErrInfo
	if p.Err != nil {
		e = *p.Err
		v.Text(e.Msg)
	} else {
		v.Blob(nil) // NULL
	}
	v.Int(int64(e.Line))
	v.Int(int64(e.Col))
	v.Int(int64(e.Ply))
	textOrNull(v, e.Move)
	textOrNull(v, e.Rule)
	textOrNull(v, p.FEN)
	if p.Valid {
		v.Int(int64(p.Final))
		v.Blob(p.Moves)
	} else {
		v.Blob(nil)
		v.Blob(nil)
	}
	v.Int(tblock)
	v.Int(int64(toff))
	v.Int(int64(len(p.Text)))
}

// execGame runs insGame with the values v.
func (w *txn) execGame(ctx context.Context, v *store.Values) (sql.Result, error) {
	if raw, ok := w.insGame.(*store.RawStmt); ok {
		return raw.ExecValues(ctx, v)
	}
	return w.insGame.ExecContext(ctx, v.Args()...)
}

// textOrNull adds t, NULL for an empty one.
func textOrNull(v *store.Values, t string) {
	if t == "" {
		v.Blob(nil)
		return
	}
	v.Text(t)
}

// intOrNull adds i, NULL for 0.
func intOrNull(v *store.Values, i int64) {
	if i == 0 {
		v.Blob(nil)
		return
	}
	v.Int(i)
}

// anyInt adds an id given as an int64 or nil (NULL).
func anyInt(v *store.Values, id any) {
	if id == nil {
		v.Blob(nil)
		return
	}
	v.Int(id.(int64))
}

func boolInt(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// holdRows keeps the rows of valid game id for the transaction's flush:
// its tags, position occurrences, opening-tree moves (players pls: ids or
// nil), name-index entries and text document, from a (aheadOf).
func (w *txn) holdRows(ctx context.Context, id int64, p *prepared, a *ahead, pls [2]any) error {
	for _, t := range p.Tags {
		tag, err := w.ids.Tag(ctx, txStmts{w}, t.Name)
		if err != nil {
			return err
		}
		w.tags = append(w.tags, tagRow{tag, t.Value, id}) // stored by flushTags
		w.held += len(t.Value) + 40
	}
	w.positions = appendOcc(w.positions, a.occ, id)
	if len(p.Tree) > 0 {
		s0, s1, scored := gamerows.Scores(p.Result)
		g := int32(len(w.treeGames))
		w.treeGames = append(w.treeGames, treeagg.Game{Date: p.Date, S0: s0, S1: s1, Scored: scored})
		var pids [2]int64
		for i, pl := range pls {
			if pl != nil {
				pids[i] = pl.(int64)
			}
		}
		for _, t := range p.Tree {
			w.treeEntries = append(w.treeEntries, treeagg.Entry{Pos: int64(t.Key ^ a.salt), Move: t.Move, Player: pids[t.Mover], Game: g})
		}
	}
	held, err := w.names.Add(ctx, txStmts{w}, id, pls, p.Players)
	w.held += held
	if err != nil {
		return err
	}
	w.holdPlayerLines(id, p, a.elo, pls)
	doc := a.doc
	doc.ID = id
	w.docs = append(w.docs, doc)
	w.docBytes += len(p.Comment) + len(p.Event) + len(p.Site) + len(p.Annot) + len(p.Players[0]) + len(p.Players[1]) + 64
	w.held += 24*len(a.occ) + 64*len(p.Tree)
	return nil
}

// storedKey is the key under which an occurrence of a salted key at ply
// (vari 1 in a variation) is stored: the tree aggregate counts the main
// line's first TreeDepth plies (posrun.Store.Key).
func storedKey(pos *posrun.Store, salted int64, ply, vari int) int64 {
	return pos.Key(salted, vari == 0 && ply < gamerows.TreeDepth)
}

// flushHeld stores, before the commit, the rows the transaction holds in
// memory (positions as a run of their own, tags, tree rows) once they
// weigh txHeld, so that a long transaction's memory stays bounded: the
// B-tree pages they dirty wait in the writer's page cache (store.WriterCacheKiB)
// for the commit, which writes each of them once.
func (w *txn) flushHeld(ctx context.Context) error {
	if w.tx == nil {
		return nil
	}
	sctx := context.WithoutCancel(ctx) // see txn.writeChunk
	var err error
	pprof.Do(sctx, pprof.Labels("write", "flush"), func(context.Context) { err = w.flushRows(sctx) })
	if err != nil {
		w.rollback()
		return err
	}
	w.held = 0
	run(w.d.Tuning.AfterFlushHeld)
	return nil
}

// flushRows writes the accumulated positions (as a new run, posrun)
// and tree rows, in key order.
func (w *txn) flushRows(ctx context.Context) error {
	if err := w.sigs.flush(ctx, w.tx); err != nil { // patsig.go
		return err
	}
	// The positions are sorted and encoded in a goroutine while the
	// writer stores the tags and the tree rows: the writer is the import's
	// one serial stage, and the sort its largest piece of Go work.
	ps := w.positions
	encoded := make(chan posrun.Encoded, 1)
	go pprof.Do(context.WithoutCancel(ctx), pprof.Labels("write", "sort"), func(context.Context) { encoded <- posrun.Encode(ps, &w.runMem) })
	// So are the opening-tree entries, that treeagg.Flush reads in order,
	// and encoded when spooled.
	treeSorted := make(chan struct{})
	go pprof.Do(context.WithoutCancel(ctx), pprof.Labels("write", "sort"), func(context.Context) {
		slices.SortFunc(w.treeEntries, treeagg.EntryCmp)
		if w.spool && len(w.treeEntries) > 0 {
			w.spoolBuf = treeagg.EncodeSpool(w.spoolBuf[:0], w.treeEntries, w.treeGames)
		}
		close(treeSorted)
	})
	received := false
	defer func() {
		<-treeSorted
		if !received {
			<-encoded // ps is the writer's again
		}
		w.positions = ps[:0]
	}()
	if err := w.flushTags(ctx); err != nil {
		return err
	}
	if err := w.names.Flush(ctx, txStmts{w}); err != nil {
		return err
	}
	if err := w.flushPlayerLines(ctx); err != nil {
		return err
	}
	<-treeSorted
	if err := w.flushTree(ctx); err != nil {
		return fmt.Errorf("store opening tree: %w", err)
	}
	w.treeEntries, w.treeGames = w.treeEntries[:0], w.treeGames[:0]
	r := <-encoded
	received = true
	if err := posrun.WriteRun(ctx, w.tx, r); err != nil {
		return fmt.Errorf("store positions: %w", err)
	}
	w.stored += r.N
	return nil
}

// flushTree adds the transaction's opening-tree entries to the tree, or
// spools them (treespool.go).
func (w *txn) flushTree(ctx context.Context) error {
	if !w.spool {
		return treeagg.Flush(ctx, txStmts{w}, w.treeEntries, w.treeGames)
	}
	if len(w.treeEntries) == 0 {
		return nil
	}
	w.spooled += len(w.treeEntries)
	return treeagg.Spool(ctx, txStmts{w}, w.spoolBuf)
}

// flushTags stores the tags of the transaction's games, in key order,
// several to a statement.
func (w *txn) flushTags(ctx context.Context) error {
	slices.SortFunc(w.tags, func(x, y tagRow) int {
		if c := cmp.Compare(x.tag, y.tag); c != 0 {
			return c
		}
		if c := strings.Compare(x.value, y.value); c != 0 {
			return c
		}
		return cmp.Compare(x.game, y.game)
	})
	err := store.InsertRows(ctx, txStmts{w}, `INSERT OR IGNORE INTO tags(tag, value, game)`, `(?,?,?)`, w.tags,
		func(v *store.Values, t *tagRow) { v.Int(t.tag); v.Text(t.value); v.Int(t.game) })
	if err != nil {
		return fmt.Errorf("store tags: %w", err)
	}
	w.tags = w.tags[:0]
	return nil
}

// commit writes the pending rows and commits; it returns the text documents
// of the committed games.
func (w *txn) commit(ctx context.Context) ([]textindex.Doc, error) {
	if w.tx == nil && w.final && w.merges.InFlight() {
		// The last commit stores the merge in flight.
		if err := w.begin(ctx); err != nil {
			return nil, err
		}
	}
	if w.tx == nil {
		if w.final {
			// The last transaction ended with the last chunk: its runs
			// (several when it stored rows before its commit) are merged
			// as a last commit's are.
			return nil, w.mergeAfterCommit(ctx)
		}
		return nil, nil
	}
	sctx := context.WithoutCancel(ctx) // see txn.writeChunk
	if err := w.texts.Flush(); err != nil {
		w.rollback()
		return nil, err
	}
	if err := w.texts.Store(sctx, w.tx); err != nil {
		w.rollback()
		return nil, err
	}
	var err error
	pprof.Do(sctx, pprof.Labels("write", "flush"), func(context.Context) { err = w.flushRows(sctx) })
	if err != nil {
		w.rollback()
		return nil, err
	}
	if err := w.drainMerge(sctx, w.final); err != nil {
		w.rollback()
		return nil, err
	}
	if w.hw > 0 {
		if err := store.SetMeta(sctx, w.tx, "text_hw", w.hw); err != nil {
			w.rollback()
			return nil, err
		}
	}
	if s, ok := w.insGame.(*sql.Stmt); ok {
		s.Close()
	}
	pprof.Do(sctx, pprof.Labels("write", "commit"), func(context.Context) { err = w.tx.Commit() })
	w.tx = nil
	if !w.merges.InFlight() {
		// A merge that ended in this transaction is listed (or, the
		// commit failed, its blocks are an orphan for the next merge).
		w.merges.Release()
	}
	w.games = 0
	w.held, w.docBytes = 0, 0
	w.treeSettled = false
	docs := w.docs
	w.docs = nil
	if err != nil {
		// What the cache learnt in a rolled-back transaction is void.
		w.ids.Forget()
		w.names.Forget()
		return nil, err
	}
	// The games are committed; merging position runs is a transaction of
	// its own (a failure leaves the runs as they were).
	run(w.d.Tuning.AfterCommit)
	if err := w.merges.Err(); err != nil {
		return docs, afterCommit{err}
	}
	if w.bgMerge && !w.final {
		return docs, nil // merged beside the writer (posrun.Beside)
	}
	return docs, w.mergeAfterCommit(ctx)
}

// mergeAfterCommit merges the full levels of position runs in the
// writer, after a commit (an afterCommit error: the games are committed),
// and after an import's last commit the runs but the largest, within a
// budget of TailFactor times the occurrences the import stored.
func (w *txn) mergeAfterCommit(ctx context.Context) error {
	var tail int64
	if w.final {
		tail = w.d.Tuning.tailFactor() * w.stored
	}
	var err error
	pprof.Do(ctx, pprof.Labels("write", "merge"), func(context.Context) { err = w.d.Pos.MergeLevels(ctx, tail) })
	if err != nil {
		return afterCommit{err}
	}
	return nil
}

// afterCommit is an error of the work after a commit (merging position
// runs): the transaction's games are committed all the same. An import
// interrupted during a merge reported the games of that commit as undone
// although the database held them.
type afterCommit struct{ err error }

func (e afterCommit) Error() string { return e.err.Error() }
func (e afterCommit) Unwrap() error { return e.err }

// Committed reports whether an error of a commit (or of an import), if
// any, left the transaction committed: an error of the merges after it.
func Committed(err error) bool {
	var ac afterCommit
	return err == nil || errors.As(err, &ac)
}

func (w *txn) rollback() {
	// The merge's blocks of this transaction are undone: it cannot go on.
	w.stopMerge()
	w.texts.Discard()
	if w.tx != nil {
		w.tx.Rollback()
		w.tx = nil
	}
	w.games = 0
	w.docs = nil
	w.positions = w.positions[:0]
	w.treeEntries, w.treeGames = w.treeEntries[:0], w.treeGames[:0]
	w.tags = w.tags[:0]
	w.playerLines = w.playerLines[:0]
	w.names.Discard()
	w.ids.Forget()
	w.names.Forget()
	w.held, w.docBytes = 0, 0
	w.treeSettled = false
}

// tailFactor bounds the tail merge of an import's end: the runs merged
// hold at most tailFactor times the occurrences the import stored
// (Tuning.TailFactor for tests).
const tailFactor = 4

// drainMerge stores the blocks of the merge in flight that are ready
// (wait: every one, until the merge ends) in the writer's transaction
// (posrun.Beside.Drain).
func (w *txn) drainMerge(ctx context.Context, wait bool) error {
	return w.merges.Drain(ctx, w.tx, wait)
}

// stopMerge cancels the merge in flight, if any, and gives up the merge
// lock.
func (w *txn) stopMerge() { w.merges.Stop() }
