package posrun

import (
	"encoding/binary"
	"errors"
	"math/bits"
	"slices"
)

// A block holds occurrences in (key, at) order, cut once it passes
// blockBytes, also inside one key's list. Its bytes (layout 15):
//
//	block := uvarint(n) varint(key) uvarint(at) kKey kHigh kLow kStep bits
//
// n occurrences; the first one's key and at; four Rice parameters (a
// byte each); then, LSB first, each next occurrence: a bit 1 and the at's
// increase less 1 (Rice kStep) when its key is the previous one's, else a
// bit 0, the key's increase less 1 (Rice kKey) and its at as two parts:
// at>>atLowBits (Rice kHigh, the game) and at's low atLowBits (Rice kLow,
// the ply and variation). The parameters are chosen from the block's
// first sampleSize occurrences.
//
// A Rice code of v with parameter k is q = v>>k zero bits, a 1 bit and
// v's low k bits; a q of riceEscape or more is riceEscape zero bits and v
// in 64 bits. Keys are hashes: their increases carry about log2(2^64/keys)
// bits, which a varint stored in whole bytes of 7 bits, and the at's game
// and ply are each coded in about their own bits, where a varint of the
// packed at spent the ply's 13 bits on values mostly under 200.
//
// Databases of layout 14 and before hold legacyBlocks: the first
// occurrence as its key (signed varint) and at (uvarint); each next one as
// the key's increase (uvarint) and, when it is 0, the at's increase, else
// the at. A Store reads them on a read-only handle of such a database
// (Config.LegacyBlocks); writers write the layout-15 form only.

const (
	atLowBits  = plyBits + 1 // an at's ply and variation bits
	sampleSize = 64          // occurrences a block's parameters are chosen from
	riceEscape = 24
)

// occ is an occurrence.
type occ struct{ key, at int64 }

// riceParams are a block's Rice parameters.
type riceParams struct{ key, high, low, step uint8 }

// chooseParams picks a block's parameters from its first occurrences
// (the block's first, then the others in order): for each field, the
// bit length of its mean less 1.
func chooseParams(first occ, rest []occ) riceParams {
	var sum [4]float64
	var cnt [4]float64
	prev := first
	for _, o := range rest {
		if o.key == prev.key {
			sum[3] += float64(uint64(o.at - prev.at - 1))
			cnt[3]++
		} else {
			sum[0] += float64(uint64(o.key-prev.key) - 1)
			sum[1] += float64(uint64(o.at) >> atLowBits)
			sum[2] += float64(uint64(o.at) & (1<<atLowBits - 1))
			cnt[0]++
		}
		prev = o
	}
	cnt[1], cnt[2] = cnt[0], cnt[0]
	var k [4]uint8
	for i := range k {
		if cnt[i] > 0 {
			mean := sum[i] / cnt[i]
			if mean >= 1<<62 {
				k[i] = 62
			} else if l := bits.Len64(uint64(mean)); l > 1 {
				k[i] = uint8(l - 1)
			}
		}
	}
	return riceParams{k[0], k[1], k[2], k[3]}
}

// bitWriter appends bits, LSB first, eight bytes at a time.
type bitWriter struct {
	out  []byte
	acc  uint64 // the bits not appended yet, nacc of them (less than 64)
	nacc uint
}

func (w *bitWriter) reset(out []byte) { *w = bitWriter{out: out} }

// write appends the n bits of v, n at most 64; v has no bit at n or above.
func (w *bitWriter) write(v uint64, n uint) {
	w.acc |= v << w.nacc // Go shifts of 64 or more give 0
	if w.nacc += n; w.nacc >= 64 {
		w.out = binary.LittleEndian.AppendUint64(w.out, w.acc)
		w.nacc -= 64
		w.acc = v >> (n - w.nacc) // the bits of v not appended; 0 when none
	}
}

// rice appends the bit flag (0 or 1; fn bits of it: 0 or 1), then the
// Rice code of v with parameter k, as one write when it fits.
func (w *bitWriter) rice(flag uint64, fn uint, v uint64, k uint8) {
	q := v >> k
	if q >= riceEscape {
		w.write(flag, fn+riceEscape)
		w.write(v, 64)
		return
	}
	low := v & (1<<k - 1)
	if n := fn + uint(q) + 1 + uint(k); n <= 64 {
		w.write(flag|1<<(fn+uint(q))|low<<(fn+uint(q)+1), n)
		return
	}
	w.write(flag|1<<(fn+uint(q)), fn+uint(q)+1)
	w.write(low, uint(k))
}

// bits is the number of bits written.
func (w *bitWriter) bits() int { return len(w.out)*8 + int(w.nacc) }

// end appends the last partial bytes and returns the bytes.
func (w *bitWriter) end() []byte {
	for w.nacc > 0 {
		w.out = append(w.out, byte(w.acc))
		w.acc >>= 8
		w.nacc -= min(w.nacc, 8)
	}
	return w.out
}

// blockEncoder cuts a sorted stream of occurrences into blocks.
type blockEncoder struct {
	buf        []byte // the block emitted
	first      bool   // the block has no occurrence yet
	key, at    int64  // the last occurrence
	n          int64  // occurrences written
	emit       func(last int64, data []byte) error
	maxBlockSz int
	filter     *runFilter // nil: none
	count      keyCounter // the run's hot keys (counts.go)

	head    occ   // the block's first occurrence
	headSz  int   // the bytes of its header, at most
	inBlock int   // its occurrences
	pend    []occ // the occurrences after head, until the parameters are chosen
	pendSz  int   // an upper bound of their bytes
	par     riceParams
	fixed   bool // par chosen: occurrences are written to bw
	bw      bitWriter
}

func newBlockEncoder(emit func(last int64, data []byte) error) *blockEncoder {
	return &blockEncoder{first: true, emit: emit, maxBlockSz: blockBytes,
		buf: make([]byte, 0, blockBytes+64), pend: make([]occ, 0, sampleSize)}
}

// add appends one occurrence; occurrences come in (key, at) order, a
// repeat of the previous one is dropped, in a block or across two.
func (e *blockEncoder) add(key, at int64) error {
	if e.filter != nil && (e.n == 0 || key != e.key) {
		e.filter.add(key)
	}
	o := occ{key, at}
	switch {
	case e.n > 0 && key == e.key && at == e.at:
		return nil // also at a block's start
	case e.first:
		e.head, e.inBlock, e.first = o, 0, false
		e.headSz = 3 + varintLen(key) + uvarintLen(uint64(at)) + 4
	case !e.fixed:
		e.pend = append(e.pend, o)
		e.pendSz += 2 * binary.MaxVarintLen64
		if len(e.pend) == sampleSize {
			e.fix()
		}
	default:
		e.put(e.key, e.at, o)
	}
	e.key, e.at = key, at
	e.inBlock++
	e.n++
	e.count.add(key)
	if e.size() >= e.maxBlockSz {
		return e.flush()
	}
	return nil
}

// size is the block's bytes so far (an upper bound before the parameters
// are chosen).
func (e *blockEncoder) size() int {
	if !e.fixed {
		return e.headSz + e.pendSz
	}
	return e.headSz + (e.bw.bits()+7)/8
}

func uvarintLen(v uint64) int { return (bits.Len64(v|1) + 6) / 7 }

func varintLen(v int64) int { return uvarintLen(uint64(v<<1) ^ uint64(v>>63)) }

// fix chooses the block's parameters and writes the pending occurrences.
func (e *blockEncoder) fix() {
	e.par = chooseParams(e.head, e.pend)
	e.fixed = true
	e.bw.reset(e.bw.out[:0])
	prev := e.head
	for _, o := range e.pend {
		e.put(prev.key, prev.at, o)
		prev = o
	}
	e.pend = e.pend[:0]
	e.pendSz = 0
}

// put writes o, the occurrence after (key, at): each Rice code as
// bitWriter.rice writes it, the game's and the ply's in one write when
// they fit (riceBits), the same bits.
func (e *blockEncoder) put(key, at int64, o occ) {
	w := &e.bw
	if o.key == key {
		step := uint64(o.at - at - 1)
		if c, n := riceBits(1, 1, step, e.par.step); n != 0 {
			w.write(c, n)
		} else {
			w.rice(1, 1, step, e.par.step)
		}
		return
	}
	gap := uint64(o.key-key) - 1
	if c, n := riceBits(0, 1, gap, e.par.key); n != 0 {
		w.write(c, n)
	} else {
		w.rice(0, 1, gap, e.par.key)
	}
	high, low := uint64(o.at)>>atLowBits, uint64(o.at)&(1<<atLowBits-1)
	ch, nh := riceBits(0, 0, high, e.par.high)
	cl, nl := riceBits(0, 0, low, e.par.low)
	if nh != 0 && nl != 0 && nh+nl <= 64 {
		w.write(ch|cl<<(nh&63), nh+nl)
		return
	}
	w.rice(0, 0, high, e.par.high)
	w.rice(0, 0, low, e.par.low)
}

// riceBits is what bitWriter.rice writes in one write: the flag (fn bits
// of it), then the Rice code of v with parameter k, as bits to write and
// their count; n is 0 when rice writes more than one (an escape, more
// than 64 bits).
func riceBits(flag uint64, fn uint, v uint64, k uint8) (bits uint64, n uint) {
	q := uint(v >> (k & 63))
	if n = fn + q + 1 + uint(k); q >= riceEscape || n > 64 {
		return 0, 0
	}
	low := v & (1<<(k&63) - 1)
	return flag | 1<<((fn+q)&63) | low<<((fn+q+1)&63), n
}

func (e *blockEncoder) flush() error {
	if e.first {
		return nil
	}
	if !e.fixed {
		e.fix()
	}
	b := binary.AppendUvarint(e.buf[:0], uint64(e.inBlock))
	b = binary.AppendVarint(b, e.head.key)
	b = binary.AppendUvarint(b, uint64(e.head.at))
	b = append(b, e.par.key, e.par.high, e.par.low, e.par.step)
	b = append(b, e.bw.end()...)
	e.buf = b
	err := e.emit(e.key, b)
	e.first, e.fixed = true, false
	e.bw.reset(e.bw.out[:0])
	return err
}

// blockDecoder reads a block's occurrences in order.
type blockDecoder struct {
	data    []byte
	key, at int64
	started bool
	err     error
	legacy  bool // a legacy block (kept by reset)

	left uint64 // occurrences not read yet
	par  riceParams
	br   bitReader
}

func (d *blockDecoder) reset(data []byte) { *d = blockDecoder{data: data, legacy: d.legacy} }

func (d *blockDecoder) next() bool {
	if d.legacy {
		return d.nextLegacy()
	}
	if d.err != nil {
		return false
	}
	if !d.started {
		if len(d.data) == 0 {
			return false
		}
		return d.header()
	}
	if d.left == 0 {
		return false
	}
	d.left--
	br := &d.br
	if br.read(1) == 1 {
		step := br.rice(d.par.step) + 1
		if step == 0 || step > 1<<63-1-uint64(d.at) {
			d.err = errBadBlock
		}
		d.at += int64(step)
	} else {
		gap := br.rice(d.par.key) + 1
		if gap == 0 {
			d.err = errBadBlock
		}
		d.key += int64(gap)
		high := br.rice(d.par.high)
		low := br.rice(d.par.low)
		if high >= 1<<(63-atLowBits) || low >= 1<<atLowBits {
			d.err = errBadBlock
		}
		d.at = int64(high<<atLowBits | low)
	}
	if br.bad {
		d.err = errBadBlock
	}
	return d.err == nil
}

// header reads the block's count, first occurrence and parameters.
func (d *blockDecoder) header() bool {
	n := d.uvarint()
	key := d.varint()
	at := d.uvarint()
	if d.err == nil && (len(d.data) < 4 || n == 0 || at > 1<<63-1) {
		d.err = errBadBlock
	}
	if d.err != nil {
		return false
	}
	d.par = riceParams{d.data[0], d.data[1], d.data[2], d.data[3]}
	if d.par.key > 63 || d.par.high > 63 || d.par.low > 63 || d.par.step > 63 {
		d.err = errBadBlock
		return false
	}
	d.br = bitReader{data: d.data[4:]}
	d.data = nil
	d.key, d.at, d.left, d.started = key, int64(at), n-1, true
	return true
}

// bitReader reads bits LSB first; reading past the end sets bad and
// reads zeros.
type bitReader struct {
	data []byte
	buf  uint64
	n    uint // bits in buf
	bad  bool
}

// fill makes buf hold at least 57 bits, or every bit left.
func (r *bitReader) fill() {
	if len(r.data) >= 8 {
		r.buf |= binary.LittleEndian.Uint64(r.data) << r.n
		k := (63 - r.n) / 8
		r.data = r.data[k:]
		r.n += k * 8
		return
	}
	for r.n <= 56 && len(r.data) > 0 {
		r.buf |= uint64(r.data[0]) << r.n
		r.data = r.data[1:]
		r.n += 8
	}
}

// read reads n bits, n at most 56.
func (r *bitReader) read(n uint) uint64 {
	if r.n < n {
		r.fill()
		if r.n < n {
			r.bad = true
			r.n = n
		}
	}
	v := r.buf & (1<<n - 1)
	r.buf >>= n
	r.n -= n
	return v
}

func (r *bitReader) readLong(n uint) uint64 {
	if n > 32 {
		lo := r.read(32)
		return lo | r.read(n-32)<<32
	}
	return r.read(n)
}

func (r *bitReader) rice(k uint8) uint64 {
	if r.n < riceEscape+1 {
		r.fill()
	}
	q := uint(bits.TrailingZeros64(r.buf))
	if q >= riceEscape {
		if r.n < riceEscape {
			r.bad = true
			return 0
		}
		r.buf >>= riceEscape
		r.n -= riceEscape
		return r.readLong(64)
	}
	if q >= r.n {
		r.bad = true
		return 0
	}
	r.buf >>= q + 1
	r.n -= q + 1
	if r.n >= uint(k) { // the low bits are in buf: no fill
		v := r.buf & (1<<k - 1)
		r.buf >>= k
		r.n -= uint(k)
		return uint64(q)<<k | v
	}
	return uint64(q)<<k | r.readLong(uint(k))
}

// nextLegacy reads a legacy block's next occurrence.
func (d *blockDecoder) nextLegacy() bool {
	if len(d.data) == 0 || d.err != nil {
		return false
	}
	if !d.started {
		// The first occurrence: key (signed) and at.
		first := d.varint()
		v := d.uvarint()
		if d.err != nil {
			return false
		}
		d.key, d.at, d.started = first, int64(v), true
		return true
	}
	// The others: the key's increase and, when it is 0, the at's
	// increase, else the at.
	dk, n := uvarint(d.data)
	if n <= 0 {
		d.err = errBadBlock
		return false
	}
	v, m := uvarint(d.data[n:])
	if m <= 0 {
		d.err = errBadBlock
		return false
	}
	d.data = d.data[n+m:]
	if dk == 0 {
		d.at += int64(v)
	} else {
		d.key += int64(dk)
		d.at = int64(v)
	}
	return true
}

// uvarint is binary.Uvarint, a byte's value inline.
func uvarint(b []byte) (uint64, int) {
	if len(b) > 0 && b[0] < 0x80 {
		return uint64(b[0]), 1
	}
	return binary.Uvarint(b)
}

func (d *blockDecoder) uvarint() uint64 {
	v, n := binary.Uvarint(d.data)
	if n <= 0 {
		d.err = errBadBlock
		return 0
	}
	d.data = d.data[n:]
	return v
}

func (d *blockDecoder) varint() int64 {
	v, n := binary.Varint(d.data)
	if n <= 0 {
		d.err = errBadBlock
		return 0
	}
	d.data = d.data[n:]
	return v
}

var errBadBlock = errors.New("position index: damaged block")

// appendUvarint is binary.AppendUvarint, room made once.
func appendUvarint(buf []byte, v uint64) []byte {
	if v < 0x80 {
		return append(buf, byte(v))
	}
	n := len(buf)
	if cap(buf)-n < binary.MaxVarintLen64 {
		buf = slices.Grow(buf, binary.MaxVarintLen64)
	}
	b := buf[n : n+binary.MaxVarintLen64]
	i := 0
	for ; v >= 0x80 && i < len(b)-1; i++ {
		b[i] = byte(v) | 0x80
		v >>= 7
	}
	b[i] = byte(v)
	return buf[:n+i+1]
}
