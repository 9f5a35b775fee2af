package posrun

import (
	"encoding/binary"
	"math/bits"
	"slices"
)

// Whole-block decoding, for merges. A merge reads every occurrence of
// every block of its runs: decoding a block at once, in a loop that keeps
// the bit reader's state in registers, costs a fraction of blockDecoder's
// call per occurrence, which a lookup (a few occurrences of one key)
// keeps. decodeBlock reads exactly what blockDecoder reads: the same
// occurrences, and an error where blockDecoder stops with one
// (TestDecodeBlockAsDecoder, FuzzPackedBlock).

// decodeBlock appends the occurrences of the block d was reset to (its
// data) to dst; on a damaged block it returns those read before the
// damage with errBadBlock, as blockDecoder.next gives them.
func decodeBlock(dst []occ, d *blockDecoder) ([]occ, error) {
	if d.legacy {
		for d.next() {
			dst = append(dst, occ{d.key, d.at})
		}
		return dst, d.err
	}
	if d.started || len(d.data) == 0 {
		return dst, d.err
	}
	if !d.header() {
		return dst, d.err
	}
	key, at, par := d.key, d.at, d.par
	// The count is bounded by the bits (an occurrence takes one at
	// least): room for a damaged count is not made.
	n := int(min(d.left, uint64(len(d.br.data))*8)) + 1
	dst = slices.Grow(dst, n)
	out := dst[len(dst) : len(dst)+n]
	out[0] = occ{key, at}
	// The bit reader's state in locals, which the loop keeps in
	// registers (a struct of its size lives on the stack): data[pos:] is
	// what buf (nb bits) does not hold yet.
	data, pos, buf, nb := d.br.data, 0, uint64(0), uint(0)
	for i := 1; i < len(out); i++ {
		if pos, buf, nb = refill(data, pos, buf, nb); nb == 0 {
			if pos, buf, nb = fillEnd(data, pos, buf, nb); nb == 0 {
				return dst[:len(dst)+i], errBadBlock // no flag bit left
			}
		}
		flag := buf & 1
		buf >>= 1
		nb--
		if flag == 1 {
			// A Rice code, written out here and below: the compiler
			// inlines neither a function doing it all nor a loop's call
			// of one.
			pos, buf, nb = refill(data, pos, buf, nb)
			step, c := riceWhole(buf, nb, par.step)
			if c != 0 {
				buf, nb = buf>>(c&63), nb-c
			} else if step, pos, buf, nb = riceSlow(data, pos, buf, nb, par.step); nb == badBits {
				return dst[:len(dst)+i], errBadBlock
			}
			if step++; step == 0 || step > 1<<63-1-uint64(at) {
				return dst[:len(dst)+i], errBadBlock
			}
			at += int64(step)
			out[i] = occ{key, at}
			continue
		}
		pos, buf, nb = refill(data, pos, buf, nb)
		gap, c := riceWhole(buf, nb, par.key)
		if c != 0 {
			buf, nb = buf>>(c&63), nb-c
		} else if gap, pos, buf, nb = riceSlow(data, pos, buf, nb, par.key); nb == badBits {
			return dst[:len(dst)+i], errBadBlock
		}
		pos, buf, nb = refill(data, pos, buf, nb)
		high, c := riceWhole(buf, nb, par.high)
		if c != 0 {
			buf, nb = buf>>(c&63), nb-c
		} else if high, pos, buf, nb = riceSlow(data, pos, buf, nb, par.high); nb == badBits {
			return dst[:len(dst)+i], errBadBlock
		}
		pos, buf, nb = refill(data, pos, buf, nb)
		low, c := riceWhole(buf, nb, par.low)
		if c != 0 {
			buf, nb = buf>>(c&63), nb-c
		} else if low, pos, buf, nb = riceSlow(data, pos, buf, nb, par.low); nb == badBits {
			return dst[:len(dst)+i], errBadBlock
		}
		if gap++; gap == 0 || high >= 1<<(63-atLowBits) || low >= 1<<atLowBits {
			return dst[:len(dst)+i], errBadBlock
		}
		key += int64(gap)
		at = int64(high<<atLowBits | low)
		out[i] = occ{key, at}
	}
	if uint64(len(out)-1) < d.left {
		return dst[:len(dst)+len(out)], errBadBlock // a count past the bits
	}
	return dst[:len(dst)+len(out)], nil
}

// badBits is the bit count riceSlow gives on damage (no real count: a
// buffer holds 64 bits at most).
const badBits = ^uint(0)

// refill tops buf (nb bits) up to at least 56 bits from data[pos:] when
// it holds 8 bytes more, as bitReader.fill does.
func refill(data []byte, pos int, buf uint64, nb uint) (int, uint64, uint) {
	if nb < 56 && pos+8 <= len(data) {
		buf |= binary.LittleEndian.Uint64(data[pos:]) << (nb & 63)
		return pos + int(63-nb)>>3, buf, nb | 56
	}
	return pos, buf, nb
}

// fillEnd is bitReader.fill: the block's last bytes.
func fillEnd(data []byte, pos int, buf uint64, nb uint) (int, uint64, uint) {
	br := bitReader{data: data[pos:], buf: buf, n: nb}
	br.fill()
	return len(data) - len(br.data), br.buf, br.n
}

// riceWhole is the Rice code of parameter k (at most 63) at the start of
// buf, and its bits, when the nb bits of buf hold it whole, it is no
// escape and takes fewer than 64 bits; else n is 0. (The shifts are
// masked, being under 64, so that they compile to one instruction.)
func riceWhole(buf uint64, nb uint, k uint8) (v uint64, n uint) {
	q := uint(bits.TrailingZeros64(buf))
	if n = q + 1 + uint(k); q >= riceEscape || n > nb || n > 63 {
		return 0, 0
	}
	return uint64(q)<<(k&63) | buf>>((q+1)&63)&(1<<(k&63)-1), n
}

// riceSlow reads a Rice code of parameter k through bitReader.rice
// (escapes, the block's last bytes); nb is badBits when the code is
// damaged (bitReader's bad).
func riceSlow(data []byte, pos int, buf uint64, nb uint, k uint8) (uint64, int, uint64, uint) {
	br := bitReader{data: data[pos:], buf: buf, n: nb}
	v := br.rice(k)
	if br.bad {
		return 0, 0, 0, badBits
	}
	return v, len(data) - len(br.data), br.buf, br.n
}
