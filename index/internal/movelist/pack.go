package movelist

import (
	"encoding/binary"
	"math/bits"

	"github.com/plateau/plateau/replay"
)

// maxSegs is the most runs of bits a packed list's mask has.
const maxSegs = 4

// packing gathers the bits of a mask, run by run, into the low bits of a
// value (pack) and spreads them back (unpack).
type packing struct {
	mask uint64
	w    uint8 // the bits of mask
	low  uint8 // the whole low bytes of a value (appendValue)
	// For Decoder.Step: 8*low, the bits of the low bytes, and those of
	// the rest's bytes in a word that starts with the low bytes.
	shift             uint8
	lowBits, restBits uint64
	nseg              uint8
	seg               [maxSegs]struct{ lo, n uint8 }
	// For unpack, by run (a run past nseg is empty: keep 0): the run's
	// bits in place, its offset in the value and in the move.
	keep     [maxSegs]uint64
	from, to [maxSegs]uint8
}

// newPacking is the packing of mask; false when mask has more than
// maxSegs runs or every bit (no bit is left for the variations' flag).
func newPacking(mask uint64) (p packing, ok bool) {
	p.mask = mask
	for m := mask; m != 0; {
		lo := bits.TrailingZeros64(m)
		n := bits.TrailingZeros64(^(m >> uint(lo)))
		if int(p.nseg) == maxSegs {
			return p, false
		}
		p.seg[p.nseg].lo, p.seg[p.nseg].n = uint8(lo), uint8(n)
		p.keep[p.nseg], p.from[p.nseg], p.to[p.nseg] = 1<<uint(n)-1, p.w, uint8(lo)
		p.nseg++
		p.w += uint8(n)
		if lo+n >= 64 {
			break
		}
		m &^= (1<<uint(n) - 1) << uint(lo)
	}
	return p, p.w < 64
}

// setLow sets the low bytes of a value (0 to maxLow).
func (p *packing) setLow(low uint8) {
	p.low, p.shift = low, 8*low
	p.lowBits, p.restBits = 1<<p.shift-1, ^uint64(0)>>p.shift
}

// fitMask is or with its narrowest gaps between runs of bits filled until
// it has at most maxSegs runs.
func fitMask(or uint64) uint64 {
	for {
		var gaps [64]struct{ lo, n int }
		k, runs := 0, 0
		for i := 0; i < 64; {
			if or>>uint(i)&1 == 1 {
				runs++
				for i < 64 && or>>uint(i)&1 == 1 {
					i++
				}
				continue
			}
			j := i
			for j < 64 && or>>uint(j)&1 == 0 {
				j++
			}
			if i > 0 && j < 64 { // a gap between two runs
				gaps[k].lo, gaps[k].n = i, j-i
				k++
			}
			i = j
		}
		if runs <= maxSegs {
			return or
		}
		best := 0
		for g := 1; g < k; g++ {
			if gaps[g].n < gaps[best].n {
				best = g
			}
		}
		or |= (1<<uint(gaps[best].n) - 1) << uint(gaps[best].lo)
	}
}

// pack gathers the bits of m under the mask into a value of w bits.
func (p *packing) pack(m uint64) uint64 {
	var v uint64
	s := uint(0)
	for _, g := range p.seg[:p.nseg] {
		v |= (m >> g.lo & (1<<g.n - 1)) << s
		s += uint(g.n)
	}
	return v
}

// unpack spreads a value of w bits back under the mask (the first run
// starts the value).
func (p *packing) unpack(v uint64) uint64 {
	m := (v & p.keep[0]) << p.to[0]
	switch p.nseg {
	case 2:
		m |= (v >> p.from[1] & p.keep[1]) << p.to[1]
	case 3:
		m |= (v>>p.from[1]&p.keep[1])<<p.to[1] | (v>>p.from[2]&p.keep[2])<<p.to[2]
	case 4:
		m |= (v>>p.from[1]&p.keep[1])<<p.to[1] | (v>>p.from[2]&p.keep[2])<<p.to[2] |
			(v>>p.from[3]&p.keep[3])<<p.to[3]
	}
	return m
}

// appendValue appends a packed value: its low bytes, then the rest as a
// uvarint.
func (p *packing) appendValue(buf []byte, v uint64) []byte {
	for range p.low {
		buf = append(buf, byte(v))
		v >>= 8
	}
	return binary.AppendUvarint(buf, v)
}

// lengths counts the lines of a list and its values by bit length, which
// is all the sizes of the list's forms depend on (lengths.sizes).
type lengths struct {
	lines int
	value [65]int // value[k]: the values of k bits
}

// lengths adds the steps of a line and its variations to ls.
func (p *packing) lengths(steps []*replay.Step, ls *lengths) {
	ls.lines++
	for _, s := range steps {
		v := p.pack(uint64(s.Move))
		if len(s.Variations) > 0 {
			v |= 1 << p.w
		}
		ls.value[bits.Len64(v)]++
		for _, vr := range s.Variations {
			p.lengths(vr, ls)
		}
	}
}

// sizes are the bytes the steps of the list counted in ls take with l
// low bytes a value, by l: a line's count takes at least a byte, a
// value l bytes and the uvarint of its other bits.
func (ls *lengths) sizes() (size [maxLow + 1]int) {
	for l := range size {
		size[l] = ls.lines
	}
	for k, n := range ls.value {
		if n == 0 {
			continue // most lengths: a list's values are of a few
		}
		for l := range size {
			rest := max(k-8*l, 1) // the bits of v>>(8*l), of v|1 when none
			size[l] += n * (l + (rest+6)/7)
		}
	}
	return size
}

// uvarintLen is the length of the uvarint of v.
func uvarintLen(v uint64) int { return (bits.Len64(v|1) + 6) / 7 }
