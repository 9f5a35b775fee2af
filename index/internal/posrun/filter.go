package posrun

import (
	"context"
	"encoding/binary"
	"math/bits"
)

// Run filters: a Bloom filter of the keys of a run, stored with it and
// kept in memory by the Stores that read it, so that a lookup skips the
// runs that do not hold its keys instead of reading a block of each.
//
// A run's filter is built as the run is written, by an import's commit
// (Encode) or by the merge that writes it (blockEncoder), for runs of at
// most maxFilterEntries occurrences (a merge's bound: the occurrences of
// its sources), and stored with it (pos_filters, listed and deleted in
// the transactions that list and delete the run). A Store's fence loader
// (fence.go) reads it with the run's fence. The runs of an import's
// commits and of its first merges have one; a larger run is read by every
// lookup: it is one of the few largest, which most lookups meet anyway,
// and its filter would be most of the filters' bytes (docs/storage.md).
// A run id is never given twice (meta pos_run_high), so that a
// filter loaded for a run id holds while that id is listed; the loader
// also checks the run's entries. Filters are written by the writer, not
// built by the readers from the blocks: every reader then decoded every
// new run again, and lookups waited more often (docs/storage.md).

// The filter is blocked: the keys of one 512-bit block share a cache line,
// and the block of a key is the key's place in the key space (keys are
// hashes, spread evenly), so that building it in key order, as a run
// holds its keys, writes the blocks in order. Each key sets filterProbes
// bits of its block, taken from the key times an odd constant. At
// filterBitsPerEntry bits an occurrence (a run holds fewer keys than
// occurrences), about 1 key in 100 that a run does not hold passes its
// filter: a position lookup tests its two stored keys, an opening tree
// only the one of the occurrences the tree aggregate does not count, which
// most runs do not hold for an opening position although they hold the
// position. The layout (block and bits of a key, words little-endian) is
// part of the file format: another one needs another table.

const (
	filterBitsPerEntry = 10
	filterProbes       = 6
	filterBlockWords   = 8 // 512 bits
)

// maxFilterEntries is the largest run that gets a filter: 4 Mi
// occurrences, a filter of 5 MiB (32 Mi up to layout 24; a variable for
// tests).
var maxFilterEntries int64 = 4 << 20

// DropLargeFilters deletes, in tx, the stored filters of the runs of more
// than maxFilterEntries occurrences (a database of layout 24 or before
// has them up to 32 Mi occurrences), which a Store no longer loads; it
// returns their number.
func DropLargeFilters(ctx context.Context, tx Tx) (int64, error) {
	res, err := tx.ExecContext(ctx, `DELETE FROM pos_filters WHERE run IN (SELECT run FROM pos_runs WHERE entries > ?)`, maxFilterEntries)
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

// maxFilterBytes bounds the filters of a Store (the fences have their own
// bound, maxFenceBlocks).
var maxFilterBytes = 256 << 20

// runFilter is the Bloom filter of one run's keys.
type runFilter struct {
	words  []uint64
	blocks uint64
}

// filterBlocks is the number of blocks of the filter of a run of entries
// occurrences.
func filterBlocks(entries int64) uint64 {
	return uint64(max(1, (entries*filterBitsPerEntry+511)/512))
}

// newRunFilterBytes is the size of the filter of a run of entries
// occurrences.
func newRunFilterBytes(entries int64) int64 {
	return int64(filterBlocks(entries)) * filterBlockWords * 8
}

// filterFor is an empty filter for a run of at most entries occurrences;
// nil when the run is too large to have one.
func filterFor(entries int64) *runFilter {
	if entries <= 0 || entries > maxFilterEntries {
		return nil
	}
	return newRunFilter(entries)
}

// encode is the filter as stored: its words, little-endian.
func (f *runFilter) encode() []byte {
	b := make([]byte, 8*len(f.words))
	for i, w := range f.words {
		binary.LittleEndian.PutUint64(b[8*i:], w)
	}
	return b
}

// decodeRunFilter reads a stored filter; nil when b is not one.
func decodeRunFilter(b []byte) *runFilter {
	if len(b) == 0 || len(b)%(8*filterBlockWords) != 0 {
		return nil
	}
	f := &runFilter{words: make([]uint64, len(b)/8), blocks: uint64(len(b) / (8 * filterBlockWords))}
	for i := range f.words {
		f.words[i] = binary.LittleEndian.Uint64(b[8*i:])
	}
	return f
}

// newRunFilter makes an empty filter for a run of entries occurrences.
func newRunFilter(entries int64) *runFilter {
	blocks := filterBlocks(entries)
	return &runFilter{words: make([]uint64, blocks*filterBlockWords), blocks: blocks}
}

// bytes is the filter's size in memory.
func (f *runFilter) bytes() int { return 8 * len(f.words) }

// block is the first word of key's block: its place in the key space.
func (f *runFilter) block(key int64) uint64 {
	hi, _ := bits.Mul64(radixKey(key), f.blocks)
	return hi * filterBlockWords
}

// filterMix spreads a key over the bits of its block.
const filterMix = 0x9e3779b97f4a7c15

// add adds key. The block is that of key &^ 1, which the key's neighbour
// key^1 shares (the position's other stored key in a database of deep
// salt 1): a lookup of both keys reads one cache line a run.
func (f *runFilter) add(key int64) {
	w := f.words[f.block(key&^1):][:filterBlockWords]
	h := uint64(key) * filterMix
	for range filterProbes {
		h = bits.RotateLeft64(h, 9)
		w[(h&511)>>6] |= 1 << (h & 63)
	}
}

// has is false when the run does not hold key.
func (f *runFilter) has(key int64) bool {
	w := f.words[f.block(key&^1):][:filterBlockWords]
	h := uint64(key) * filterMix
	for range filterProbes {
		h = bits.RotateLeft64(h, 9)
		if w[(h&511)>>6]&(1<<(h&63)) == 0 {
			return false
		}
	}
	return true
}
