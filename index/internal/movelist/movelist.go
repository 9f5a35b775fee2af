// Package movelist is the compact move list stored with every valid game
// (games.moves): the whole move tree as the rules' move values, so that
// pattern search and deep opening-tree queries never re-read the record
// text. A list is packed (since layout 22) or legacy:
//
//	packed := byte(0x80 | low) 0x00 uvarint(mask) pline
//	pline  := uvarint(n) pstep{n}
//	pstep  := value(pack(move) | has<<w) [uvarint(nvars) pline{nvars}]
//	value(v) := v's low 8*low bits, little-endian, uvarint(v >> (8*low))
//	legacy := line
//	line   := uvarint(n) step{n}
//	step   := uvarint(move) uvarint(nvars) line{nvars}
//
// move is the rules.Move value the game's rules produced (the canonical
// text is in the stored record, and FormatMove gives it back). Steps are
// numbered 0, 1, 2, … in that (pre-)order. A Decoder reads a list as it
// is played (no tree is built); Decode builds the tree. A corrupt list is
// an error wrapping ErrCorrupt, never a panic, and its nesting is bounded.
//
// Decisions:
//
//   - A packed list keeps of each move value only the bits of mask: the
//     bits some move of the list sets, in at most maxSegs runs (the
//     narrowest gaps between runs filled), w of them. pack gathers them
//     low bit first; a rules package's move value has fields that few
//     moves fill (a captured piece, flags), and the list drops the bits
//     none of its moves uses.
//   - A step's variations are a flag, bit w of its value, followed by
//     their count only when there are some: most steps have none, and a
//     count of 0 took a byte a step.
//   - A value's low bytes (low of them, 0 to maxLow) are whole bytes,
//     its rest a uvarint: a value of 22 bits takes 2 bytes and 1, where
//     a uvarint takes 4. The encoder takes the low that makes the list
//     shortest.
//   - The packed header, a byte with its high bit and 0x00, is a uvarint
//     no legacy list starts with (a uvarint's last byte is never 0 after
//     the first), so that a reader tells the two forms apart without the
//     layout: a list of no step, or whose moves use every bit, is written
//     legacy.
package movelist

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math/bits"

	"github.com/plateau/plateau/replay"
	"github.com/plateau/plateau/rules"
)

// ErrCorrupt: a stored move list does not decode.
var ErrCorrupt = errors.New("corrupt move list")

// maxMoveDepth bounds the nesting of variations in a decoded move list (the
// record reader allows 512), so that a corrupt list cannot recurse deeply.
const maxMoveDepth = 1024

// Encode returns the move list of a replayed game's main line.
func Encode(main []*replay.Step) []byte {
	or, n := orMoves(main)
	p, ok := newPacking(fitMask(or))
	if n == 0 || !ok {
		return appendLine(make([]byte, 0, n*8+4), main)
	}
	if b, ok := encodeFlat(main, &p); ok {
		return b
	}
	return encodeTree(main, &p)
}

// encodeTree is the packed list of main and its variations under p.
func encodeTree(main []*replay.Step, p *packing) []byte {
	var lens lengths
	p.lengths(main, &lens)
	buf := p.begin(&lens)
	return appendPacked(buf, p, main)
}

// maxFlat is the longest line encodeFlat takes.
const maxFlat = 512

// encodeFlat is encodeTree for a line without variations of at most
// maxFlat steps (most games), packing each move once; false for another.
func encodeFlat(main []*replay.Step, p *packing) ([]byte, bool) {
	if len(main) > maxFlat {
		return nil, false
	}
	var vals [maxFlat]uint64
	lens := lengths{lines: 1}
	for i, s := range main {
		if len(s.Variations) > 0 {
			return nil, false
		}
		v := p.pack(uint64(s.Move))
		vals[i] = v
		lens.value[bits.Len64(v)]++
	}
	buf := binary.AppendUvarint(p.begin(&lens), uint64(len(main)))
	for _, v := range vals[:len(main)] {
		buf = p.appendValue(buf, v)
	}
	return buf, true
}

// begin sets the low bytes of p's values that make the list counted in
// lens shortest, and returns a buffer of room for the list holding its
// header.
func (p *packing) begin(lens *lengths) []byte {
	sizes := lens.sizes()
	for l := range sizes {
		if sizes[l] < sizes[p.low] {
			p.setLow(uint8(l))
		}
	}
	buf := make([]byte, 0, sizes[p.low]+16)
	buf = append(buf, packedHeader0|p.low, packedHeader1)
	return binary.AppendUvarint(buf, p.mask)
}

// The two bytes a packed list starts with: the first with the number of
// low bytes of its values.
const (
	packedHeader0 = 0x80
	packedHeader1 = 0x00
)

// maxLow is the most low bytes of a packed list's values.
const maxLow = 4

// orMoves is the union of the bits of the move values of a line and its
// variations, and their number of steps.
func orMoves(steps []*replay.Step) (or uint64, n int) {
	for _, s := range steps {
		or |= uint64(s.Move)
		n++
		for _, v := range s.Variations {
			o, k := orMoves(v)
			or, n = or|o, n+k
		}
	}
	return or, n
}

// appendLine appends a line of steps and its variations to buf in the
// legacy form. The buffer goes in and out of the calls (a closure's
// captured buffer is written through a pointer: a write barrier at every
// append while the GC runs).
func appendLine(buf []byte, steps []*replay.Step) []byte {
	buf = binary.AppendUvarint(buf, uint64(len(steps)))
	for _, s := range steps {
		buf = binary.AppendUvarint(buf, uint64(s.Move))
		buf = binary.AppendUvarint(buf, uint64(len(s.Variations)))
		for _, v := range s.Variations {
			buf = appendLine(buf, v)
		}
	}
	return buf
}

// appendPacked appends a line of steps and its variations to buf in the
// packed form of p.
func appendPacked(buf []byte, p *packing, steps []*replay.Step) []byte {
	buf = binary.AppendUvarint(buf, uint64(len(steps)))
	for _, s := range steps {
		v := p.pack(uint64(s.Move))
		if len(s.Variations) == 0 {
			buf = p.appendValue(buf, v)
			continue
		}
		buf = p.appendValue(buf, v|1<<p.w)
		buf = binary.AppendUvarint(buf, uint64(len(s.Variations)))
		for _, vr := range s.Variations {
			buf = appendPacked(buf, p, vr)
		}
	}
	return buf
}

// Repack returns a stored list (of either form) as Encode writes it.
func Repack(b []byte) ([]byte, error) {
	ml, err := Decode(b)
	if err != nil {
		return nil, err
	}
	return Encode(ml.replaySteps(ml.Main)), nil
}

// replaySteps are the steps of line as the replay gives them (their
// moves and variations only), for Encode.
func (ml *List) replaySteps(line []int) []*replay.Step {
	out := make([]*replay.Step, len(line))
	for i, k := range line {
		st := &ml.Steps[k]
		out[i] = &replay.Step{Move: st.Move}
		for _, v := range st.Vars {
			out[i].Variations = append(out[i].Variations, ml.replaySteps(v))
		}
	}
	return out
}

// Step is one step of a decoded move list.
type Step struct {
	Move  rules.Move
	Depth int
	Vars  [][]int // the variations branching before this step: step numbers
}

// List is a decoded move list: every step by number, and the main line.
type List struct {
	Steps []Step
	Main  []int
}

// Decode decodes a stored move list.
func Decode(b []byte) (*List, error) {
	ml := &List{}
	d := NewDecoder(b)
	var line func(depth int) []int
	line = func(depth int) []int {
		n := d.Uvarint()
		if d.err != nil || n > uint64(len(b)) || depth > maxMoveDepth {
			d.Fail()
			return nil
		}
		out := make([]int, 0, n)
		for i := uint64(0); i < n && d.err == nil; i++ {
			k := len(ml.Steps)
			ml.Steps = append(ml.Steps, Step{Depth: depth})
			mv, nv := d.Step()
			if d.err != nil || nv > uint64(len(b)) {
				d.Fail()
				return nil
			}
			ml.Steps[k].Move = mv
			var vars [][]int
			for j := uint64(0); j < nv && d.err == nil; j++ {
				vars = append(vars, line(depth+1))
			}
			ml.Steps[k].Vars = vars
			out = append(out, k)
		}
		return out
	}
	ml.Main = line(0)
	if d.err != nil {
		return nil, fmt.Errorf("%w: %v", ErrCorrupt, d.err)
	}
	return ml, nil
}

// Decoder reads a stored move list as it is played: a line's length
// (Uvarint), then each step's move and number of variations (Step), the
// variations' lines before the next step. A failure sets Err and ends
// the list.
type Decoder struct {
	b      []byte
	i      int // read so far (an index, not a reslice: no write barrier); len(b) after a failure
	err    error
	packed bool
	p      packing
}

// NewDecoder reads the move list b, packed or legacy.
func NewDecoder(b []byte) Decoder {
	d := Decoder{b: b}
	if len(b) >= 2 && b[0]&packedHeader0 != 0 && b[1] == packedHeader1 {
		d.i, d.packed = 2, true
		var ok bool
		if d.p, ok = newPacking(d.Uvarint()); !ok || b[0]&^packedHeader0 > maxLow {
			d.Fail()
		}
		d.p.setLow(min(b[0]&^packedHeader0, maxLow))
	}
	return d
}

// Step reads a step: its move and its number of variations, whose lines
// follow.
func (d *Decoder) Step() (rules.Move, uint64) {
	if !d.packed {
		v := d.Uvarint()
		return rules.Move(v), d.Uvarint()
	}
	var v uint64
	i, s := d.i, d.p.shift
	if i+8 <= len(d.b) {
		// Most values: the low bytes and the rest's uvarint in one word.
		// The rest's 7-bit groups are gathered as Uvarint does (at most
		// 56 bits, shifted by at most 32: no overflow).
		x := binary.LittleEndian.Uint64(d.b[i:])
		r := x >> s
		if stop := ^r & 0x8080808080808080 & d.p.restBits; stop != 0 {
			k := bits.TrailingZeros64(stop)/8 + 1
			r &= 1<<(8*uint(k)) - 1 // k == 8 keeps every byte
			r = r&0x007f007f007f007f | r>>1&0x3f803f803f803f80
			r = r&0x00003fff00003fff | r>>2&0x0fffc0000fffc000
			r = r&0x000000000fffffff | r>>4&0x00fffffff0000000
			v, d.i = x&d.p.lowBits|r<<s, i+int(d.p.low)+k
		} else {
			v = d.value()
		}
	} else {
		v = d.value()
	}
	var nv uint64
	if has := v >> d.p.w; has != 0 {
		if nv = d.Uvarint(); has != 1 || nv == 0 {
			d.Fail()
			return 0, 0
		}
		v &^= 1 << d.p.w
	}
	return rules.Move(d.p.unpack(v)), nv
}

// Err is the decoder's failure, if any (wrapping ErrCorrupt).
func (d *Decoder) Err() error { return d.err }

// Rest is the number of bytes not read yet.
func (d *Decoder) Rest() int { return len(d.b) - d.i }

// Fail marks the list corrupt.
func (d *Decoder) Fail() {
	if d.err == nil {
		d.err = ErrCorrupt
	}
	d.i = len(d.b)
}

// Uvarint reads a uvarint: one byte (most counts) at once, up to 8
// (moves) in one word, longer ones byte by byte. After a failure it reads
// 0.
func (d *Decoder) Uvarint() uint64 {
	i := d.i
	if uint(i) < uint(len(d.b)) { // i < len(b): no failure yet
		if c := d.b[i]; c < 0x80 {
			d.i = i + 1
			return uint64(c)
		}
	}
	if d.err != nil {
		return 0
	}
	if i+8 <= len(d.b) {
		// The value's bytes are those up to the first without its high
		// bit: when that is among the next 8, gather their 7-bit groups
		// (at most 56 bits: no overflow), two by two, then four by four,
		// then the two halves.
		x := binary.LittleEndian.Uint64(d.b[i:])
		if stop := ^x & 0x8080808080808080; stop != 0 {
			n := bits.TrailingZeros64(stop)/8 + 1
			x &= 1<<(8*uint(n)) - 1 // n == 8 keeps every byte
			d.i = i + n
			x = x&0x007f007f007f007f | x>>1&0x3f803f803f803f80
			x = x&0x00003fff00003fff | x>>2&0x0fffc0000fffc000
			return x&0x000000000fffffff | x>>4&0x00fffffff0000000
		}
	}
	var v uint64
	for shift, i := uint(0), d.i; i < len(d.b) && shift < 64; shift, i = shift+7, i+1 {
		c := d.b[i]
		v |= uint64(c&0x7f) << shift
		if c < 0x80 {
			if shift == 63 && c > 1 {
				break // overflow
			}
			d.i = i + 1
			return v
		}
	}
	d.Fail()
	return 0
}

// MainText is the canonical text of the main-line move played at ply
// (the move that hands the turn over, after any huff) from start; false
// when the line is shorter or a move does not play.
func MainText(ml *List, start rules.Position, ply int) (text string, ok bool) {
	defer func() {
		if recover() != nil {
			text, ok = "", false
		}
	}()
	pos := start.Clone()
	p := 0
	for _, k := range ml.Main {
		m := ml.Steps[k].Move
		keeps := rules.KeepsTurn(pos, m)
		if p == ply && !keeps {
			return pos.FormatMove(m), true
		}
		pos.Play(m)
		if !keeps {
			p++
		}
	}
	return "", false
}

// Played is a main-line move as the opening tree counts it: the key of the
// position it is played from and its canonical text.
type Played struct {
	Key  uint64
	Text string
}

// MainMoves are the main-line moves of the first plies of a game from
// start, those that hand the turn over (a huff is not a tree move), as
// the import counts them in the opening tree; false when a move does not
// play.
func MainMoves(ml *List, start rules.Position, plies int) (out []Played, ok bool) {
	defer func() {
		if recover() != nil {
			out, ok = nil, false
		}
	}()
	pos := start.Clone()
	p := 0
	for _, k := range ml.Main {
		if p >= plies {
			break
		}
		m := ml.Steps[k].Move
		keeps := rules.KeepsTurn(pos, m)
		if !keeps {
			out = append(out, Played{pos.Key(), pos.FormatMove(m)})
			p++
		}
		pos.Play(m)
	}
	return out, true
}

// value reads a packed value: its low bytes, then the rest, a uvarint
// (of one byte, most often, read here).
func (d *Decoder) value() uint64 {
	n := int(d.p.low)
	if n == 0 {
		return d.Uvarint()
	}
	i := d.i
	var lo uint64
	switch {
	case i+8 <= len(d.b):
		lo = binary.LittleEndian.Uint64(d.b[i:]) & (1<<(8*uint(n)) - 1)
	case i+n <= len(d.b):
		for k := i + n - 1; k >= i; k-- {
			lo = lo<<8 | uint64(d.b[k])
		}
	default:
		d.Fail()
		return 0
	}
	i += n
	if i < len(d.b) && d.b[i] < 0x80 {
		d.i = i + 1
		return lo | uint64(d.b[i])<<(8*uint(n))
	}
	d.i = i
	hi := d.Uvarint()
	if hi>>(64-8*uint(n)) != 0 {
		d.Fail()
		return 0
	}
	return lo | hi<<(8*uint(n))
}

// SkipLine reads past one line of a stored move list.
func SkipLine(d *Decoder) {
	n := d.Uvarint()
	if n > uint64(d.Rest()) {
		d.Fail()
		return
	}
	for ; n > 0 && d.err == nil; n-- {
		_, nv := d.Step()
		for ; nv > 0 && d.err == nil; nv-- {
			SkipLine(d)
		}
	}
}
