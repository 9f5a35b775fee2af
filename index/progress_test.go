package index

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"
)

// TestProgressCountsStoredBytes: the import's progress counts the bytes of
// the file as stored — compressed for .zst and .gz — so that it grows with
// the records read and ends at the file's size, never beyond.
func TestProgressCountsStoredBytes(t *testing.T) {
	var text bytes.Buffer
	rnd := rand.New(rand.NewPCG(1, 2))
	for i := range 5000 {
		// Records that compress about 2:1 (a random comment each).
		var note strings.Builder
		for range 100 {
			fmt.Fprintf(&note, "%04x", rnd.IntN(1<<16))
		}
		text.WriteString(`[Game "draughts"]
[Event "Progress test"]
[White "A"]
[Black "B"]
[Round "` + strings.Repeat("9", i%7+1) + `"]
[Result "*"]

{` + note.String() + `} 1. 32-28 19-23 2. 28x19 14x23 *

`)
	}
	var zst bytes.Buffer
	zw, _ := zstd.NewWriter(&zst)
	zw.Write(text.Bytes())
	zw.Close()
	var gz bytes.Buffer
	gw := gzip.NewWriter(&gz)
	gw.Write(text.Bytes())
	gw.Close()
	dir := t.TempDir()
	for name, data := range map[string][]byte{"g.pdn.zst": zst.Bytes(), "g.pdn.gz": gz.Bytes(), "g.pdn": text.Bytes()} {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		s := &source{path: path, name: path, size: int64(len(data))}
		out := make(chan chunk, 1000)
		seq := 0
		if err := readSource(context.Background(), s, &seq, out, 0, nil); err != nil {
			t.Fatal(err)
		}
		close(out)
		var last int64
		recs, half := 0, int64(-1)
		for c := range out {
			if c.bytes < last || c.bytes > s.size {
				t.Fatalf("%s: chunk %d at %d bytes, after %d; the file has %d", name, c.seq, c.bytes, last, s.size)
			}
			last = c.bytes
			recs += len(c.recs)
			if half < 0 && recs >= 2500 {
				half = c.bytes
			}
		}
		if recs != 5000 || last != s.size {
			t.Fatalf("%s: %d records, progress ends at %d of %d bytes", name, recs, last, s.size)
		}
		// Half the records read: well short of the whole file (the
		// decoded offset would be 3 to 50 times past it when compressed).
		if half <= 0 || half > s.size*3/4 {
			t.Errorf("%s: half the records read at %d of %d bytes", name, half, s.size)
		}
		t.Logf("%s: %d bytes (%d decoded), half the records at %d", name, s.size, text.Len(), half)
	}
}
