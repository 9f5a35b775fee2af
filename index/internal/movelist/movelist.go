// Package movelist is the compact move list stored with every valid game
// (games.moves): the whole move tree as the rules' move values, so that
// pattern search and deep opening-tree queries never re-read the record
// text:
//
//	line := uvarint(n) step{n}
//	step := uvarint(move) uvarint(nvars) line{nvars}
//
// move is the rules.Move value the game's rules produced (the canonical
// text is in the stored record, and FormatMove gives it back). Steps are
// numbered 0, 1, 2, … in that (pre-)order. A Decoder reads a list as it
// is played (no tree is built); Decode builds the tree. A corrupt list is
// an error wrapping ErrCorrupt, never a panic, and its nesting is bounded.
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
	return appendLine(make([]byte, 0, len(main)*8+4), main)
}

// appendLine appends a line of steps and its variations to buf. The buffer
// goes in and out of the calls (a closure's captured buffer is written
// through a pointer: a write barrier at every append while the GC runs).
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
	d := Decoder{b: b}
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
			mv := d.Uvarint()
			nv := d.Uvarint()
			if d.err != nil || nv > uint64(len(b)) {
				d.Fail()
				return nil
			}
			ml.Steps[k].Move = rules.Move(mv)
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

// Decoder reads a stored move list value by value, as it is played: a
// line's length, then each step's move and number of variations, the
// variations' lines before the next step. A failure sets Err and ends
// the list.
type Decoder struct {
	b   []byte
	i   int // read so far (an index, not a reslice: no write barrier); len(b) after a failure
	err error
}

// NewDecoder reads the move list b.
func NewDecoder(b []byte) Decoder { return Decoder{b: b} }

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

// SkipLine reads past one line of a stored move list.
func SkipLine(d *Decoder) {
	n := d.Uvarint()
	if n > uint64(d.Rest()) {
		d.Fail()
		return
	}
	for ; n > 0 && d.err == nil; n-- {
		d.Uvarint()
		for nv := d.Uvarint(); nv > 0 && d.err == nil; nv-- {
			SkipLine(d)
		}
	}
}
