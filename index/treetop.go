package index

import (
	"context"
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"
	"iter"
	"slices"
)

// The players of an opening-tree move (layout 6). Each tree row keeps the
// number of players who played its move (np) and, in its column top, the
// three who played it most often (counts, n descending, player id
// ascending), so that Tree reads a position's rows and nothing else.
//
// A move of at most topLen players (most of them: a move deep in the tree
// is usually one game's) has its players all in top, and no other row. A
// move of more players also has every player's count in tree_players, in
// chunks of the player ids (key, move, chunk = player >> chunkBits) → a
// blob of (player, count) pairs in player order. Layout 5 had one
// tree_players row per (key, move, player), read and upserted for each of
// about seven players a game in every import commit: about a third of the
// writer's work. Now a commit reads the tree rows it updates (their np and
// top), the chunks of the touched players of the moves of more than
// topLen players only (few moves, near the start), and writes them back.
// 300,000 Ōgi games into an empty database (`plateau import`, alternated,
// the machine loaded 4.5–5.8 by other work): 83.7 / 76.7 s of CPU against
// 92.6 / 87.0 with layout 5; 922–930 MB against 960.
//
// An import keeps it exact: a touched player's new count is the stored
// one (from top or its chunk) plus the commit's; the top is the best of
// the stored top and those new counts, since counts only grow in an import
// (a player outside both is beaten by three who are in them). A delete
// (edit.go) lowers one player's count: when that player is in the top,
// the top is computed again from the move's chunks; when the move falls to
// topLen players its chunks are removed, their players being all in top.

// topEntry is a player and their count for one tree move.
type topEntry struct {
	player, n int64
}

// topLen is the number of players kept per tree move in its row.
const topLen = 3

// chunkBits: a tree_players chunk holds the players whose ids share their
// bits above chunkBits (512 players: a blob of at most about 2.5 KB, under
// the size at which SQLite puts a row of a 16 KiB page out of line).
const chunkBits = 9

func playerChunk(p int64) int64 { return p >> chunkBits }

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

// bestOf is the top of a full list of players' counts (entries of count 0
// are no players).
func bestOf(dst []topEntry, es []topEntry) []topEntry {
	dst = dst[:0]
	for _, e := range es {
		if e.n > 0 {
			dst = topInsert(dst, e)
		}
	}
	return dst
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
		p, n, rest, ok := uvarintPair(b)
		if !ok {
			return dst, fmt.Errorf("top players: bad blob")
		}
		b = rest
		dst = append(dst, topEntry{int64(p), int64(n)})
	}
	return dst, nil
}

// uvarintPair reads two uvarints from b.
func uvarintPair(b []byte) (x, y uint64, rest []byte, ok bool) {
	x, k := binary.Uvarint(b)
	if k <= 0 {
		return 0, 0, nil, false
	}
	y, j := binary.Uvarint(b[k:])
	if j <= 0 {
		return 0, 0, nil, false
	}
	return x, y, b[k+j:], true
}

// mergeTop is the top of a tree move given its stored top and the new
// counts of players whose count grew (any number, any order): a new
// count replaces the stored one.
func mergeTop(dst, stored, grown []topEntry) []topEntry {
	dst = dst[:0]
	for _, s := range stored {
		if !slices.ContainsFunc(grown, func(c topEntry) bool { return c.player == s.player }) {
			dst = topInsert(dst, s)
		}
	}
	for _, c := range grown {
		dst = topInsert(dst, c)
	}
	return dst
}

// encodeChunk appends the blob of a tree_players chunk: its entries (in
// player order, all of one chunk, counts > 0) as uvarint pairs (the gap
// from the previous player + 1, or from the chunk's first id; the count).
func encodeChunk(dst []byte, chunk int64, es []topEntry) []byte {
	next := chunk << chunkBits
	for _, e := range es {
		dst = binary.AppendUvarint(dst, uint64(e.player-next))
		dst = binary.AppendUvarint(dst, uint64(e.n))
		next = e.player + 1
	}
	return dst
}

// decodeChunk appends the entries of a chunk blob to dst.
func decodeChunk(dst []topEntry, chunk int64, b []byte) ([]topEntry, error) {
	next := chunk << chunkBits
	for len(b) > 0 {
		d, n, rest, ok := uvarintPair(b)
		if !ok {
			return dst, fmt.Errorf("tree players: bad chunk")
		}
		b = rest
		p := next + int64(d)
		if playerChunk(p) != chunk {
			return dst, fmt.Errorf("tree players: player %d in chunk %d", p, chunk)
		}
		dst = append(dst, topEntry{p, int64(n)})
		next = p + 1
	}
	return dst, nil
}

// chunksOf yields the parts of es (in player order) that fall in one
// chunk each, with their chunk.
func chunksOf(es []topEntry) iter.Seq2[int64, []topEntry] {
	return func(yield func(int64, []topEntry) bool) {
		for len(es) > 0 {
			c := playerChunk(es[0].player)
			n := 1
			for n < len(es) && playerChunk(es[n].player) == c {
				n++
			}
			if !yield(c, es[:n]) {
				return
			}
			es = es[n:]
		}
	}
}

// addCounts merges into the stored entries (player order) the commit's
// additions (player order), appending the result to dst; grown gets the
// new counts of the added players and fresh the number of them who were
// not in stored.
func addCounts(dst, stored, add []topEntry, grown *[]topEntry) (out []topEntry, fresh int) {
	i := 0
	for _, a := range add {
		for i < len(stored) && stored[i].player < a.player {
			dst = append(dst, stored[i])
			i++
		}
		e := a
		if i < len(stored) && stored[i].player == a.player {
			e.n += stored[i].n
			i++
		} else {
			fresh++
		}
		dst = append(dst, e)
		*grown = append(*grown, e)
	}
	return append(dst, stored[i:]...), fresh
}

// deleteTreePlayer lowers by one the count of player for the tree move k
// (a delete, edit.go), whose row holds np players and top; it updates the
// row's np and top and the move's chunks.
func (w *writer) deleteTreePlayer(ctx context.Context, k treeKey, player int64, np int64, topBlob []byte) error {
	top, err := decodeTop(nil, topBlob)
	if err != nil {
		return err
	}
	inTop := slices.ContainsFunc(top, func(e topEntry) bool { return e.player == player })
	if np <= topLen {
		// Its players are all in top.
		i := slices.IndexFunc(top, func(e topEntry) bool { return e.player == player })
		if i < 0 {
			return nil
		}
		top[i].n--
		if top[i].n <= 0 {
			top = slices.Delete(top, i, i+1)
			np--
		}
		slices.SortFunc(top, topCmp)
		return w.setTreePlayers(ctx, k, np, top)
	}
	c := playerChunk(player)
	var blob []byte
	sel, err := w.stmt(ctx, `SELECT data FROM tree_players WHERE key = ? AND move = ? AND chunk = ?`)
	if err != nil {
		return err
	}
	err = sel.QueryRowContext(ctx, k.key, k.move, c).Scan(&blob)
	if errors.Is(err, sql.ErrNoRows) {
		return nil
	}
	if err != nil {
		return err
	}
	es, err := decodeChunk(nil, c, blob)
	if err != nil {
		return err
	}
	i := slices.IndexFunc(es, func(e topEntry) bool { return e.player == player })
	if i < 0 {
		return nil
	}
	es[i].n--
	if es[i].n <= 0 {
		es = slices.Delete(es, i, i+1)
		np--
	}
	if len(es) == 0 {
		_, err = w.exec(ctx, `DELETE FROM tree_players WHERE key = ? AND move = ? AND chunk = ?`, k.key, k.move, c)
	} else {
		_, err = w.exec(ctx, `UPDATE tree_players SET data = ? WHERE key = ? AND move = ? AND chunk = ?`, encodeChunk(nil, c, es), k.key, k.move, c)
	}
	if err != nil {
		return err
	}
	if !inTop && np > topLen {
		_, err = w.exec(ctx, `UPDATE tree SET np = ? WHERE key = ? AND move = ?`, np, k.key, k.move)
		return err
	}
	// The top may change, or the move falls to topLen players: its top
	// from all its chunks.
	all, err := w.moveChunks(ctx, k)
	if err != nil {
		return err
	}
	top = bestOf(top, all)
	if np <= topLen {
		if _, err := w.exec(ctx, `DELETE FROM tree_players WHERE key = ? AND move = ?`, k.key, k.move); err != nil {
			return err
		}
	}
	return w.setTreePlayers(ctx, k, np, top)
}

// moveChunks reads every player count of a move from its chunks.
func (w *writer) moveChunks(ctx context.Context, k treeKey) ([]topEntry, error) {
	sel, err := w.stmt(ctx, `SELECT chunk, data FROM tree_players WHERE key = ? AND move = ?`)
	if err != nil {
		return nil, err
	}
	rows, err := sel.QueryContext(ctx, k.key, k.move)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var all []topEntry
	for rows.Next() {
		var c int64
		var b []byte
		if err := rows.Scan(&c, &b); err != nil {
			return nil, err
		}
		if all, err = decodeChunk(all, c, b); err != nil {
			return nil, err
		}
	}
	return all, rows.Err()
}

func (w *writer) setTreePlayers(ctx context.Context, k treeKey, np int64, top []topEntry) error {
	var blob any
	if b := encodeTop(nil, top); b != nil {
		blob = b
	}
	_, err := w.exec(ctx, `UPDATE tree SET np = ?, top = ? WHERE key = ? AND move = ?`, np, blob, k.key, k.move)
	return err
}
