package posrun

import (
	"cmp"
	"math/bits"
	"slices"
)

// Pos is an occurrence: a stored key (Store.Key) and an at (PackAt).
type Pos struct {
	Key, At int64
}

// Scratch is the memory that Encode uses again from one run to the next:
// the sort's scratch and the blocks' bytes. Allocating them afresh for
// every commit cost as much CPU as a third of the sort, clearing and
// faulting in new pages (docs/storage.md).
type Scratch struct {
	tmp    []Pos
	arena  []byte
	blocks []encodedBlock
}

// cmpPos is the (key, at) order of occurrences.
func cmpPos(a, b Pos) int {
	if c := cmp.Compare(a.Key, b.Key); c != 0 {
		return c
	}
	return cmp.Compare(a.At, b.At)
}

func lessPos(a, b Pos) bool { return a.Key < b.Key || (a.Key == b.Key && a.At < b.At) }

// The radix sort's parameters, chosen with BenchmarkSortPositions
// (docs/storage.md).
const (
	sortSmall    = 256 // fewer occurrences: a comparison sort
	bucketLog    = 13  // the first pass aims at buckets of 2^bucketLog occurrences (128 KB), sorted in the caches
	topBitsMax   = 12  // and takes at most this many bits
	subBitsMax   = 12  // bits of a bucket's pass, at most
	insertionMax = 24  // a bucket or part of one this small: insertion sort
)

// sortPositions sorts occurrences in (key, at) order, using s's scratch
// (s nil: a scratch of its own): a most-significant-digit radix sort on
// key, stable: one pass on the top bits of the key (those that vary)
// scatters the occurrences into buckets of a few thousand, and each
// bucket, while it is in the processor's caches, is scattered on its next
// bits back into place; what shares those bits (few, keys being hashes,
// or one key's list) is sorted by comparison, which also orders a key's
// ats unless all come in order (sortBucket). Two passes over the memory
// where the least-significant-digit sort took six on key, and three more
// on at when the ats were not all in order (an import's variations).
func sortPositions(ps []Pos, s *Scratch) {
	n := len(ps)
	if n < sortSmall {
		slices.SortFunc(ps, cmpPos)
		return
	}
	if s == nil {
		s = &Scratch{}
	}
	if cap(s.tmp) < n {
		s.tmp = nil
		s.tmp = make([]Pos, n+n/4) // commits vary in size
	}
	tmp := s.tmp[:n]
	// One read: are the ats in order, which key bits vary?
	k0, prev := ps[0].Key, ps[0].At
	var diff uint64
	unsorted := false
	for i := range ps {
		diff |= uint64(ps[i].Key ^ k0)
		unsorted = unsorted || ps[i].At < prev
		prev = ps[i].At
	}
	if diff == 0 {
		if unsorted {
			slices.SortFunc(ps, cmpPos)
		}
		return
	}
	// Key bits [0, top) vary; those above are the same in every key, the
	// sign bit included when top < 64, so the order of the bits below top
	// is the int64 order.
	top := bits.Len64(diff)
	b1 := min(top, topBitsMax, max(1, bits.Len(uint(n))-bucketLog))
	shift := uint(top - b1)
	mask := uint64(1)<<b1 - 1
	var count [1 << topBitsMax]int
	scatter(ps, tmp, shift, mask, count[:1<<b1])
	var sub [1 << subBitsMax]int32
	lo := 0
	for _, hi := range count[:1<<b1] {
		sortBucket(tmp[lo:hi], ps[lo:hi], shift, !unsorted, &sub)
		lo = hi
	}
}

// scatter is a radix pass: it moves the occurrences of src into dst in
// the order of their key's digit radixKey>>shift&mask, stably, counting in
// count (len: the digit's values), which it leaves holding the end of
// each digit's occurrences in dst.
func scatter[T int | int32](src, dst []Pos, shift uint, mask uint64, count []T) {
	clear(count)
	for i := range src {
		count[radixKey(src[i].Key)>>shift&mask]++
	}
	var sum T
	for d, x := range count {
		count[d] = sum
		sum += x
	}
	for i := range src {
		d := radixKey(src[i].Key) >> shift & mask
		dst[count[d]] = src[i]
		count[d]++
	}
}

// radixKey is a key's bits in int64 order (sign bit flipped).
func radixKey(k int64) uint64 { return uint64(k) ^ 1<<63 }

// sortBucket sorts into dst the occurrences of src, which differ only in
// the key bits below shift; when atSorted, those of a key come in at
// order (the sort being stable, they stay so), else the lists of equal
// keys are sorted (an import's ats are in order but for its variations:
// where a key's list is long, almost always in order already).
func sortBucket(src, dst []Pos, shift uint, atSorted bool, count *[1 << subBitsMax]int32) {
	m := len(src)
	switch {
	case m == 0:
		return
	case m == 1 || shift == 0: // shift 0: one key
		copy(dst, src)
		if !atSorted {
			sortPart(dst)
		}
		return
	case m <= insertionMax:
		copy(dst, src)
		insertionSort(dst)
		return
	}
	b := min(bits.Len(uint(m)), subBitsMax, int(shift))
	shift -= uint(b)
	mask := uint64(1)<<b - 1
	c := count[:1<<b]
	scatter(src, dst, shift, mask, c)
	if shift == 0 && atSorted {
		return
	}
	lo := 0
	for _, hi := range c {
		if int(hi)-lo > 1 {
			sortPart(dst[lo:hi])
		}
		lo = int(hi)
	}
}

// sortPart sorts a part of a bucket: one key's list (often in order
// already) or keys alike in many bits.
func sortPart(p []Pos) {
	switch {
	case len(p) <= insertionMax:
		insertionSort(p)
	case !slices.IsSortedFunc(p, cmpPos):
		slices.SortFunc(p, cmpPos)
	}
}

func insertionSort(p []Pos) {
	for i := 1; i < len(p); i++ {
		x := p[i]
		j := i
		for ; j > 0 && lessPos(x, p[j-1]); j-- {
			p[j] = p[j-1]
		}
		p[j] = x
	}
}
