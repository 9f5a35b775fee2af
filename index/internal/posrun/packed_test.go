package posrun

import (
	"context"
	"encoding/binary"
	"math/rand/v2"
	"slices"
	"testing"
)

// encodeBlocks encodes sorted occurrences with a blockEncoder of blocks of
// at most max bytes, and returns the blocks.
func encodeBlocks(t testing.TB, ps []Pos, max int) [][]byte {
	t.Helper()
	var blocks [][]byte
	e := newBlockEncoder(func(last int64, data []byte) error {
		blocks = append(blocks, slices.Clone(data))
		return nil
	})
	e.maxBlockSz = max
	for _, p := range ps {
		if err := e.add(p.Key, p.At); err != nil {
			t.Fatal(err)
		}
	}
	if err := e.flush(); err != nil {
		t.Fatal(err)
	}
	return blocks
}

// decodeBlocks decodes blocks; it fails the test on a damaged one.
func decodeBlocks(t testing.TB, blocks [][]byte, legacy bool) []Pos {
	t.Helper()
	var out []Pos
	d := blockDecoder{legacy: legacy}
	for i, b := range blocks {
		d.reset(b)
		for d.next() {
			out = append(out, Pos{d.key, d.at})
		}
		if d.err != nil {
			t.Fatalf("block %d: %v", i, d.err)
		}
	}
	return out
}

// TestPackedBlocks: each kind of stream comes back whole through the
// packed blocks (every Rice parameter and its escape), and streams of
// hash keys take at most the bytes an occurrence the packing is for.
func TestPackedBlocks(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	games := func(n int, keys func(i int) int64) []Pos {
		var ps []Pos
		for i := range n {
			ps = append(ps, Pos{keys(i), PackAt(1+r.Int64N(150000), r.IntN(120), r.IntN(8)/7)})
		}
		return ps
	}
	tests := []struct {
		name     string
		ps       []Pos
		max      int     // block bytes
		perOcc   float64 // bytes an occurrence at most, against the legacy blocks' (0: not checked)
		minBlock int     // blocks at least
	}{
		{name: "hash keys", ps: games(20000, func(int) int64 { return int64(r.Uint64()) }), max: blockBytes, perOcc: 0.8},
		{name: "one key", ps: games(20000, func(int) int64 { return 42 }), max: blockBytes, perOcc: 0.8, minBlock: 2},
		{name: "few keys", ps: games(20000, func(i int) int64 { return int64(i % 7 * 1000003) }), max: blockBytes, perOcc: 0.8},
		{name: "small blocks", ps: games(3000, func(int) int64 { return int64(r.Uint64()) }), max: 40, minBlock: 100},
		{name: "extreme keys and ats", ps: []Pos{{-1 << 63, 0}, {-1 << 63, 1<<63 - 1}, {-1, 5}, {0, 0}, {1, 1 << 62}, {1<<63 - 1, 0}, {1<<63 - 1, 1}}, max: blockBytes},
		{name: "escapes after a sample of small steps", ps: func() []Pos {
			var ps []Pos
			for i := range 200 {
				ps = append(ps, Pos{int64(i), int64(i)}) // gaps of 1, small ats
			}
			ps = append(ps, Pos{1 << 60, 1 << 61}, Pos{1 << 60, 1<<62 + 3}, Pos{1<<62 + 9, 7})
			return ps
		}(), max: blockBytes},
		{name: "one occurrence", ps: []Pos{{77, PackAt(3, 4, 1)}}, max: blockBytes},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in := slices.Clone(tc.ps)
			sortPositions(in, nil)
			want := slices.Compact(slices.Clone(in))
			blocks := encodeBlocks(t, in, tc.max)
			got := decodeBlocks(t, blocks, false)
			if !slices.Equal(got, want) {
				t.Fatalf("decoded %d occurrences, want %d (first difference at %d)", len(got), len(want), firstDiff(got, want))
			}
			size := 0
			for _, b := range blocks {
				size += len(b)
				if len(b) > max(tc.max, 64)+16 {
					t.Errorf("a block of %d bytes, cut at %d", len(b), tc.max)
				}
			}
			legacy := 0
			le := &legacyEncoder{emit: func(_ int64, data []byte) error { legacy += len(data); return nil }}
			for _, p := range in {
				le.add(p.Key, p.At)
			}
			le.flush()
			if tc.perOcc > 0 && float64(size) > tc.perOcc*float64(legacy) {
				t.Errorf("%d bytes, legacy blocks %d: want at most %.2f of them", size, legacy, tc.perOcc)
			}
			if len(blocks) < tc.minBlock {
				t.Errorf("%d blocks, want at least %d", len(blocks), tc.minBlock)
			}
		})
	}
}

// TestPackedBlockDamage: a damaged block is an error, never a panic nor
// an endless read.
func TestPackedBlockDamage(t *testing.T) {
	ps := []Pos{{1, 8192}, {1, 9000}, {5, 16384}, {1 << 50, 1 << 20}}
	good := encodeBlocks(t, ps, blockBytes)[0]
	header := binary.AppendUvarint(nil, 3)
	header = binary.AppendVarint(header, 1)
	header = binary.AppendUvarint(header, 8192)
	tests := []struct {
		name string
		data []byte
	}{
		{"truncated", good[:len(good)-2]},
		{"no parameters", header},
		{"parameter over 63", append(slices.Clone(header), 64, 0, 0, 0, 0xff)},
		{"count past the bits", append(binary.AppendUvarint(nil, 1000), good[1:]...)},
		{"zero count", append([]byte{0}, good[1:]...)},
		{"bad varint", []byte{0x80}},
	}
	for _, tc := range tests {
		var d blockDecoder
		d.reset(tc.data)
		for n := 0; d.next(); n++ {
			if n > 2000 {
				t.Fatalf("%s: decodes without end", tc.name)
			}
		}
		if d.err == nil {
			t.Errorf("%s: no error", tc.name)
		}
	}
}

// FuzzPackedBlock: occurrences made from the input come back whole; the
// input read as a block decodes or fails, without a panic, and
// decodeBlock reads it as blockDecoder does.
func FuzzPackedBlock(f *testing.F) {
	f.Add([]byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17})
	f.Add(encodeBlocks(f, []Pos{{1, 8192}, {1, 9000}, {5, 16384}}, blockBytes)[0])
	f.Fuzz(func(t *testing.T, b []byte) {
		var d blockDecoder
		d.reset(b)
		for n := 0; d.next(); n++ {
			if n > len(b)*8+1 {
				t.Fatal("more occurrences than bits")
			}
		}
		sameAsDecoder(t, "input", b, false)
		var ps []Pos
		for len(b) >= 4 {
			v := binary.LittleEndian.Uint32(b)
			b = b[4:]
			k := int64(v>>20) << (v & 63) // keys near and far
			ps = append(ps, Pos{k, int64(v&0xfffff) << (v >> 28)})
		}
		sortPositions(ps, nil)
		want := slices.Compact(slices.Clone(ps))
		if got := decodeBlocks(t, encodeBlocks(t, ps, 48), false); !slices.Equal(got, want) {
			t.Fatalf("decoded %v, want %v", got, want)
		}
	})
}

// TestRepack: RepackLegacy writes the blocks as layout 14 kept them, which
// a Store with LegacyBlocks reads; Repack writes them back packed, in
// fewer bytes; both read the same occurrences, and the runs' counts and
// filters still hold.
func TestRepack(t *testing.T) {
	ctx := context.Background()
	db := openTemp(t)
	r := rand.New(rand.NewPCG(7, 8))
	addGames(t, db, 2000, func(int64) bool { return true })
	for range 3 {
		var ps []Pos
		for range 20000 {
			k := int64(r.Uint64())
			if r.IntN(3) == 0 {
				k = int64(r.IntN(20)) // hot keys: counted
			}
			ps = append(ps, Pos{k, PackAt(1+r.Int64N(2000), r.IntN(100), 0)})
		}
		commitRun(t, db, ps)
	}
	want := scanAll(t, db)
	var entries int64
	if err := db.sql.QueryRow(`SELECT SUM(entries) FROM pos_runs`).Scan(&entries); err != nil {
		t.Fatal(err)
	}
	packed := blockBytesStored(t, db)
	repack := func(f func(context.Context, Tx) (int64, error)) {
		tx, err := db.sql.BeginTx(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer tx.Rollback()
		n, err := f(ctx, tx)
		if err != nil {
			t.Fatal(err)
		}
		if n != entries {
			t.Errorf("%d occurrences rewritten, the runs hold %d", n, entries)
		}
		if err := tx.Commit(); err != nil {
			t.Fatal(err)
		}
	}
	repack(RepackLegacy)
	legacyBytes := blockBytesStored(t, db)
	if legacyBytes <= packed*11/10 {
		t.Errorf("legacy blocks %d bytes, packed %d: the test means nothing", legacyBytes, packed)
	}
	for _, legacy := range []bool{true, false} {
		if !legacy {
			repack(Repack)
			if got := blockBytesStored(t, db); got != packed {
				t.Errorf("repacked blocks %d bytes, packed at first %d", got, packed)
			}
		}
		s, err := Open(ctx, db.sql, Config{Dir: db.dir, LegacyBlocks: legacy, Live: liveTestGames})
		if err != nil {
			t.Fatal(err)
		}
		tdb := &testDB{Store: s, sql: db.sql, dir: db.dir}
		if got := scanAll(t, tdb); !slices.Equal(got, want) {
			t.Errorf("legacy %v: %d occurrences, want %d (first difference at %d)", legacy, len(got), len(want), firstDiff(got, want))
		}
		checkRuns(t, tdb, "repacked")
		checkFilters(t, tdb, "repacked")
		problems, err := s.CheckCounts(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range problems {
			t.Errorf("legacy %v: %s", legacy, p)
		}
		s.Close()
	}
}

// blockBytesStored is the bytes of every stored block.
func blockBytesStored(t testing.TB, db *testDB) int64 {
	t.Helper()
	var n int64
	if err := db.sql.QueryRow(`SELECT TOTAL(length(data)) FROM pos_blocks`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}
