package pipeline_test

import (
	"context"
	"errors"
	"math/rand/v2"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/plateau/plateau/internal/pipeline"
)

// count emits 0..n-1 and stops at emit's error.
func count(n int) func(context.Context, func(int) error) error {
	return func(_ context.Context, emit func(int) error) error {
		for i := range n {
			if err := emit(i); err != nil {
				return err
			}
		}
		return nil
	}
}

// square returns a worker that squares its items after a random pause, so
// that results come back out of order.
func square(ctx context.Context) func(int) int {
	r := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 1))
	return func(v int) int {
		if r.IntN(4) == 0 {
			time.Sleep(time.Duration(r.IntN(200)) * time.Microsecond)
		}
		return v * v
	}
}

// TestOrder: the consumer sees every result once, in emit order, whatever
// the workers and queues.
func TestOrder(t *testing.T) {
	for _, o := range []pipeline.Options{
		{},
		{Workers: 1},
		{Workers: 7, Queue: 1, Results: 1},
		{Workers: 4, Window: 3},
		{Workers: 3, Window: 1},
	} {
		var got []int
		err := pipeline.Run(context.Background(), o, count(500), square, func(v int) error {
			got = append(got, v)
			return nil
		})
		if err != nil {
			t.Fatalf("%+v: %v", o, err)
		}
		if len(got) != 500 {
			t.Fatalf("%+v: %d results, want 500", o, len(got))
		}
		for i, v := range got {
			if v != i*i {
				t.Fatalf("%+v: result %d is %d, want %d", o, i, v, i*i)
			}
		}
	}
}

// TestEmpty: a producer that emits nothing ends the pipeline at once.
func TestEmpty(t *testing.T) {
	err := pipeline.Run(context.Background(), pipeline.Options{}, count(0), square, func(int) error {
		t.Error("consumed a result of nothing")
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestWindow: no more than Window items are between emit and consume.
func TestWindow(t *testing.T) {
	var inFlight, most atomic.Int64
	produce := func(_ context.Context, emit func(int) error) error {
		for i := range 300 {
			if n := inFlight.Add(1); n > most.Load() {
				most.Store(n)
			}
			if err := emit(i); err != nil {
				return err
			}
		}
		return nil
	}
	err := pipeline.Run(context.Background(), pipeline.Options{Workers: 4, Window: 5}, produce, square, func(int) error {
		inFlight.Add(-1)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// The producer counts an item before emit waits for its place: one
	// more than the window may be counted.
	if m := most.Load(); m > 6 {
		t.Errorf("%d items in flight, window 5", m)
	}
}

// TestConsumeError: the consumer's error stops the producer and the
// workers, and Run returns it once they have ended.
func TestConsumeError(t *testing.T) {
	errStop := errors.New("stop")
	before := runtime.NumGoroutine()
	var emitErr error
	produce := func(_ context.Context, emit func(int) error) error {
		for i := 0; ; i++ {
			if err := emit(i); err != nil {
				emitErr = err
				return err
			}
		}
	}
	var consumed int
	err := pipeline.Run(context.Background(), pipeline.Options{Workers: 3}, produce, square, func(v int) error {
		consumed++
		if consumed == 50 {
			return errStop
		}
		return nil
	})
	if !errors.Is(err, errStop) {
		t.Fatalf("Run: %v, want the consumer's error", err)
	}
	if consumed != 50 {
		t.Errorf("consumed %d results after the error", consumed-50)
	}
	if !errors.Is(emitErr, context.Canceled) {
		t.Errorf("emit after the consumer's error: %v, want context.Canceled", emitErr)
	}
	waitGoroutines(t, before)
}

// TestProduceError: what was emitted before the producer's error is still
// consumed, in order, and Run returns the producer's error.
func TestProduceError(t *testing.T) {
	errRead := errors.New("read")
	produce := func(ctx context.Context, emit func(int) error) error {
		if err := count(100)(ctx, emit); err != nil {
			return err
		}
		return errRead
	}
	var got []int
	err := pipeline.Run(context.Background(), pipeline.Options{Workers: 4}, produce, square, func(v int) error {
		got = append(got, v)
		return nil
	})
	if !errors.Is(err, errRead) {
		t.Fatalf("Run: %v, want the producer's error", err)
	}
	if len(got) != 100 || got[99] != 99*99 {
		t.Fatalf("consumed %d results before the producer's error, want 100", len(got))
	}
}

// TestCancel: the end of ctx stops the pipeline; Run returns ctx's error,
// and no goroutine it started is left.
func TestCancel(t *testing.T) {
	before := runtime.NumGoroutine()
	ctx, cancel := context.WithCancel(context.Background())
	produce := func(_ context.Context, emit func(int) error) error {
		for i := 0; ; i++ {
			if err := emit(i); err != nil {
				return err
			}
		}
	}
	n := 0
	err := pipeline.Run(ctx, pipeline.Options{Workers: 2}, produce, square, func(int) error {
		if n++; n == 20 {
			cancel()
		}
		return nil
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Run: %v, want context.Canceled", err)
	}
	if n != 20 {
		t.Errorf("consumed %d results after the cancel", n-20)
	}
	waitGoroutines(t, before)
}

// TestWorkerSetup: work is called once per worker, each on a goroutine of
// its own that runs all of that worker's items.
func TestWorkerSetup(t *testing.T) {
	var mu sync.Mutex
	setups := 0
	work := func(context.Context) func(int) int {
		mu.Lock()
		setups++
		mu.Unlock()
		local := 0 // a worker's state, unshared: the race detector checks it
		return func(v int) int {
			local++
			return v + 1
		}
	}
	sum := 0
	err := pipeline.Run(context.Background(), pipeline.Options{Workers: 5}, count(1000), work, func(v int) error {
		sum += v
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if setups != 5 {
		t.Errorf("work called %d times for 5 workers", setups)
	}
	if want := 1000 * 1001 / 2; sum != want {
		t.Errorf("sum %d, want %d", sum, want)
	}
}

// waitGoroutines fails when the goroutines are not back to n within a
// second.
func waitGoroutines(t *testing.T, n int) {
	t.Helper()
	deadline := time.Now().Add(time.Second)
	for runtime.NumGoroutine() > n {
		if time.Now().After(deadline) {
			t.Fatalf("%d goroutines left, %d before Run", runtime.NumGoroutine(), n)
		}
		time.Sleep(time.Millisecond)
	}
}
