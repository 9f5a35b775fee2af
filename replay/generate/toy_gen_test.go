package generate

import (
	"bytes"
	"context"
	"errors"
	"io"
	"testing"

	"github.com/plateau/plateau/replay"
	"github.com/plateau/plateau/rules"
)

func init() { rules.Register(toy{}) }

func TestToy(t *testing.T) {
	gen, err := New(toy{}, 1)
	if err != nil {
		t.Fatal(err)
	}
	var a, b bytes.Buffer
	if _, err := gen.Write(context.Background(), &a, 200, Options{Workers: 1}); err != nil {
		t.Fatal(err)
	}
	if _, err := gen.Write(context.Background(), &b, 200, Options{Workers: 3}); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Fatal("output depends on the number of workers")
	}
	for i := 0; i < 30; i++ {
		rec, err := gen.Game(i)
		if err != nil {
			t.Fatal(err)
		}
		if g := replay.Replay(rec, replay.Options{}); g.Err != nil {
			t.Fatalf("game %d: %v", i, g.Err)
		}
	}
	t.Logf("%s", a.Bytes()[:1500])
}

// TestParts checks that a collection made in parts (First) is the same as
// one made at once, and that a write error stops the output.
func TestParts(t *testing.T) {
	gen, err := New(toy{}, 9)
	if err != nil {
		t.Fatal(err)
	}
	var all, head, tail bytes.Buffer
	ctx := context.Background()
	if _, err := gen.Write(ctx, &all, 300, Options{Workers: 2}); err != nil {
		t.Fatal(err)
	}
	if _, err := gen.Write(ctx, &head, 130, Options{Workers: 1}); err != nil {
		t.Fatal(err)
	}
	if _, err := gen.Write(ctx, &tail, 170, Options{Workers: 3, First: 130}); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(all.Bytes(), append(head.Bytes(), tail.Bytes()...)) {
		t.Fatal("a collection made in two parts differs from the whole")
	}
	for _, workers := range []int{1, 2} {
		fw := &failWriter{after: 2}
		st, err := gen.Write(ctx, fw, 1000, Options{Workers: workers})
		if !errors.Is(err, errFull) {
			t.Errorf("workers %d: error %v, want errFull", workers, err)
		}
		if st.Games >= 1000 {
			t.Errorf("workers %d: %d games written after an error", workers, st.Games)
		}
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := gen.Write(cctx, io.Discard, 1000, Options{Workers: 2}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled write: %v", err)
	}
}

var errFull = errors.New("disk full")

type failWriter struct{ after int }

func (w *failWriter) Write(p []byte) (int, error) {
	if w.after == 0 {
		return 0, errFull
	}
	w.after--
	return len(p), nil
}
