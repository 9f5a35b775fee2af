package index

import (
	"context"
	"encoding/binary"
	"fmt"
	"slices"
)

// The top players of an opening-tree move (layout 5). Each tree row keeps
// in its column top the three players who played its move most often
// (tree_players counts, n descending, player id ascending), so that Tree
// reads a position's rows and nothing else: ranking every tree_players row
// of the start position of a 2M-game database took 25–55 ms.
//
// The column is a blob of up to three (player id, count) pairs as uvarints,
// best first; NULL when no player is known. An import keeps it exact: each
// updated player's new count is its stored tree_players count (read in
// batches, flushRows) plus the commit's, the commit's best three of those are the row's candidates, and the stored
// top merged with them (plateau_top3, registered on every connection) is
// the new top: counts only grow in an import, so a player outside both the
// stored top and the candidates is beaten by three players who are in
// them. A delete (edit.go) lowers counts: when a lowered player is in the
// stored top, the row's top is computed again from tree_players before the
// commit (recomputeTops).

// topEntry is a player and their count for one tree move.
type topEntry struct {
	player, n int64
}

// topLen is the number of players kept per tree move.
const topLen = 3

// topBefore is the order of a top: more games first, then the lower id.
func topBefore(a, b topEntry) bool {
	return a.n > b.n || a.n == b.n && a.player < b.player
}

func topCmp(a, b topEntry) int {
	switch {
	case topBefore(a, b):
		return -1
	case topBefore(b, a):
		return 1
	}
	return 0
}

// topInsert adds e to the ordered top t (len ≤ topLen), which keeps its
// best topLen entries.
func topInsert(t []topEntry, e topEntry) []topEntry {
	i := 0
	for i < len(t) && topBefore(t[i], e) {
		i++
	}
	if i == topLen {
		return t
	}
	if len(t) < topLen {
		t = append(t, topEntry{})
	}
	copy(t[i+1:], t[i:])
	t[i] = e
	return t
}

// encodeTop appends the blob of a top to dst; an empty top is nil (NULL).
func encodeTop(dst []byte, t []topEntry) []byte {
	if len(t) == 0 {
		return nil
	}
	for _, e := range t {
		dst = binary.AppendUvarint(dst, uint64(e.player))
		dst = binary.AppendUvarint(dst, uint64(e.n))
	}
	return dst
}

// decodeTop appends the entries of a top blob to dst.
func decodeTop(dst []topEntry, b []byte) ([]topEntry, error) {
	for len(b) > 0 {
		p, k := binary.Uvarint(b)
		if k <= 0 {
			return dst, fmt.Errorf("top players: bad blob")
		}
		b = b[k:]
		n, k := binary.Uvarint(b)
		if k <= 0 {
			return dst, fmt.Errorf("top players: bad blob")
		}
		b = b[k:]
		dst = append(dst, topEntry{int64(p), int64(n)})
	}
	return dst, nil
}

// mergeTop is the top of a tree move given its stored top and the
// candidates (the new counts of players whose count grew, best first, at
// most topLen): a candidate's count replaces the stored one.
func mergeTop(stored, cand []topEntry) []topEntry {
	out := make([]topEntry, 0, len(stored)+len(cand))
	out = append(out, cand...)
	for _, s := range stored {
		if !slices.ContainsFunc(cand, func(c topEntry) bool { return c.player == s.player }) {
			out = append(out, s)
		}
	}
	slices.SortFunc(out, topCmp)
	return out[:min(len(out), topLen)]
}

// sqlTop3 is the SQL function plateau_top3(stored, candidates): the merged
// top blob (NULL when empty). A blob that does not decode is ignored.
func sqlTop3(stored, cand any) []byte {
	var buf [2 * topLen]topEntry
	var s, c []topEntry
	if b, ok := stored.([]byte); ok {
		s, _ = decodeTop(buf[:0:topLen], b)
	}
	if b, ok := cand.([]byte); ok {
		c, _ = decodeTop(buf[topLen:topLen:2*topLen], b)
	}
	return encodeTop(make([]byte, 0, 8*topLen), mergeTop(s, c))
}

// recomputeTops computes again, from tree_players, the top of every tree
// move a delete made uncertain in this transaction.
func (w *writer) recomputeTops(ctx context.Context) error {
	if len(w.dirtyTops) == 0 {
		return nil
	}
	keys := make([]treeKey, 0, len(w.dirtyTops))
	for k := range w.dirtyTops {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, treeKeyCmp)
	sel, err := w.tx.PrepareContext(ctx, `SELECT player, n FROM tree_players WHERE key = ? AND move = ? ORDER BY n DESC, player LIMIT 3`)
	if err != nil {
		return err
	}
	defer sel.Close()
	up, err := w.tx.PrepareContext(ctx, `UPDATE tree SET top = ? WHERE key = ? AND move = ?`)
	if err != nil {
		return err
	}
	defer up.Close()
	var t []topEntry
	var blob []byte
	for _, k := range keys {
		rows, err := sel.QueryContext(ctx, k.key, k.move)
		if err != nil {
			return err
		}
		t = t[:0]
		for rows.Next() {
			var e topEntry
			if err := rows.Scan(&e.player, &e.n); err != nil {
				rows.Close()
				return err
			}
			t = append(t, e)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		blob = encodeTop(blob[:0], t)
		var arg any
		if blob != nil {
			arg = blob
		}
		if _, err := up.ExecContext(ctx, arg, k.key, k.move); err != nil {
			return err
		}
	}
	clear(w.dirtyTops)
	return nil
}

// inTop reports whether a top blob names player (a blob that does not
// decode names everyone, so that the top is computed again).
func inTop(blob []byte, player int64) bool {
	var buf [topLen]topEntry
	t, err := decodeTop(buf[:0], blob)
	return err != nil || slices.ContainsFunc(t, func(e topEntry) bool { return e.player == player })
}
