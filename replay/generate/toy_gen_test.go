package generate

import (
	"bytes"
	"context"
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
