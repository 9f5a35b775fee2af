package movelist

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/plateau/plateau/replay"
	"github.com/plateau/plateau/rules"
)

// tree builds replay steps: each entry a move, or a []any of variations
// of the move before it (each variation a []any itself).
func tree(spec ...any) []*replay.Step {
	var out []*replay.Step
	for _, e := range spec {
		switch e := e.(type) {
		case int:
			out = append(out, &replay.Step{Move: rules.Move(e)})
		case uint64:
			out = append(out, &replay.Step{Move: rules.Move(e)})
		case [][]any:
			last := out[len(out)-1]
			for _, v := range e {
				last.Variations = append(last.Variations, tree(v...))
			}
		}
	}
	return out
}

// TestFitMask fills the narrowest gaps until maxSegs runs are left.
func TestFitMask(t *testing.T) {
	for _, c := range []struct{ or, want uint64 }{
		{0, 0},
		{1, 1},
		{0x3f3fffff, 0x3f3fffff},
		{0b1010101, 0b1010101},               // 4 runs
		{0b101010101, 0b101010111},           // 5 runs: the first gap (all of width 1)
		{0b1001010101, 0b1001010111},         // the first of the narrowest
		{0b10001000100101, 0b10001000100111}, // the narrowest gap, 1 wide, before those of 2 and 3
		{1<<63 | 1, 1<<63 | 1},
		{^uint64(0), ^uint64(0)},
	} {
		if got := fitMask(c.or); got != c.want {
			t.Errorf("fitMask(%b) = %b, want %b", c.or, got, c.want)
		}
	}
}

// TestPacking packs and unpacks every value under its mask, and refuses
// masks of too many runs or of every bit.
func TestPacking(t *testing.T) {
	for _, c := range []struct {
		mask uint64
		w    uint8
		ok   bool
	}{
		{0, 0, true},
		{0x3f3fffff, 28, true},
		{0x3f3fbfff, 27, true},
		{1 << 63, 1, true},
		{^uint64(0) >> 1, 63, true},
		{^uint64(0), 64, false},
		{0b101010101, 5, false},
	} {
		p, ok := newPacking(c.mask)
		if ok != c.ok || ok && p.w != c.w {
			t.Errorf("newPacking(%x) = w %d, %v; want %d, %v", c.mask, p.w, ok, c.w, c.ok)
			continue
		}
		if !ok {
			continue
		}
		for _, m := range []uint64{0, c.mask, c.mask & 0x5555555555555555, c.mask & 0xf0f0f0f0f0f0f0f0, c.mask & (c.mask >> 7)} {
			v := p.pack(m)
			if p.w < 64 && v>>p.w != 0 {
				t.Errorf("mask %x: pack(%x) = %x, more than %d bits", c.mask, m, v, p.w)
			}
			if back := p.unpack(v); back != m {
				t.Errorf("mask %x: unpack(pack(%x)) = %x", c.mask, m, back)
			}
		}
	}
}

// TestEncodePacked: lists are written packed (or legacy where they must
// be), decode to the moves and variations encoded, and Repack gives
// the same bytes from the legacy form.
func TestEncodePacked(t *testing.T) {
	ogi := func(to, from, piece, capt uint64) uint64 { return to | from<<6 | piece<<16 | capt<<24 }
	for _, c := range []struct {
		name   string
		main   []*replay.Step
		packed bool
		size   int // the encoded length, 0 not checked
		low    int // the low bytes of a packed list's values, -1 not checked
	}{
		{"empty", tree(), false, 1, 0},
		{"one zero move", tree(0), true, 5, 0},
		{"one move", tree(5), true, 5, 0},
		{"every bit", tree(int(^uint64(0)>>1), uint64(1<<63)), false, 0, 0},
		{"high bit", tree(uint64(1<<63), 0), true, 15, 0},
		{"ogi line", tree(ogi(28, 20, 1, 0), ogi(35, 43, 33, 0), ogi(35, 28, 1, 33)), true, 0, -1},
		// values of 22 bits (mask 0x3fffff, 4 bytes): 4 bytes as a
		// uvarint (3 for the last), 3 with 1 low byte or 2 (the fewer)
		{"ogi moves", tree(ogi(63, 63, 63, 0)|0xf000, ogi(1, 1, 32, 0), ogi(63, 63, 48, 0), ogi(1, 1, 1, 0)), true, 2 + 4 + 1 + 4*3, 1},
		{"variations", tree(1, 2, [][]any{{3, 4}, {5, [][]any{{6}}}}, 7), true, 0, 0},
		{"variation of the last move", tree(1, [][]any{{2}}), true, 0, 0},
		{"too many runs", tree(0b101010101, 0b10), true, 0, 0},
	} {
		b := Encode(c.main)
		if isPacked := len(b) >= 2 && b[0]&0x80 != 0 && b[1] == 0; isPacked != c.packed || isPacked && c.low >= 0 && int(b[0]&^0x80) != c.low {
			t.Errorf("%s: % x packed %v, want %v, %d low bytes", c.name, b, isPacked, c.packed, c.low)
		}
		if c.size != 0 && len(b) != c.size {
			t.Errorf("%s: % x is %d bytes, want %d", c.name, b, len(b), c.size)
		}
		got, err := Decode(b)
		if err != nil {
			t.Fatalf("%s: % x: %v", c.name, b, err)
		}
		legacy := appendLine(nil, c.main)
		want, err := Decode(legacy)
		if err != nil {
			t.Fatalf("%s: legacy % x: %v", c.name, legacy, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: % x decodes to %+v, want %+v", c.name, b, got, want)
		}
		again, err := Repack(legacy)
		if err != nil || string(again) != string(b) {
			t.Errorf("%s: Repack(% x) = % x, %v; want % x", c.name, legacy, again, err, b)
		}
		d := NewDecoder(b)
		var ls lengths
		if c.packed {
			p := d.p
			p.lengths(c.main, &ls)
		}
		sizes, len0 := ls.sizes(), 0
		for l := range maxLow + 1 { // the low bytes taken make the list shortest
			if !c.packed {
				break
			}
			p := d.p
			p.low = uint8(l)
			other := appendPacked(binary.AppendUvarint([]byte{0x80 | byte(l), 0}, p.mask), &p, c.main)
			if len(other) < len(b) {
				t.Errorf("%s: % x with %d low bytes is shorter than % x", c.name, other, l, b)
			}
			// The sizes Encode compares differ as the lists do (they
			// leave out the bytes every l writes alike).
			if l == 0 {
				len0 = len(other)
			} else if sizes[l]-sizes[0] != len(other)-len0 {
				t.Errorf("%s: with %d low bytes, sizes gives %d bytes more than with none, % x is %d more", c.name, l, sizes[l]-sizes[0], other, len(other)-len0)
			}
		}
		SkipLine(&d)
		if d.Err() != nil || d.Rest() != 0 {
			t.Errorf("%s: SkipLine of % x: %v, %d bytes left", c.name, b, d.Err(), d.Rest())
		}
	}
}

// TestDecodePackedCorrupt: a packed list that no Encode writes fails.
func TestDecodePackedCorrupt(t *testing.T) {
	hdr := func(mask uint64) []byte { return binary.AppendUvarint([]byte{0x80, 0}, mask) }
	for _, c := range []struct {
		name string
		b    []byte
	}{
		{"header only", []byte{0x80, 0}},
		{"mask of every bit", append(hdr(^uint64(0)), 1, 0)},
		{"mask of five runs", append(hdr(0b101010101), 1, 0)},
		{"flag above w", append(hdr(0xff), 1, 0x80, 0x04)},              // value 1<<9, w 8
		{"flag with no variation", append(hdr(0xff), 1, 0x81, 0x02, 0)}, // 1<<8|1, count 0
		{"truncated step", append(hdr(0xff), 2, 1)},
		{"truncated variation", append(hdr(0xff), 1, 0x81, 0x02, 1, 1)},
		{"too many low bytes", append([]byte{0x85, 0, 0xff, 0x01}, 1, 1, 2, 3, 4, 5, 0)},
		{"truncated low bytes", append([]byte{0x82, 0, 0xff, 0xff, 0x03}, 1, 1)},
		{"value over 64 bits", append([]byte{0x84, 0, 0xff, 0xff, 0xff, 0xff, 0x0f}, 1, 1, 2, 3, 4, 0x80, 0x80, 0x80, 0x80, 0x10)},
	} {
		if ml, err := Decode(c.b); !errors.Is(err, ErrCorrupt) {
			t.Errorf("%s: % x decodes to %+v, %v; want ErrCorrupt", c.name, c.b, ml, err)
		}
	}
}

// TestUvarintLen agrees with binary.AppendUvarint at every bit length.
func TestUvarintLen(t *testing.T) {
	for n := 0; n <= 64; n++ {
		for _, v := range []uint64{1<<n - 1, 1 << n >> 1} {
			if got, want := uvarintLen(v), len(binary.AppendUvarint(nil, v)); got != want {
				t.Errorf("uvarintLen(%x) = %d, want %d", v, got, want)
			}
		}
	}
}

// TestEncodeFlat: a line without variations is written by encodeFlat as
// encodeTree writes it, over random lines of every length up to past
// maxFlat and values of few and many bits; a longer line, or one with
// variations, is left to encodeTree.
func TestEncodeFlat(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 45))
	flat := 0
	for i := 0; i < 400; i++ {
		n := r.IntN(maxFlat + 40)
		width := 1 + r.IntN(40)
		var spec []any
		for range n {
			spec = append(spec, int(r.Uint64()&(1<<width-1)))
		}
		vars := i%10 == 0 && n > 1
		if vars {
			spec = append(spec, [][]any{{7, 9}})
		}
		main := tree(spec...)
		or, k := orMoves(main)
		p, ok := newPacking(fitMask(or))
		if k == 0 || !ok {
			continue
		}
		q := p
		got, ok := encodeFlat(main, &p)
		if want := len(main) <= maxFlat && !vars; ok != want {
			t.Fatalf("line %d (%d steps): encodeFlat took it %v, want %v", i, len(main), ok, want)
		}
		if !ok {
			continue
		}
		flat++
		if want := encodeTree(main, &q); !bytes.Equal(got, want) {
			t.Fatalf("line %d (%d steps of %d bits): encodeFlat\n% x\nencodeTree\n% x", i, len(main), width, got, want)
		}
	}
	if flat < 300 {
		t.Errorf("only %d flat lines compared", flat)
	}
}
