package treeagg

import (
	"cmp"
	"context"
	"database/sql"
	"fmt"
	"slices"

	"github.com/plateau/plateau/index/internal/store"
)

// Flush adds to the tree the entries es (sorted by EntryCmp) of games, in
// key order, several rows to a statement, in stages: the rows and their
// players' counts are added up (aggregate) and so are the rows of each
// month (monthsToWrite), with no stored row read (prepare); then the stored
// np and top of the rows are read (readRows), then the chunks of the
// touched players of the moves of more than TopLen players (readChunks);
// the new counts are merged (mergeCounts) and the rows and chunks written
// back (writeRows, writeChunks); the rows of each month are upserted
// (writeMonths). A settle prepares the next slice of entries on another
// goroutine while the SQL of one runs (settle.go).
func Flush(ctx context.Context, st Stmts, es []Entry, games []Game) error {
	return prepare(es, games, false, nil).apply(ctx, st)
}

// prepare does the part of a Flush of es (sorted by EntryCmp) of games
// that reads no stored row: the result keeps no reference to es or games.
// fresh says that the tree holds none of its rows (a settle into empty
// tables): then the counts are merged here too, since there is nothing
// stored to read, and apply inserts the rows instead of upserting them.
// The month rows are made in sc (monthRows) when not nil.
func prepare(es []Entry, games []Game, fresh bool, sc *monthScratch) *flush {
	f := aggregate(es, games)
	f.months = packMonths(monthsToWrite(es, games, sc))
	f.fresh = fresh
	if fresh {
		f.pack()
	}
	return f
}

// pack merges the counts into those read (none when fresh) and packs the
// rows and chunks to write.
func (f *flush) pack() {
	f.chunks = packChunks(f.mergeCounts()) // the rows' np and top too
	f.rowVals = f.packRows()
}

// apply reads the stored rows a prepared flush touches, merges its counts
// into them and writes them back, then its months, through st; a fresh
// flush's rows are new: it reads nothing and inserts them.
func (f *flush) apply(ctx context.Context, st Stmts) error {
	if !f.fresh {
		if err := f.readRows(ctx, st); err != nil {
			return err
		}
		f.chunkRefs()
		if err := f.readChunks(ctx, st); err != nil {
			return err
		}
		f.pack()
	}
	if err := f.writeRows(ctx, st); err != nil {
		return err
	}
	if err := writeChunks(ctx, st, f.chunks, f.fresh); err != nil {
		return err
	}
	return writeMonths(ctx, st, f.months, f.fresh)
}

// flush is a Flush under way.
type flush struct {
	rows    []moveRow
	players []playerRow // the rows' players' counts, row after row
	refs    []chunkRef  // the chunks to read, row after row
	// The values of the statements that write the rows, their chunks
	// (mergeCounts) and tree_months' rows (monthsToWrite), a statement's
	// rows each (packParts).
	rowVals, chunks, months []store.Values
	// fresh: the tree holds none of the rows (prepare).
	fresh bool
}

// moveRow is a row of the tree to write: its key, what the flush adds up,
// and its players as stored, then as written.
type moveRow struct {
	k      Key
	a      agg
	np     int64 // stored, then new
	ntop   int
	top    [TopLen]Count // stored, then new
	p0, p1 int           // its players: players[p0:p1]
	c0, c1 int           // its chunks read: refs[c0:c1]
}

// playerRow is the games a player adds to a row.
type playerRow struct {
	player int64
	n      int
}

// chunkRef is a chunk of tree_players to read for a row, and its counts.
type chunkRef struct {
	row   int
	chunk int64
	es    []Count
}

// chunkRow is a chunk of tree_players to write.
type chunkRow struct {
	k     Key
	chunk int64
	data  []byte
}

// aggregate adds up the entries, in (key, move, player) order, as the rows
// and their players' counts in that order.
func aggregate(es []Entry, games []Game) *flush {
	// Counted first, so that each slice is made once at its size: grown
	// by append, they were a large part of the flush's time.
	nRows, nPlayers := 0, 0
	for i := range es {
		e := &es[i]
		fresh := i == 0 || e.Pos != es[i-1].Pos || e.Move != es[i-1].Move
		if fresh {
			nRows++
		}
		if e.Player != 0 && (fresh || e.Player != es[i-1].Player) {
			nPlayers++
		}
	}
	f := &flush{rows: make([]moveRow, 0, nRows), players: make([]playerRow, 0, nPlayers)}
	for i := 0; i < len(es); {
		k := Key{es[i].Pos, es[i].Move}
		f.rows = append(f.rows, moveRow{k: k, p0: len(f.players)})
		r := &f.rows[len(f.rows)-1]
		for ; i < len(es) && es[i].Pos == k.Pos && es[i].Move == k.Move; i++ {
			e := &es[i]
			r.a.add(&games[e.Game])
			if e.Player == 0 {
				continue
			}
			if n := len(f.players); n > r.p0 && f.players[n-1].player == e.Player {
				f.players[n-1].n++
			} else {
				f.players = append(f.players, playerRow{e.Player, 1})
			}
		}
		r.p1 = len(f.players)
	}
	return f
}

// readRows reads the stored np and top of the rows, rowsPerStmt at a time.
func (f *flush) readRows(ctx context.Context, st Stmts) error {
	args := make([]any, 0, 2*rowsPerStmt)
	for i := 0; i < len(f.rows); i += rowsPerStmt {
		part := f.rows[i:min(i+rowsPerStmt, len(f.rows))]
		sel, err := rowsStmt(ctx, st, `SELECT t.key, t.move, t.np, t.top FROM (`, `(?,?)`,
			`) v JOIN tree t ON t.key = v.column1 AND t.move = v.column2`, len(part))
		if err != nil {
			return err
		}
		args = args[:0]
		for _, r := range part {
			args = append(args, r.k.Pos, r.k.Move)
		}
		rows, err := sel.QueryContext(ctx, args...)
		if err != nil {
			return err
		}
		err = scanRows(rows, part)
		rows.Close()
		if err != nil {
			return err
		}
		if err := rows.Err(); err != nil {
			return err
		}
	}
	return nil
}

// scanRows reads the stored np and top of the rows of part that rows
// holds.
func scanRows(rows *sql.Rows, part []moveRow) error {
	var blob []byte
	at := 0
	for rows.Next() {
		var key, np int64
		var move sql.RawBytes
		if err := rows.Scan(&key, &move, &np, (*sql.RawBytes)(&blob)); err != nil {
			return err
		}
		if at = matchRow(part, at, func(r moveRow) bool { return r.k.Pos == key && r.k.Move == string(move) }); at < 0 {
			at = 0
			continue
		}
		r := &part[at]
		t, err := DecodeTop(r.top[:0], blob)
		if err != nil || len(t) > TopLen {
			return fmt.Errorf("move %s of position %x: bad top players", r.k.Move, r.k.Pos)
		}
		r.np, r.ntop = np, len(t)
		at++
	}
	return nil
}

// chunkRefs lists the chunks to read: those of the touched players of the
// moves of more than TopLen players.
func (f *flush) chunkRefs() {
	for i := range f.rows {
		r := &f.rows[i]
		r.c0 = len(f.refs)
		if r.np > TopLen {
			for _, p := range f.players[r.p0:r.p1] {
				c := playerChunk(p.player)
				if len(f.refs) == r.c0 || f.refs[len(f.refs)-1].chunk != c {
					f.refs = append(f.refs, chunkRef{row: i, chunk: c})
				}
			}
		}
		r.c1 = len(f.refs)
	}
}

// readChunks reads the chunks of refs, rowsPerStmt at a time.
func (f *flush) readChunks(ctx context.Context, st Stmts) error {
	args := make([]any, 0, 3*rowsPerStmt)
	for i := 0; i < len(f.refs); i += rowsPerStmt {
		part := f.refs[i:min(i+rowsPerStmt, len(f.refs))]
		sel, err := rowsStmt(ctx, st, `SELECT t.key, t.move, t.chunk, t.data FROM (`, `(?,?,?)`,
			`) v JOIN tree_players t ON t.key = v.column1 AND t.move = v.column2 AND t.chunk = v.column3`, len(part))
		if err != nil {
			return err
		}
		args = args[:0]
		for _, c := range part {
			k := f.rows[c.row].k
			args = append(args, k.Pos, k.Move, c.chunk)
		}
		rows, err := sel.QueryContext(ctx, args...)
		if err != nil {
			return err
		}
		err = f.scanChunks(rows, part)
		rows.Close()
		if err != nil {
			return err
		}
		if err := rows.Err(); err != nil {
			return err
		}
	}
	return nil
}

// scanChunks decodes the chunks of part that rows holds.
func (f *flush) scanChunks(rows *sql.Rows, part []chunkRef) error {
	var blob []byte
	at := 0
	for rows.Next() {
		var key, chunk int64
		var move sql.RawBytes
		if err := rows.Scan(&key, &move, &chunk, (*sql.RawBytes)(&blob)); err != nil {
			return err
		}
		if at = matchRow(part, at, func(c chunkRef) bool {
			k := f.rows[c.row].k
			return k.Pos == key && c.chunk == chunk && k.Move == string(move)
		}); at < 0 {
			at = 0
			continue
		}
		var err error
		if part[at].es, err = decodeChunk(nil, chunk, blob); err != nil {
			return err
		}
		at++
	}
	return nil
}

// mergeCounts adds the flush's counts to the stored ones: each row's new
// np and top, and the chunks to write.
func (f *flush) mergeCounts() []chunkRow {
	var writes []chunkRow
	var adds, stored, merged, grown []Count
	for i := range f.rows {
		r := &f.rows[i]
		adds = adds[:0]
		for _, p := range f.players[r.p0:r.p1] {
			adds = append(adds, Count{p.player, int64(p.n)})
		}
		if len(adds) == 0 {
			continue
		}
		grown = grown[:0]
		if r.np <= TopLen {
			// Its players are all in top.
			stored = append(stored[:0], r.top[:r.ntop]...)
			slices.SortFunc(stored, func(x, y Count) int { return cmp.Compare(x.Player, y.Player) })
			var fresh int
			merged, fresh = addCounts(merged[:0], stored, adds, &grown)
			r.np += int64(fresh)
			r.ntop = len(bestOf(r.top[:0], merged))
			if r.np > TopLen {
				// More players: every count goes to chunks.
				for c, part := range chunksOf(merged) {
					writes = append(writes, chunkRow{r.k, c, encodeChunk(nil, c, part)})
				}
			}
			continue
		}
		a := 0
		for _, ref := range f.refs[r.c0:r.c1] {
			b := a
			for b < len(adds) && playerChunk(adds[b].Player) == ref.chunk {
				b++
			}
			var fresh int
			merged, fresh = addCounts(merged[:0], ref.es, adds[a:b], &grown)
			r.np += int64(fresh)
			writes = append(writes, chunkRow{r.k, ref.chunk, encodeChunk(nil, ref.chunk, merged)})
			a = b
		}
		stored = append(stored[:0], r.top[:r.ntop]...)
		r.ntop = len(mergeTop(r.top[:0], stored, grown))
	}
	return writes
}

// rowsUpsert is what makes writeRows' insert an upsert.
const rowsUpsert = `ON CONFLICT(key, move) DO UPDATE SET n = n + excluded.n, scored = scored + excluded.scored,
		s0 = s0 + excluded.s0, s1 = s1 + excluded.s1, w0 = w0 + excluded.w0, w1 = w1 + excluded.w1,
		first = CASE WHEN first = '' OR (excluded.first <> '' AND excluded.first < first) THEN excluded.first ELSE first END,
		last = CASE WHEN excluded.last > last THEN excluded.last ELSE last END,
		np = excluded.np, top = excluded.top`

// writeRows upserts the rows (packRows), rowsPerStmt at a time
// (store.PartLen); a fresh flush inserts them.
func (f *flush) writeRows(ctx context.Context, st Stmts) error {
	return execParts(ctx, st, `INSERT INTO tree(key, move, n, scored, s0, s1, w0, w1, first, last, np, top)`, `(?,?,?,?,?,?,?,?,?,?,?,?)`,
		upsert(rowsUpsert, f.fresh), 12, f.rowVals)
}

// packRows packs the values of the rows to write, after mergeCounts.
func (f *flush) packRows() []store.Values {
	var top []byte
	return packParts(len(f.rows), 12, 40, func(i int, v *store.Values) {
		r := &f.rows[i]
		v.Int(r.k.Pos)
		v.Text(r.k.Move)
		r.a.pack(v)
		v.Int(r.np)
		if r.ntop == 0 {
			v.Blob(nil)
			return
		}
		top = encodeTop(top[:0], r.top[:r.ntop])
		v.Blob(top)
	})
}

// writeChunks upserts the chunks (packChunks), rowsPerStmt at a time
// (store.PartLen); inserts them when fresh.
func writeChunks(ctx context.Context, st Stmts, chunks []store.Values, fresh bool) error {
	return execParts(ctx, st, `INSERT INTO tree_players(key, move, chunk, data)`, `(?,?,?,?)`,
		upsert(`ON CONFLICT(key, move, chunk) DO UPDATE SET data = excluded.data`, fresh), 4, chunks)
}

// packChunks packs the values of the chunks to write.
func packChunks(writes []chunkRow) []store.Values {
	return packParts(len(writes), 4, 64, func(i int, v *store.Values) {
		c := &writes[i]
		v.Int(c.k.Pos)
		v.Text(c.k.Move)
		v.Int(c.chunk)
		v.Blob(c.data)
	})
}

// packParts packs n rows of perRow values and about data bytes of texts
// and blobs each, rowsPerStmt a statement or fewer (store.PartLen): put
// adds row i's values.
func packParts(n, perRow, data int, put func(i int, v *store.Values)) []store.Values {
	out := make([]store.Values, 0, n/rowsPerStmt+8)
	for i := 0; i < n; {
		k := store.PartLen(n-i, rowsPerStmt)
		out = append(out, store.Values{})
		v := &out[len(out)-1]
		v.Grow(k*perRow, k*data)
		for j := i; j < i+k; j++ {
			put(j, v)
		}
		i += k
	}
	return out
}

// execParts runs the statement head VALUES row, row… tail once a part
// of parts (packParts; perRow values a row), through ExecValues when the
// statement is a RawStmt.
func execParts(ctx context.Context, st Stmts, head, row, tail string, perRow int, parts []store.Values) error {
	for i := range parts {
		v := &parts[i]
		ins, err := rowsExec(ctx, st, head, row, tail, v.Len()/perRow)
		if err != nil {
			return err
		}
		if rs, ok := ins.(valuesExec); ok {
			_, err = rs.ExecValues(ctx, v)
		} else {
			_, err = ins.ExecContext(ctx, v.Args()...)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// valuesExec is a statement that runs with packed values (store.RawStmt).
type valuesExec interface {
	ExecValues(ctx context.Context, v *store.Values) (sql.Result, error)
}

// upsert is the tail of a write statement: onConflict, or none when the
// rows are new (fresh): an insert then, which fails rather than count
// twice should a row be stored after all.
func upsert(onConflict string, fresh bool) string {
	if fresh {
		return ""
	}
	return onConflict
}

// matchRow is the index of the row of part that a statement's result row
// is (same), looked for from at on, where the join's outer loop puts it,
// then anywhere; -1 if none.
func matchRow[T any](part []T, at int, same func(T) bool) int {
	for ; at < len(part); at++ {
		if same(part[at]) {
			return at
		}
	}
	return slices.IndexFunc(part, same)
}
