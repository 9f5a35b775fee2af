package writer

import (
	"bytes"
	"context"
	"math"
	"testing"

	"github.com/plateau/plateau/record"
	"github.com/plateau/plateau/replay"
	"github.com/plateau/plateau/replay/generate"
	"github.com/plateau/plateau/rules"

	_ "github.com/plateau/plateau/rules/ogi"
)

// TestPreparedWeight: a prepared Ōgi game weighs less than half its record
// (so that the budget lets the workers run ahead of the writer), and no
// less than the bytes it surely holds.
func TestPreparedWeight(t *testing.T) {
	g, err := rules.Lookup("ogi")
	if err != nil {
		t.Fatal(err)
	}
	gen, err := generate.New(g, 7)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if _, err := gen.Write(context.Background(), &b, 200, generate.Options{}); err != nil {
		t.Fatal(err)
	}
	p := newPreparer(replay.Options{})
	rd := record.NewReader(&b, "g.pdn")
	var recW, prepW, held int64
	n := 0
	for {
		rg, err := rd.Next()
		if rg == nil && err != nil {
			break
		}
		recW += recordWeight(rg)
		pr := p.prepare(Record{Game: rg, Err: err, File: "g.pdn"})
		if !pr.Valid {
			t.Fatalf("game %d invalid: %v", n+1, pr.Err)
		}
		prepW += preparedWeight(pr)
		held += int64(len(pr.Text) + len(pr.Moves) + 16*len(pr.Pos))
		n++
	}
	if n != 200 {
		t.Fatalf("read %d games", n)
	}
	if prepW >= recW/2 || prepW < held {
		t.Errorf("prepared weight %d (records %d, surely held %d)", prepW, recW, held)
	}
	t.Logf("per game: record %d, prepared %d bytes", recW/int64(n), prepW/int64(n))
}

// TestTxHeld: the held rows' bound follows Go's memory limit below
// maxTxHeld, within minTxHeld.
func TestTxHeld(t *testing.T) {
	for _, c := range []struct {
		limit int64
		want  int
	}{
		{math.MaxInt64, maxTxHeld}, // no limit
		{3 << 30, maxTxHeld},       // a sixth is more
		{1536 << 20, maxTxHeld},    // the import's own limit: 256 MiB
		{512 << 20, 512 << 20 / 6}, // GOMEMLIMIT=512MiB
		{32 << 20, minTxHeld},      // not under minTxHeld
	} {
		if got := txHeld(c.limit, maxTxHeld); got != c.want {
			t.Errorf("txHeld(%d) = %d, want %d", c.limit, got, c.want)
		}
	}
	// A test's smaller bound (Tuning.MaxTxHeld) holds whatever the limit.
	if got := txHeld(math.MaxInt64, 10<<10); got != 10<<10 {
		t.Errorf("txHeld with a bound of 10 KiB = %d", got)
	}
}

// TestBudget: the reader takes what it needs while the bound allows, waits
// while it does not, and goes alone with a chunk larger than the bound.
func TestBudget(t *testing.T) {
	ctx := context.Background()
	b := newBudget(100)
	if err := b.acquire(ctx, 60); err != nil {
		t.Fatal(err)
	}
	if err := b.acquire(ctx, 40); err != nil {
		t.Fatal(err)
	}
	// Full: a third acquire waits until the context ends.
	done, cancel := context.WithCancel(ctx)
	cancel()
	if err := b.acquire(done, 1); err == nil {
		t.Fatal("acquire beyond the bound did not wait")
	}
	b.release(100)
	if err := b.acquire(ctx, 500); err != nil || b.inUse() != 500 {
		t.Fatalf("a chunk larger than the bound, nothing held: %v, %d in use", err, b.inUse())
	}
	b.release(500)
	if b.inUse() != 0 {
		t.Errorf("%d in use after every release", b.inUse())
	}
}
