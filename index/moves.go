package index

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math/bits"

	"github.com/plateau/plateau/replay"
	"github.com/plateau/plateau/rules"
)

// The compact move list stored with every valid game (games.moves) holds the
// whole move tree so that pattern search and deep opening-tree queries never
// re-read the record text:
//
//	line := uvarint(n) step{n}
//	step := uvarint(move) uvarint(nvars) line{nvars}
//
// move is the rules.Move value the game's rules produced (the canonical text
// is in the stored record, and FormatMove gives it back). Steps are numbered
// 0, 1, 2, … in that (pre-)order; the positions table names a position's
// next move by that number.

var errMoves = errors.New("corrupt move list")

// maxMoveDepth bounds the nesting of variations in a decoded move list (the
// record reader allows 512), so that a corrupt list cannot recurse deeply.
const maxMoveDepth = 1024

// encodeMoves returns the move list of a replayed game.
func encodeMoves(main []*replay.Step) []byte {
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

// storedStep is one step of a decoded move list.
type storedStep struct {
	Move  rules.Move
	Depth int
	Vars  [][]int // the variations branching before this step: step numbers
}

// moveList is a decoded move list: every step by number, and the main line.
type moveList struct {
	Steps []storedStep
	Main  []int
}

func decodeMoves(b []byte) (*moveList, error) {
	ml := &moveList{}
	d := decoder{b: b}
	var line func(depth int) []int
	line = func(depth int) []int {
		n := d.uvarint()
		if d.err != nil || n > uint64(len(b)) || depth > maxMoveDepth {
			d.fail()
			return nil
		}
		out := make([]int, 0, n)
		for i := uint64(0); i < n && d.err == nil; i++ {
			k := len(ml.Steps)
			ml.Steps = append(ml.Steps, storedStep{Depth: depth})
			mv := d.uvarint()
			nv := d.uvarint()
			if d.err != nil || nv > uint64(len(b)) {
				d.fail()
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
		return nil, fmt.Errorf("%w: %v", errMoves, d.err)
	}
	return ml, nil
}

type decoder struct {
	b   []byte
	i   int // read so far (an index, not a reslice: no write barrier); len(b) after a failure
	err error
}

// rest is the number of bytes not read yet.
func (d *decoder) rest() int { return len(d.b) - d.i }

// fail marks the list corrupt.
func (d *decoder) fail() {
	if d.err == nil {
		d.err = errMoves
	}
	d.i = len(d.b)
}

// uvarint reads a uvarint: one byte (most counts) at once, up to 8 (moves)
// in one word, longer ones byte by byte.
func (d *decoder) uvarint() uint64 {
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
	d.fail()
	return 0
}

// mainText is the canonical text of the main-line move played at ply
// (the move that hands the turn over, after any huff).
func mainText(ml *moveList, start rules.Position, ply int) (text string, ok bool) {
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
