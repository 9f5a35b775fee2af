package treeagg

import (
	"encoding/binary"
	"fmt"
	"iter"
	"slices"
)

// Count is a player and their count of games for one tree move.
type Count struct {
	Player, N int64
}

// TopLen is the number of players kept per tree move in its row.
const TopLen = 3

// chunkBits: a tree_players chunk holds the players whose ids share their
// bits above chunkBits (512 players: a blob of at most about 2.5 KB, under
// the size at which SQLite puts a row of a 16 KiB page out of line).
const chunkBits = 9

func playerChunk(p int64) int64 { return p >> chunkBits }

// topBefore is the order of a top: more games first, then the lower id.
func topBefore(a, b Count) bool {
	return a.N > b.N || a.N == b.N && a.Player < b.Player
}

// TopCmp orders counts as a top: more games first, then the lower id.
func TopCmp(a, b Count) int {
	switch {
	case topBefore(a, b):
		return -1
	case topBefore(b, a):
		return 1
	}
	return 0
}

// topInsert adds e to the ordered top t (len ≤ TopLen), which keeps its
// best TopLen entries.
func topInsert(t []Count, e Count) []Count {
	i := 0
	for i < len(t) && topBefore(t[i], e) {
		i++
	}
	if i == TopLen {
		return t
	}
	if len(t) < TopLen {
		t = append(t, Count{})
	}
	copy(t[i+1:], t[i:])
	t[i] = e
	return t
}

// bestOf is the top of a full list of players' counts (entries of count 0
// are no players).
func bestOf(dst []Count, es []Count) []Count {
	dst = dst[:0]
	for _, e := range es {
		if e.N > 0 {
			dst = topInsert(dst, e)
		}
	}
	return dst
}

// encodeTop appends the blob of a top to dst; an empty top is nil (NULL).
func encodeTop(dst []byte, t []Count) []byte {
	if len(t) == 0 {
		return nil
	}
	for _, e := range t {
		dst = binary.AppendUvarint(dst, uint64(e.Player))
		dst = binary.AppendUvarint(dst, uint64(e.N))
	}
	return dst
}

// DecodeTop appends the entries of a top blob to dst.
func DecodeTop(dst []Count, b []byte) ([]Count, error) {
	for len(b) > 0 {
		p, n, rest, ok := uvarintPair(b)
		if !ok {
			return dst, fmt.Errorf("top players: bad blob")
		}
		b = rest
		dst = append(dst, Count{int64(p), int64(n)})
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
func mergeTop(dst, stored, grown []Count) []Count {
	dst = dst[:0]
	for _, s := range stored {
		if !slices.ContainsFunc(grown, func(c Count) bool { return c.Player == s.Player }) {
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
func encodeChunk(dst []byte, chunk int64, es []Count) []byte {
	next := chunk << chunkBits
	for _, e := range es {
		dst = binary.AppendUvarint(dst, uint64(e.Player-next))
		dst = binary.AppendUvarint(dst, uint64(e.N))
		next = e.Player + 1
	}
	return dst
}

// decodeChunk appends the entries of a chunk blob to dst.
func decodeChunk(dst []Count, chunk int64, b []byte) ([]Count, error) {
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
		dst = append(dst, Count{p, int64(n)})
		next = p + 1
	}
	return dst, nil
}

// chunksOf yields the parts of es (in player order) that fall in one
// chunk each, with their chunk.
func chunksOf(es []Count) iter.Seq2[int64, []Count] {
	return func(yield func(int64, []Count) bool) {
		for len(es) > 0 {
			c := playerChunk(es[0].Player)
			n := 1
			for n < len(es) && playerChunk(es[n].Player) == c {
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
func addCounts(dst, stored, add []Count, grown *[]Count) (out []Count, fresh int) {
	i := 0
	for _, a := range add {
		for i < len(stored) && stored[i].Player < a.Player {
			dst = append(dst, stored[i])
			i++
		}
		e := a
		if i < len(stored) && stored[i].Player == a.Player {
			e.N += stored[i].N
			i++
		} else {
			fresh++
		}
		dst = append(dst, e)
		*grown = append(*grown, e)
	}
	return append(dst, stored[i:]...), fresh
}
