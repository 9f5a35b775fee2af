package posrun

import (
	"encoding/binary"
	"errors"
	"slices"
)

// A block holds occurrences in (key, at) order: the first as its key
// (signed varint) and at (uvarint); each next one as the key's increase
// (uvarint) and, when it is 0, the at's increase, else the at. A block is
// cut once it passes blockBytes, also inside one key's list.

// blockEncoder cuts a sorted stream of occurrences into blocks.
type blockEncoder struct {
	buf        []byte
	first      bool
	key, at    int64
	n          int64 // occurrences written
	emit       func(last int64, data []byte) error
	maxBlockSz int
	filter     *runFilter // nil: none
	count      keyCounter // the run's hot keys (counts.go)
}

func newBlockEncoder(emit func(last int64, data []byte) error) *blockEncoder {
	return &blockEncoder{first: true, emit: emit, maxBlockSz: blockBytes, buf: make([]byte, 0, blockBytes+32)}
}

// add appends one occurrence; occurrences come in (key, at) order, a
// repeat of the previous one is dropped.
func (e *blockEncoder) add(key, at int64) error {
	if e.filter != nil && (e.n == 0 || key != e.key) {
		e.filter.add(key)
	}
	switch {
	case e.first:
		e.buf = binary.AppendVarint(e.buf, key)
		e.buf = appendUvarint(e.buf, uint64(at))
		e.first = false
	case key == e.key:
		if at == e.at {
			return nil
		}
		e.buf = append(e.buf, 0)
		e.buf = appendUvarint(e.buf, uint64(at-e.at))
	default:
		e.buf = appendUvarint(e.buf, uint64(key-e.key))
		e.buf = appendUvarint(e.buf, uint64(at))
	}
	e.key, e.at = key, at
	e.n++
	e.count.add(key)
	if len(e.buf) >= e.maxBlockSz {
		return e.flush()
	}
	return nil
}

func (e *blockEncoder) flush() error {
	if e.first {
		return nil
	}
	err := e.emit(e.key, e.buf)
	e.buf = e.buf[:0]
	e.first = true
	return err
}

// blockDecoder reads a block's occurrences in order.
type blockDecoder struct {
	data    []byte
	key, at int64
	started bool
	err     error
}

func (d *blockDecoder) reset(data []byte) { *d = blockDecoder{data: data} }

func (d *blockDecoder) next() bool {
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
