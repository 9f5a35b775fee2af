package bench

import (
	"bytes"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
)

// TestBlocks writes pieces of every size, some across block boundaries,
// and reads the same bytes back, from the reader and from the file.
func TestBlocks(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var want bytes.Buffer
	var b blocks
	for want.Len() < 2*blockSize+12345 {
		p := make([]byte, r.IntN(3<<20))
		for i := range p {
			p[i] = byte(r.Uint32())
		}
		if n, err := b.Write(p); n != len(p) || err != nil {
			t.Fatalf("Write = %d, %v", n, err)
		}
		want.Write(p)
	}
	if b.size != int64(want.Len()) || len(b.list) != 3 {
		t.Fatalf("size %d in %d blocks, want %d in 3", b.size, len(b.list), want.Len())
	}
	got, err := io.ReadAll(b.reader())
	if err != nil || !bytes.Equal(got, want.Bytes()) {
		t.Fatalf("reader gives %d bytes (%v), not the %d written", len(got), err, want.Len())
	}
	name := filepath.Join(t.TempDir(), "text")
	if err := b.writeFile(name); err != nil {
		t.Fatal(err)
	}
	if got, err := os.ReadFile(name); err != nil || !bytes.Equal(got, want.Bytes()) {
		t.Fatalf("file holds %d bytes (%v), not the %d written", len(got), err, want.Len())
	}
}
