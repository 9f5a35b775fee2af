package gamerows

import (
	"fmt"
	"testing"
	"unsafe"

	"github.com/plateau/plateau/replay"
)

// treeMove returns a copy equal to its text, which does not change when
// the memory of the text it was given is written again (a reader's block),
// whether the text was cached or not, over more texts than the cache holds.
func TestTreeMove(t *testing.T) {
	p := NewPreparer(Options{Replay: replay.Options{}})
	buf := make([]byte, 16)
	for round := 0; round < 2; round++ {
		for i := 0; i < 3000; i++ {
			want := fmt.Sprintf("P%d", i)
			if i%500 == 0 {
				want = fmt.Sprintf("+Rb7xb2=%d", i) // 8 bytes and more
			}
			n := copy(buf, want)
			got := p.treeMove(unsafe.String(&buf[0], n))
			for j := range buf {
				buf[j] = 'z'
			}
			if got != want {
				t.Fatalf("round %d: treeMove(%q) = %q", round, want, got)
			}
		}
	}
}
