package index

import (
	"cmp"
	"context"
	"database/sql"
	"fmt"
	"slices"
)

// flushTree stores the transaction's opening-tree aggregate (the sorted
// w.treeEntries) in key order, several rows to a statement: it reads the
// stored np and top of the moves it updates, then the chunks of the
// touched players of the moves of more than topLen players, and writes
// the rows and chunks back (treetop.go).
func (w *writer) flushTree(ctx context.Context) error {
	type playerRow struct {
		k treePlayerKey
		n int
	}
	type treeRow struct {
		k      treeKey
		a      treeAgg
		np     int64 // stored, then new
		ntop   int
		top    [topLen]topEntry // stored, then new
		p0, p1 int              // its players: prows[p0:p1]
		c0, c1 int              // its chunks read: refs[c0:c1]
	}
	// The entries, sorted by flushRows in (key, move, player) order, make
	// the rows and their players' counts in that order.
	es := w.treeEntries
	// Counted first, so that each slice is made once at its size: grown
	// by append, they were a sixth of flushTree's time (growslice, 5.3 of
	// 30 s in an import of 1,000,000 Ōgi games).
	nRows, nPlayers := 0, 0
	for i := range es {
		e := &es[i]
		fresh := i == 0 || e.key != es[i-1].key || e.move != es[i-1].move
		if fresh {
			nRows++
		}
		if e.player != 0 && (fresh || e.player != es[i-1].player) {
			nPlayers++
		}
	}
	trows := make([]treeRow, 0, nRows)
	prows := make([]playerRow, 0, nPlayers)
	for i := 0; i < len(es); {
		k := treeKey{es[i].key, es[i].move}
		trows = append(trows, treeRow{k: k, p0: len(prows)})
		r := &trows[len(trows)-1]
		for ; i < len(es) && es[i].key == k.key && es[i].move == k.move; i++ {
			e := &es[i]
			r.a.add(&w.treeGames[e.game])
			if e.player == 0 {
				continue
			}
			if n := len(prows); n > r.p0 && prows[n-1].k.player == e.player {
				prows[n-1].n++
			} else {
				prows = append(prows, playerRow{treePlayerKey{k, e.player}, 1})
			}
		}
		r.p1 = len(prows)
	}

	// The stored rows, in the order of part (the join's outer loop).
	args := make([]any, 0, 10*rowsPerInsert)
	var blob []byte
	for i := 0; i < len(trows); i += rowsPerInsert {
		part := trows[i:min(i+rowsPerInsert, len(trows))]
		sel, err := w.rowsStmt(ctx, `SELECT t.key, t.move, t.np, t.top FROM (`, `(?,?)`,
			`) v JOIN tree t ON t.key = v.column1 AND t.move = v.column2`, len(part))
		if err != nil {
			return err
		}
		args = args[:0]
		for _, r := range part {
			args = append(args, r.k.key, r.k.move)
		}
		rows, err := sel.QueryContext(ctx, args...)
		if err != nil {
			return err
		}
		at := 0
		for rows.Next() {
			var key, np int64
			var move sql.RawBytes
			if err := rows.Scan(&key, &move, &np, (*sql.RawBytes)(&blob)); err != nil {
				rows.Close()
				return err
			}
			if at = matchRow(part, at, func(r treeRow) bool { return r.k.key == key && r.k.move == string(move) }); at < 0 {
				at = 0
				continue
			}
			r := &part[at]
			t, err := decodeTop(r.top[:0], blob)
			if err != nil || len(t) > topLen {
				rows.Close()
				return fmt.Errorf("move %s of position %x: bad top players", r.k.move, r.k.key)
			}
			r.np, r.ntop = np, len(t)
			at++
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
	}

	// The chunks to read: those of the touched players of the moves of
	// more than topLen players.
	type chunkRef struct {
		row   int
		chunk int64
		es    []topEntry
	}
	var refs []chunkRef
	for i := range trows {
		r := &trows[i]
		r.c0 = len(refs)
		if r.np > topLen {
			for _, p := range prows[r.p0:r.p1] {
				c := playerChunk(p.k.player)
				if len(refs) == r.c0 || refs[len(refs)-1].chunk != c {
					refs = append(refs, chunkRef{row: i, chunk: c})
				}
			}
		}
		r.c1 = len(refs)
	}
	for i := 0; i < len(refs); i += rowsPerInsert {
		part := refs[i:min(i+rowsPerInsert, len(refs))]
		sel, err := w.rowsStmt(ctx, `SELECT t.key, t.move, t.chunk, t.data FROM (`, `(?,?,?)`,
			`) v JOIN tree_players t ON t.key = v.column1 AND t.move = v.column2 AND t.chunk = v.column3`, len(part))
		if err != nil {
			return err
		}
		args = args[:0]
		for _, c := range part {
			k := trows[c.row].k
			args = append(args, k.key, k.move, c.chunk)
		}
		rows, err := sel.QueryContext(ctx, args...)
		if err != nil {
			return err
		}
		at := 0
		for rows.Next() {
			var key, chunk int64
			var move sql.RawBytes
			if err := rows.Scan(&key, &move, &chunk, (*sql.RawBytes)(&blob)); err != nil {
				rows.Close()
				return err
			}
			if at = matchRow(part, at, func(c chunkRef) bool {
				k := trows[c.row].k
				return k.key == key && c.chunk == chunk && k.move == string(move)
			}); at < 0 {
				at = 0
				continue
			}
			if part[at].es, err = decodeChunk(nil, chunk, blob); err != nil {
				rows.Close()
				return err
			}
			at++
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
	}

	// The new counts, np, top and chunks.
	type chunkRow struct {
		k     treeKey
		chunk int64
		data  []byte
	}
	var writes []chunkRow
	var adds, stored, merged, grown []topEntry
	for i := range trows {
		r := &trows[i]
		adds = adds[:0]
		for _, p := range prows[r.p0:r.p1] {
			adds = append(adds, topEntry{p.k.player, int64(p.n)})
		}
		if len(adds) == 0 {
			continue
		}
		grown = grown[:0]
		if r.np <= topLen {
			// Its players are all in top.
			stored = append(stored[:0], r.top[:r.ntop]...)
			slices.SortFunc(stored, func(x, y topEntry) int { return cmp.Compare(x.player, y.player) })
			var fresh int
			merged, fresh = addCounts(merged[:0], stored, adds, &grown)
			r.np += int64(fresh)
			r.ntop = len(bestOf(r.top[:0], merged))
			if r.np > topLen {
				// More players: every count goes to chunks.
				for c, part := range chunksOf(merged) {
					writes = append(writes, chunkRow{r.k, c, encodeChunk(nil, c, part)})
				}
			}
			continue
		}
		a := 0
		for _, ref := range refs[r.c0:r.c1] {
			b := a
			for b < len(adds) && playerChunk(adds[b].player) == ref.chunk {
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

	tops := make([]byte, 0, rowsPerInsert*topLen*2*10)
	for i := 0; i < len(trows); i += rowsPerInsert {
		part := trows[i:min(i+rowsPerInsert, len(trows))]
		st, err := w.rowsStmt(ctx, `INSERT INTO tree(key, move, n, scored, s0, s1, first, last, np, top)`, `(?,?,?,?,?,?,?,?,?,?)`,
			`ON CONFLICT(key, move) DO UPDATE SET n = n + excluded.n, scored = scored + excluded.scored,
		s0 = s0 + excluded.s0, s1 = s1 + excluded.s1,
		first = CASE WHEN first = '' OR (excluded.first <> '' AND excluded.first < first) THEN excluded.first ELSE first END,
		last = CASE WHEN excluded.last > last THEN excluded.last ELSE last END,
		np = excluded.np, top = excluded.top`, len(part))
		if err != nil {
			return err
		}
		args, tops = args[:0], tops[:0]
		for _, r := range part {
			var top any
			if r.ntop > 0 {
				at := len(tops)
				tops = encodeTop(tops, r.top[:r.ntop]) // within its capacity: args keep their slices
				top = tops[at:len(tops):len(tops)]
			}
			a := r.a
			args = append(args, r.k.key, r.k.move, a.n, a.scored, a.s0, a.s1, a.first, a.last, r.np, top)
		}
		if _, err := st.ExecContext(ctx, args...); err != nil {
			return err
		}
	}
	for i := 0; i < len(writes); i += rowsPerInsert {
		part := writes[i:min(i+rowsPerInsert, len(writes))]
		st, err := w.rowsStmt(ctx, `INSERT INTO tree_players(key, move, chunk, data)`, `(?,?,?,?)`,
			`ON CONFLICT(key, move, chunk) DO UPDATE SET data = excluded.data`, len(part))
		if err != nil {
			return err
		}
		args = args[:0]
		for _, c := range part {
			args = append(args, c.k.key, c.k.move, c.chunk, c.data)
		}
		if _, err := st.ExecContext(ctx, args...); err != nil {
			return err
		}
	}
	w.treeEntries, w.treeGames = w.treeEntries[:0], w.treeGames[:0]
	return nil
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
