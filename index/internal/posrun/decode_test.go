package posrun

import (
	"errors"
	"math/rand/v2"
	"slices"
	"testing"
)

// byDecoder is what blockDecoder.next reads of data: its occurrences and
// its error.
func byDecoder(data []byte, legacy bool) ([]occ, error) {
	d := blockDecoder{legacy: legacy}
	d.reset(data)
	var out []occ
	for d.next() {
		out = append(out, occ{d.key, d.at})
	}
	return out, d.err
}

// sameAsDecoder fails t unless decodeBlock reads data as blockDecoder.next
// does.
func sameAsDecoder(t *testing.T, name string, data []byte, legacy bool) {
	t.Helper()
	want, wantErr := byDecoder(data, legacy)
	d := blockDecoder{legacy: legacy}
	d.reset(data)
	got, err := decodeBlock(nil, &d)
	if !slices.Equal(got, want) || (err == nil) != (wantErr == nil) {
		t.Fatalf("%s: decodeBlock read %d occurrences (error %v), blockDecoder %d (error %v)",
			name, len(got), err, len(want), wantErr)
	}
	if err != nil && !errors.Is(err, errBadBlock) {
		t.Fatalf("%s: error %v, want errBadBlock", name, err)
	}
}

// TestDecodeBlockAsDecoder: decodeBlock reads the blocks of runs of every
// shape, and each of them cut short and with a byte changed, as
// blockDecoder.next does: the same occurrences, an error where it stops
// with one.
func TestDecodeBlockAsDecoder(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	shapes := []struct {
		name string
		key  func(i int) int64
		at   func(i int) int64
	}{
		{"hash keys", func(int) int64 { return int64(r.Uint64()) }, func(int) int64 { return PackAt(1+r.Int64N(150000), r.IntN(90), r.IntN(2)) }},
		{"one key", func(int) int64 { return 42 }, func(i int) int64 { return PackAt(int64(1+i*3), i%7, 0) }},
		{"few keys", func(int) int64 { return int64(r.IntN(30)) - 15 }, func(int) int64 { return r.Int64N(1 << 40) }},
		{"escapes", func(i int) int64 { return int64(i%3) << 61 }, func(int) int64 { return int64(r.Uint64() >> 1) }},
		{"extremes", func(i int) int64 { return []int64{-1 << 63, -1, 0, 1<<63 - 1}[i%4] }, func(i int) int64 { return []int64{0, 1<<63 - 1, 1, 1 << 62}[r.IntN(4)] }},
	}
	for _, sh := range shapes {
		for _, n := range []int{1, 2, 65, 3000} {
			ps := make([]Pos, n)
			for i := range ps {
				ps[i] = Pos{sh.key(i), sh.at(i)}
			}
			sortPositions(ps, nil)
			for bi, b := range encodeBlocks(t, ps, blockBytes) {
				sameAsDecoder(t, sh.name, b, false)
				for cut := range min(len(b), 40) {
					sameAsDecoder(t, sh.name+" cut", b[:len(b)-1-cut], false)
				}
				for range 40 {
					c := slices.Clone(b)
					c[r.IntN(len(c))] ^= byte(1 << r.IntN(8))
					sameAsDecoder(t, sh.name+" changed", c, false)
				}
				if bi > 3 {
					break
				}
			}
		}
	}
	le := &legacyEncoder{emit: func(_ int64, data []byte) error {
		sameAsDecoder(t, "legacy", data, true)
		return nil
	}}
	for i := range 5000 {
		le.add(int64(i/3), int64(i))
	}
	le.flush()
}

// TestRunMergeOrder: a merge of 0 to 17 sources, sharing occurrences,
// with runs of one key and the last (key, at) there is, gives their union in (key, at) order, each
// occurrence once.
func TestRunMergeOrder(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for k := range 18 {
		m := &runMerge{}
		var want []occ
		for range k {
			var src []occ
			for range r.IntN(300) {
				o := occ{int64(r.IntN(40)) - 20, int64(r.IntN(50))}
				if r.IntN(4) == 0 {
					o.key = 7 // a key of many occurrences
				}
				src = append(src, o)
			}
			slices.SortFunc(src, cmpOcc)
			if r.IntN(3) == 0 { // the last occurrence there can be: an ended source's head
				src = append(src, occ{1<<63 - 1, 1<<63 - 1})
			}
			want = append(want, src...)
			if err := m.add(&mergeSrc{occs: src, cur: runCursor{done: true}}); err != nil {
				t.Fatal(err)
			}
		}
		slices.SortFunc(want, cmpOcc)
		want = slices.Compact(want)
		var got []occ
		for m.next() {
			got = append(got, occ{m.key, m.at})
		}
		if m.err != nil || !slices.Equal(got, want) {
			t.Fatalf("%d sources: got %d occurrences (error %v), want %d", k, len(got), m.err, len(want))
		}
	}
}

func cmpOcc(a, b occ) int { return cmpPos(Pos{a.key, a.at}, Pos{b.key, b.at}) }

// TestPutAsRice: put writes the bits that a bitWriter.rice call per field
// writes, escapes and codes of more than 64 bits included.
func TestPutAsRice(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	for round := range 2000 {
		par := riceParams{uint8(r.IntN(64)), uint8(r.IntN(40)), uint8(r.IntN(14)), uint8(r.IntN(64))}
		e := newBlockEncoder(nil)
		e.par = par
		var ref bitWriter
		prev := occ{r.Int64N(1 << 40), r.Int64N(1 << 40)}
		for range 100 {
			o := prev
			if r.IntN(3) == 0 {
				o.at += 1 + r.Int64N(1<<uint(r.IntN(62)))
			} else {
				o.key += 1 + r.Int64N(1<<uint(r.IntN(62)))
				o.at = r.Int64N(1 << uint(r.IntN(63)))
			}
			e.put(prev.key, prev.at, o)
			if o.key == prev.key {
				ref.rice(1, 1, uint64(o.at-prev.at-1), par.step)
			} else {
				ref.rice(0, 1, uint64(o.key-prev.key)-1, par.key)
				ref.rice(0, 0, uint64(o.at)>>atLowBits, par.high)
				ref.rice(0, 0, uint64(o.at)&(1<<atLowBits-1), par.low)
			}
			prev = o
		}
		if got, want := e.bw.end(), ref.end(); !slices.Equal(got, want) {
			t.Fatalf("round %d, parameters %+v: put wrote other bits than rice", round, par)
		}
	}
}
