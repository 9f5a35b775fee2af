package pipeline_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/plateau/plateau/internal/pipeline"
)

// spin is CPU work of about n iterations of a multiply-add, that the
// compiler cannot drop.
func spin(v, n int) int {
	x := uint64(v) | 1
	for range n {
		x = x*6364136223846793005 + 1442695040888963407
	}
	return int(x >> 60)
}

// BenchmarkRun passes items through a pipeline of one worker per core
// (GOMAXPROCS: run it with -cpu 1,2), each worth some CPU work, in an
// order-keeping window: ns/op is the wall time an item costs. With work
// of a few microseconds or more per item, two cores should halve it; with
// none, it is the cost of the hand-offs.
func BenchmarkRun(b *testing.B) {
	for _, work := range []int{0, 1000, 20000} {
		b.Run(fmt.Sprintf("spin%d", work), func(b *testing.B) {
			b.ReportAllocs()
			produce := func(_ context.Context, emit func(int) error) error {
				for i := range b.N {
					if err := emit(i); err != nil {
						return err
					}
				}
				return nil
			}
			worker := func(context.Context) func(int) int {
				return func(v int) int { return spin(v, work) }
			}
			sum := 0
			err := pipeline.Run(context.Background(), pipeline.Options{Window: 64}, produce, worker, func(v int) error {
				sum += v
				return nil
			})
			if err != nil {
				b.Fatal(err)
			}
		})
	}
}
