package movelist

import (
	"encoding/binary"
	"errors"
	"reflect"
	"testing"

	"github.com/plateau/plateau/rules"
	_ "github.com/plateau/plateau/rules/ogi"
)

// appendMoveList writes a decoded move list back in the stored form.
func appendMoveList(b []byte, ml *List, line []int) []byte {
	b = binary.AppendUvarint(b, uint64(len(line)))
	for _, k := range line {
		st := ml.Steps[k]
		b = binary.AppendUvarint(b, uint64(st.Move))
		b = binary.AppendUvarint(b, uint64(len(st.Vars)))
		for _, v := range st.Vars {
			b = appendMoveList(b, ml, v)
		}
	}
	return b
}

// FuzzDecodeMoves: the compact move decoder never panics on a corrupt
// list, fails with ErrCorrupt, and what it decodes re-encodes to a list that
// decodes the same; reading the main line's moves in a game never panics.
func FuzzDecodeMoves(f *testing.F) {
	f.Add([]byte{0})
	f.Add([]byte{2, 5, 0, 7, 1, 1, 9, 0})
	f.Add([]byte{1, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01, 0})
	f.Add([]byte{1, 0x80})
	f.Add([]byte{200})
	deep := []byte{}
	for i := 0; i < 2000; i++ {
		deep = append(deep, 1, 3, 1)
	}
	f.Add(deep)
	f.Add([]byte{0x80, 0, 0xff, 0x01, 2, 5, 0x81, 0x02, 1, 1, 9, 7})
	f.Add(Encode(tree(1, 2, [][]any{{3, 4}, {5, [][]any{{6}}}}, 7)))
	g, err := rules.Lookup("ogi")
	if err != nil {
		f.Fatal(err)
	}
	start, err := g.NewPosition("")
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		ml, err := Decode(b)
		if err != nil {
			if !errors.Is(err, ErrCorrupt) {
				t.Fatalf("error %v does not wrap ErrCorrupt", err)
			}
			return
		}
		again, err := Decode(appendMoveList(nil, ml, ml.Main))
		if err != nil || !reflect.DeepEqual(again, ml) {
			t.Fatalf("re-encoded list decodes as %+v, %v; want %+v", again, err, ml)
		}
		packed, err := Repack(b)
		if err != nil {
			t.Fatalf("Repack of a list that decodes: %v", err)
		}
		if again, err = Decode(packed); err != nil || !reflect.DeepEqual(again, ml) {
			t.Fatalf("packed list % x decodes as %+v, %v; want %+v", packed, again, err, ml)
		}
		if twice, err := Repack(packed); err != nil || string(twice) != string(packed) {
			t.Fatalf("Repack of a packed list % x = % x, %v", packed, twice, err)
		}
		for ply := 0; ply < 3; ply++ {
			MainText(ml, start, ply)
		}
	})
}
