package patsig_test

import (
	"fmt"
	"testing"

	"github.com/plateau/plateau/index/internal/patsig"
)

func entries(t *testing.T, block int64, blob []byte) string {
	t.Helper()
	out := ""
	if !patsig.Entries(block, blob, func(id int64, sig []byte) { out += fmt.Sprintf("%d:%s ", id, sig) }) {
		t.Fatalf("block %d does not parse", block)
	}
	return out
}

func TestMerge(t *testing.T) {
	b := int64(3)
	base := b * patsig.BlockGames
	var blob []byte
	for _, id := range []int64{base, base + 5, base + 255} {
		blob = patsig.AppendEntry(blob, id, []byte(fmt.Sprint("old", id-base)))
	}
	if got, want := entries(t, b, blob), "768:old0 773:old5 1023:old255 "; got != want {
		t.Fatalf("entries %q, want %q", got, want)
	}
	es := patsig.SortEntries([]patsig.Entry{{base + 5, []byte("a")}, {base + 1, []byte("b")}, {base + 5, []byte("c")}, {base + 300 - 45, nil}})
	got := entries(t, b, patsig.Merge(b, blob, es))
	if want := "768:old0 769:b 773:c 1023: "; got != want {
		t.Errorf("merged %q, want %q", got, want)
	}
	if patsig.Entries(b, []byte{1, 9, 'x'}, func(int64, []byte) {}) {
		t.Error("a cut entry parses")
	}
}
