package patsig

import (
	"encoding/binary"
	"slices"
)

// The signatures are stored by blocks of consecutive game ids, one row
// per BlockGames ids: a scan reads a few thousand signatures a row, where
// a row a game would cost more to read than the signature saves. A
// block's blob is its entries in id order, each the low byte of the id,
// the signature's length (uvarint) and the signature. An entry of a game
// that was deleted stays until its id is stored again: a signature only
// ever skips a game, and a scan reads the games it does not skip from
// the games table, where a deleted one is not.

// BlockBits is the number of low id bits within a block.
const BlockBits = 8

// BlockGames is the number of game ids of a block.
const BlockGames = 1 << BlockBits

// Table is the table of the signature blocks.
const Table = `CREATE TABLE IF NOT EXISTS pattern_sigs(block INTEGER PRIMARY KEY, sigs BLOB NOT NULL)`

// BlockOf is the block of game id.
func BlockOf(id int64) int64 { return id >> BlockBits }

// Entry is the signature of one game.
type Entry struct {
	ID  int64
	Sig []byte
}

// AppendEntry appends the entry of game id to a block's blob; ids must be
// appended in increasing order, all of one block.
func AppendEntry(blob []byte, id int64, sig []byte) []byte {
	blob = append(blob, byte(id&(BlockGames-1)))
	blob = binary.AppendUvarint(blob, uint64(len(sig)))
	return append(blob, sig...)
}

// Entries calls fn with each entry of the blob of block, in id order; the
// signature is a slice of blob. It reports false for a blob that does
// not parse (its entries after the fault are not given).
func Entries(block int64, blob []byte, fn func(id int64, sig []byte)) bool {
	base := block << BlockBits
	for i := 0; i < len(blob); {
		lo := int64(blob[i])
		n, k := binary.Uvarint(blob[i+1:])
		if k <= 0 || uint64(len(blob)-i-1-k) < n {
			return false
		}
		start := i + 1 + k
		fn(base+lo, blob[start:start+int(n):start+int(n)])
		i = start + int(n)
	}
	return true
}

// Merge returns the blob of block with the entries of es (of that block,
// in id order, one per id) added, replacing those of the same ids.
func Merge(block int64, old []byte, es []Entry) []byte {
	out := make([]byte, 0, len(old)+len(es)*128)
	k := 0
	ok := Entries(block, old, func(id int64, sig []byte) {
		for k < len(es) && es[k].ID < id {
			out = AppendEntry(out, es[k].ID, es[k].Sig)
			k++
		}
		if k < len(es) && es[k].ID == id {
			return // replaced
		}
		out = AppendEntry(out, id, sig)
	})
	_ = ok // a blob that does not parse loses its entries after the fault
	for ; k < len(es); k++ {
		out = AppendEntry(out, es[k].ID, es[k].Sig)
	}
	return out
}

// SortEntries sorts es by id, keeping of the entries of one id the last
// added (a game stored twice in one transaction), and returns them.
func SortEntries(es []Entry) []Entry {
	slices.SortStableFunc(es, func(a, b Entry) int { return int(min(max(a.ID-b.ID, -1), 1)) })
	out := es[:0]
	for i := range es {
		if i+1 < len(es) && es[i+1].ID == es[i].ID {
			continue
		}
		out = append(out, es[i])
	}
	return out
}
